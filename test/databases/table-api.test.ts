// /api/table end to end on the sample database: listing, reading and editing tables, query_metadata (field
// order, dimension options, FK targets), FKs into a table, related tables, field order, value maintenance.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { fieldOf, installSample, tableOf } from './helpers.js';

forEachAppDb('/api/table', (server) => {
  let admin: Client;
  let user: Client;
  let md: any;
  const t = (name: string) => tableOf(md, name).id as number;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
    md = (await installSample(admin)).metadata;
  });

  test('list and get', async () => {
    const list = await user.get('/api/table');
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 8);
    assert.equal(list.body[0].db.name, 'Sample Database');
    const orders = await user.get(`/api/table/${t('ORDERS')}`);
    assert.equal(orders.body.name, 'ORDERS');
    assert.equal(orders.body.display_name, 'Orders');
    assert.equal(orders.body.entity_type, 'entity/TransactionTable');
    assert.equal(orders.body.field_order, 'database');
    assert.equal(orders.body.estimated_row_count, 18760);
    assert.equal(orders.body.pk_field, fieldOf(md, 'ORDERS', 'ID').id);
    assert.equal(orders.body.db.id, md.id);
    for (const key of ['active', 'visibility_type', 'initial_sync_status', 'is_upload', 'show_in_getting_started', 'caveats', 'points_of_interest', 'entity_id', 'view_count', 'schema', 'db_id']) assert.ok(key in orders.body, key);
    assert.equal((await user.get('/api/table/999999')).status, 404);
    assert.equal((await server().anon.get('/api/table')).status, 401);
  });

  test('a table read shows up in the recent views of the reader', async () => {
    await user.get(`/api/table/${t('PRODUCTS')}`);
    const views = (await user.get('/api/activity/recent_views')).body.recent_views;
    assert.ok(views.some((v: any) => v.model === 'table' && v.id === t('PRODUCTS')), JSON.stringify(views));
  });

  test('query_metadata: fields with targets, dimension options, FKs', async () => {
    const response = await user.get(`/api/table/${t('ORDERS')}/query_metadata`);
    assert.equal(response.status, 200);
    const body = response.body;
    assert.deepEqual(body.fields.map((f: any) => f.name), ['ID', 'USER_ID', 'PRODUCT_ID', 'SUBTOTAL', 'TAX', 'TOTAL', 'DISCOUNT', 'CREATED_AT', 'QUANTITY']);
    const productId = body.fields.find((f: any) => f.name === 'PRODUCT_ID');
    assert.equal(productId.target.name, 'ID');
    assert.equal(productId.target.table.name, 'PRODUCTS');
    const created = body.fields.find((f: any) => f.name === 'CREATED_AT');
    assert.ok(created.dimension_options.length > 5);
    assert.equal(body.dimension_options[created.default_dimension_option].name, 'Day');
    const subtotal = body.fields.find((f: any) => f.name === 'SUBTOTAL');
    assert.equal(body.dimension_options[subtotal.default_dimension_option].name, 'Auto bin');
    assert.equal(body.db.id, md.id);
    assert.deepEqual(body.segments, []);
    const products = (await user.get(`/api/table/${t('PRODUCTS')}/query_metadata`)).body;
    assert.equal(products.fks.length, 2);
    assert.deepEqual(products.fks.map((fk: any) => fk.origin.table.name).sort(), ['ORDERS', 'REVIEWS']);
    assert.equal((await user.get('/api/table/999999/query_metadata')).status, 404);
    assert.equal((await user.get('/api/table/card__999999/query_metadata')).status, 404);
  });

  test('fks and related', async () => {
    const fks = (await user.get(`/api/table/${t('PEOPLE')}/fks`)).body;
    assert.equal(fks.length, 1);
    assert.equal(fks[0].relationship, 'Mt1');
    assert.equal(fks[0].origin.name, 'USER_ID');
    assert.equal(fks[0].destination.name, 'ID');
    assert.equal(fks[0].destination_id, fieldOf(md, 'PEOPLE', 'ID').id);
    const related = (await user.get(`/api/table/${t('ORDERS')}/related`)).body;
    assert.deepEqual(related['linking-to'].map((x: any) => x.name).sort(), ['PEOPLE', 'PRODUCTS']);
    assert.deepEqual((await user.get(`/api/table/${t('PRODUCTS')}/related`)).body['linked-from'].map((x: any) => x.name).sort(), ['ORDERS', 'REVIEWS']);
    assert.equal((await user.get('/api/table/999999/fks')).status, 404);
  });

  test('update one or many tables (admin only); hidden tables leave the lists', async () => {
    const id = t('REVIEWS');
    assert.equal((await user.put(`/api/table/${id}`, { display_name: 'Critiques' })).status, 403);
    const updated = await admin.put(`/api/table/${id}`, { display_name: 'Critiques', description: 'What people said', caveats: 'Unverified', show_in_getting_started: true });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.display_name, 'Critiques');
    assert.equal(updated.body.show_in_getting_started, true);
    assert.equal((await admin.put(`/api/table/${id}`, { visibility_type: 'invisible' })).status, 400);
    assert.equal((await admin.put(`/api/table/${id}`, { field_order: 'random' })).status, 400);
    const bogus = await admin.put(`/api/table/${id}`, { entity_type: 'bogus' });
    assert.equal(bogus.status, 400);
    assert.equal(bogus.body.errors.entity_type, 'nullable value must be a valid entity type (keyword or string).');
    const entityType = (await admin.get(`/api/table/${id}`)).body.entity_type;
    assert.equal((await admin.put(`/api/table/${id}`, { entity_type: 'entity/EventTable' })).body.entity_type, 'entity/EventTable');
    if (entityType) await admin.put(`/api/table/${id}`, { entity_type: entityType });
    assert.equal((await admin.put('/api/table/999999', { display_name: 'x' })).status, 404);
    const hidden = await admin.put('/api/table', { ids: [id, t('FEEDBACK')], visibility_type: 'hidden' });
    assert.equal(hidden.status, 200);
    assert.deepEqual(hidden.body.map((x: any) => x.visibility_type), ['hidden', 'hidden']);
    const tables = (await user.get(`/api/database/${md.id}`, { query: { include: 'tables' } })).body.tables.map((x: any) => x.name);
    assert.ok(!tables.includes('REVIEWS') && !tables.includes('FEEDBACK'));
    assert.equal((await user.get(`/api/database/${md.id}/metadata`, { query: { include_hidden: 'true' } })).body.tables.length, 8);
    await admin.put('/api/table', { ids: [id, t('FEEDBACK')], visibility_type: null, display_name: null });
    await admin.put(`/api/table/${id}`, { display_name: 'Reviews', description: null, caveats: null, show_in_getting_started: false });
    assert.equal((await user.get(`/api/table/${id}`)).body.visibility_type, null);
  });

  test('field order: custom order, then back to database order', async () => {
    const id = t('PRODUCTS');
    const fields = tableOf(md, 'PRODUCTS').fields.map((f: any) => f.id) as number[];
    const reversed = [...fields].reverse();
    assert.equal((await user.put(`/api/table/${id}/fields/order`, reversed)).status, 403);
    const reordered = await admin.put(`/api/table/${id}/fields/order`, reversed);
    assert.deepEqual(reordered.body, { success: true });
    assert.equal((await user.get(`/api/table/${id}`)).body.field_order, 'custom');
    assert.deepEqual((await user.get(`/api/table/${id}/query_metadata`)).body.fields.map((f: any) => f.id), reversed);
    assert.equal((await admin.put(`/api/table/${id}/fields/order`, reversed.slice(1))).status, 400);
    await admin.put(`/api/table/${id}`, { field_order: 'alphabetical' });
    assert.deepEqual((await user.get(`/api/table/${id}/query_metadata`)).body.fields.map((f: any) => f.name), ['CATEGORY', 'CREATED_AT', 'EAN', 'ID', 'PRICE', 'RATING', 'TITLE', 'VENDOR']);
    await admin.put(`/api/table/${id}`, { field_order: 'database' });
    assert.deepEqual((await user.get(`/api/table/${id}/query_metadata`)).body.fields.map((f: any) => f.id), fields);
  });

  test('rescan, discard values and sync schema of one table (admin only)', async () => {
    const id = t('PRODUCTS');
    for (const action of ['rescan_values', 'discard_values', 'sync_schema']) assert.equal((await user.post(`/api/table/${id}/${action}`)).status, 403, action);
    assert.deepEqual((await admin.post(`/api/table/${id}/discard_values`)).body, { status: 'success' });
    const category = fieldOf(md, 'PRODUCTS', 'CATEGORY').id;
    const values = await server().ctx.db.selectFrom('metabase_fieldvalues').select('id').where('field_id', '=', category).execute();
    assert.equal(values.length, 0);
    assert.deepEqual((await admin.post(`/api/table/${id}/rescan_values`)).body, { status: 'success' });
    assert.deepEqual((await admin.post(`/api/table/${id}/sync_schema`)).body, { status: 'ok' });
    assert.equal((await user.get(`/api/field/${category}/values`)).body.values.length, 4);
    assert.equal((await admin.post('/api/table/999999/rescan_values')).status, 404);
  });
});
