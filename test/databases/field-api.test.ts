// /api/field end to end on the sample database: reading and editing fields, values and human-readable
// remappings, search and remapping lookups, dimensions, summary, rescan/discard, and the error paths.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { fieldOf, installSample } from './helpers.js';

forEachAppDb('/api/field', (server) => {
  let admin: Client;
  let user: Client;
  let md: any;
  const f = (table: string, field: string) => fieldOf(md, table, field).id as number;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
    md = (await installSample(admin)).metadata;
  });

  test('GET a field: Metabase shape with its table and database', async () => {
    const id = f('PRODUCTS', 'CATEGORY');
    const response = await user.get(`/api/field/${id}`);
    assert.equal(response.status, 200);
    const field = response.body;
    assert.equal(field.name, 'CATEGORY');
    assert.equal(field.base_type, 'type/Text');
    assert.equal(field.effective_type, 'type/Text');
    assert.equal(field.semantic_type, 'type/Category');
    assert.equal(field.has_field_values, 'list');
    assert.equal(field.visibility_type, 'normal');
    assert.equal(field.table.name, 'PRODUCTS');
    assert.equal(field.table.db.name, 'Sample Database');
    assert.equal(field.table.db.details, undefined);
    assert.deepEqual(field.dimensions, []);
    for (const key of ['database_type', 'position', 'database_position', 'custom_position', 'fingerprint', 'fingerprint_version', 'last_analyzed', 'nfc_path', 'json_unfolding', 'target', 'name_field', 'entity_id', 'coercion_strategy', 'settings']) {
      assert.ok(key in field, key);
    }
    const pk = (await user.get(`/api/field/${f('PRODUCTS', 'ID')}`)).body;
    assert.equal(pk.name_field.name, 'TITLE');
    const fk = (await user.get(`/api/field/${f('ORDERS', 'PRODUCT_ID')}`)).body;
    assert.equal(fk.target.id, f('PRODUCTS', 'ID'));
    assert.equal((await user.get('/api/field/999999')).status, 404);
    assert.equal((await user.get('/api/field/abc')).status, 404);
    assert.equal((await server().anon.get(`/api/field/${id}`)).status, 401);
  });

  test('PUT a field: admin only, validated, kept across syncs', async () => {
    const id = f('PRODUCTS', 'VENDOR');
    assert.equal((await user.put(`/api/field/${id}`, { display_name: 'Maker' })).status, 403);
    const bad = await admin.put(`/api/field/${id}`, { semantic_type: 'type/Nonsense' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors.semantic_type, 'nullable value must be a valid field semantic or relation type.');
    assert.equal((await admin.put(`/api/field/${id}`, { visibility_type: 'invisible' })).status, 400);
    assert.equal((await admin.put(`/api/field/${id}`, { has_field_values: 'always' })).status, 400);
    assert.equal((await admin.put(`/api/field/${id}`, { coercion_strategy: 'Coercion/Magic' })).status, 400);
    assert.equal((await admin.put('/api/field/999999', { display_name: 'x' })).status, 404);
    const updated = await admin.put(`/api/field/${id}`, { display_name: 'Maker', description: 'Who makes it', semantic_type: 'type/Company', caveats: 'Sometimes wrong', points_of_interest: 'Big names' });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.display_name, 'Maker');
    assert.equal(updated.body.description, 'Who makes it');
    assert.equal(updated.body.caveats, 'Sometimes wrong');
    assert.equal((await user.get(`/api/field/${id}`)).body.display_name, 'Maker');
    const coerced = await admin.put(`/api/field/${f('PEOPLE', 'ZIP')}`, { coercion_strategy: 'Coercion/String->Integer' });
    assert.equal(coerced.body.effective_type, 'type/Integer');
    const uncoerced = await admin.put(`/api/field/${f('PEOPLE', 'ZIP')}`, { coercion_strategy: null });
    assert.equal(uncoerced.body.effective_type, 'type/Text');
    const hidden = await admin.put(`/api/field/${f('PEOPLE', 'PASSWORD')}`, { visibility_type: 'sensitive' });
    assert.equal(hidden.body.visibility_type, 'sensitive');
    const metadata = (await user.get(`/api/database/${md.id}/metadata`)).body;
    assert.ok(!metadata.tables.find((t: any) => t.name === 'PEOPLE').fields.some((x: any) => x.name === 'PASSWORD'));
    const settings = await admin.put(`/api/field/${id}`, { settings: { currency: 'EUR' } });
    assert.deepEqual(settings.body.settings, { currency: 'EUR' });
    const notFk = await admin.put(`/api/field/${f('ORDERS', 'USER_ID')}`, { fk_target_field_id: 999999 });
    assert.equal(notFk.status, 400);
    assert.deepEqual(notFk.body, { errors: { fk_target_field_id: 'Invalid target field' } });
    await admin.put(`/api/field/${id}`, { display_name: 'Vendor', description: null, caveats: null, points_of_interest: null, settings: null });
  });

  test('PUT a field: coercions must fit the base type; null has_field_values and visibility_type are accepted', async () => {
    const title = f('PRODUCTS', 'TITLE');
    const unix = await admin.put(`/api/field/${title}`, { coercion_strategy: 'Coercion/UNIXSeconds->DateTime' });
    assert.equal(unix.status, 400);
    assert.equal(unix.text, 'Incompatible coercion strategy.');
    assert.equal((await admin.put(`/api/field/${f('ORDERS', 'QUANTITY')}`, { coercion_strategy: 'Coercion/ISO8601->DateTime' })).status, 400);
    const seconds = await admin.put(`/api/field/${f('ORDERS', 'QUANTITY')}`, { coercion_strategy: 'Coercion/UNIXSeconds->DateTime' });
    assert.equal(seconds.status, 200, seconds.text);
    assert.equal(seconds.body.effective_type, 'type/Instant');
    await admin.put(`/api/field/${f('ORDERS', 'QUANTITY')}`, { coercion_strategy: null });
    const category = f('PRODUCTS', 'CATEGORY');
    const nulls = await admin.put(`/api/field/${category}`, { has_field_values: null, visibility_type: null });
    assert.equal(nulls.status, 200, nulls.text);
    assert.equal(nulls.body.visibility_type, 'normal');
    // has_field_values null: back to what sync infers (text reads as search until the next analysis).
    assert.ok(['list', 'search'].includes(nulls.body.has_field_values));
    assert.equal((await admin.put(`/api/field/${category}`, { has_field_values: 'list' })).body.has_field_values, 'list');
    assert.equal((await user.get(`/api/field/${category}/values`)).body.values.length, 4);
  });

  test('rescanning a single field stores values only for fields that keep a list (not keys, dates, emails, sensitive or retired ones)', async () => {
    const stored = async (id: number) => (await server().ctx.db.selectFrom('metabase_fieldvalues').select('id').where('field_id', '=', id).execute()).length;
    for (const [table, name] of [['ORDERS', 'ID'], ['ORDERS', 'CREATED_AT'], ['PEOPLE', 'EMAIL'], ['ORDERS', 'USER_ID']] as const) {
      const id = f(table, name);
      assert.deepEqual((await admin.post(`/api/field/${id}/rescan_values`)).body, { status: 'success' });
      assert.equal(await stored(id), 0, `${table}.${name}`);
      assert.deepEqual((await user.get(`/api/field/${id}/values`)).body.values, []);
    }
    const source = f('PEOPLE', 'SOURCE');
    for (const visibility of ['sensitive', 'retired'] as const) {
      assert.equal((await admin.put(`/api/field/${source}`, { visibility_type: visibility })).status, 200);
      await admin.post(`/api/field/${source}/rescan_values`);
      assert.equal(await stored(source), 0, visibility);
    }
    assert.equal((await admin.put(`/api/field/${source}`, { visibility_type: 'normal' })).status, 200);
    assert.equal((await user.get(`/api/field/${source}/values`)).body.values.length, 5);
    assert.equal(await stored(source), 1);
  });

  test('values: list fields return their values; others an empty list', async () => {
    const category = await user.get(`/api/field/${f('PRODUCTS', 'CATEGORY')}/values`);
    assert.deepEqual(category.body, { field_id: f('PRODUCTS', 'CATEGORY'), values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']], has_more_values: false });
    const email = await user.get(`/api/field/${f('PEOPLE', 'EMAIL')}/values`);
    assert.deepEqual(email.body, { field_id: f('PEOPLE', 'EMAIL'), values: [], has_more_values: false });
    assert.equal((await user.get('/api/field/999999/values')).status, 404);
  });

  test('human-readable values: set, read, cleared; only for list-like fields', async () => {
    const id = f('PRODUCTS', 'CATEGORY');
    const categories = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'];
    assert.equal((await user.post(`/api/field/${id}/values`, { values: categories.map((c) => [c, c.toUpperCase()]) })).status, 403);
    const set = await admin.post(`/api/field/${id}/values`, { values: categories.map((c) => [c, c.toUpperCase()]) });
    assert.deepEqual(set.body, { status: 'success' });
    assert.deepEqual((await user.get(`/api/field/${id}/values`)).body.values, categories.map((c) => [c, c.toUpperCase()]));
    // A rescan keeps the labels of values that still exist.
    assert.deepEqual((await admin.post(`/api/field/${id}/rescan_values`)).body, { status: 'success' });
    assert.deepEqual((await user.get(`/api/field/${id}/values`)).body.values, categories.map((c) => [c, c.toUpperCase()]));
    await admin.post(`/api/field/${id}/values`, { values: categories.map((c) => [c]) });
    assert.deepEqual((await user.get(`/api/field/${id}/values`)).body.values, categories.map((c) => [c]));
    const bad = await admin.post(`/api/field/${id}/values`, { values: [['a', 'b', 'c']] });
    assert.equal(bad.status, 400);
    const partial = await admin.post(`/api/field/${id}/values`, { values: [['Doohickey', 'D'], ['Gadget']] });
    assert.equal(partial.status, 400);
    assert.equal(partial.text, 'If remapped values are specified, they must be specified for all field values');
    const search = await admin.post(`/api/field/${f('PEOPLE', 'EMAIL')}/values`, { values: [['x', 'X']] });
    assert.equal(search.status, 400, 'a search field keeps no list of values');
    const notList = await admin.post(`/api/field/${f('ORDERS', 'CREATED_AT')}/values`, { values: [['x']] });
    assert.equal(notList.status, 400);
    assert.match(notList.text, /has_field_values/);
  });

  test('rescan and discard values', async () => {
    const id = f('PEOPLE', 'STATE');
    assert.equal((await user.post(`/api/field/${id}/discard_values`)).status, 403);
    assert.deepEqual((await admin.post(`/api/field/${id}/discard_values`)).body, { status: 'success' });
    // Asking for the values of a list field scans them again.
    const values = (await user.get(`/api/field/${id}/values`)).body.values;
    assert.equal(values.length, 49);
    assert.equal((await admin.post('/api/field/999999/rescan_values')).status, 404);
  });

  test('search: values starting with the text, case-insensitive; through FKs to a display field', async () => {
    const category = f('PRODUCTS', 'CATEGORY');
    const result = await user.get(`/api/field/${category}/search/${category}`, { query: { value: 'gad' } });
    assert.equal(result.status, 200);
    assert.deepEqual(result.body, [['Gadget']]);
    const titles = await user.get(`/api/field/${f('ORDERS', 'PRODUCT_ID')}/search/${f('PRODUCTS', 'TITLE')}`, { query: { value: 'Rustic', limit: 3 } });
    assert.equal(titles.body.length, 3);
    for (const [pk, title] of titles.body) {
      assert.equal(typeof pk, 'number');
      assert.match(title, /^Rustic /);
    }
    const wildcard = await user.get(`/api/field/${category}/search/${category}`, { query: { value: '%' } });
    assert.deepEqual(wildcard.body, []);
    assert.equal((await user.get(`/api/field/${category}/search/${category}`)).status, 400);
  });

  test('remapping: a key to its display value', async () => {
    const response = await user.get(`/api/field/${f('ORDERS', 'PRODUCT_ID')}/remapping/${f('PRODUCTS', 'TITLE')}`, { query: { value: '1' } });
    assert.equal(response.status, 200);
    assert.equal(response.body[0], 1);
    assert.match(response.body[1], /^[\w-]+ \w+ \w+$/, 'a product title: adjective, material, noun');
    // Nothing matches: Metabase's nil, an empty 204 (not [value]).
    const missing = await user.get(`/api/field/${f('ORDERS', 'PRODUCT_ID')}/remapping/${f('PRODUCTS', 'TITLE')}`, { query: { value: '999999' } });
    assert.equal(missing.status, 204);
    assert.equal(missing.text, '');
    const none = await user.get(`/api/field/${f('PEOPLE', 'ID')}/remapping/${f('PEOPLE', 'NAME')}`, { query: { value: '0' } });
    assert.equal(none.status, 204);
  });

  test('a field an admin sets to list keeps the values that fit in 100,000 characters, however long each is (REVIEWS.BODY)', async () => {
    const body = f('REVIEWS', 'BODY');
    assert.equal((await admin.put(`/api/field/${body}`, { has_field_values: 'list' })).status, 200);
    assert.equal((await admin.post(`/api/field/${body}/rescan_values`)).status, 200);
    const response = await user.get(`/api/field/${body}/values`);
    assert.equal(response.status, 200);
    const values: string[] = response.body.values.map((v: unknown[]) => v[0]);
    // 1,112 distinct bodies of up to 325 characters: as in Metabase, values are taken in order while the total stays
    // within 100,000 characters; no value is cut or refused for its own length.
    assert.equal(values.length, 570);
    assert.equal(response.body.has_more_values, true);
    assert.ok(values.reduce((n, v) => n + v.length, 0) <= 100_000);
    assert.ok(values.some((v) => v.length > 300));
    assert.deepEqual(values, [...values].sort());
    assert.equal((await admin.get(`/api/field/${body}`)).body.has_field_values, 'list', 'an admin\'s choice stays');
    assert.equal((await admin.put(`/api/field/${body}`, { has_field_values: null })).status, 200);
    await admin.post(`/api/field/${body}/discard_values`);
  });

  test('dimensions: internal and external remappings', async () => {
    const quantity = f('ORDERS', 'QUANTITY');
    assert.equal((await user.post(`/api/field/${quantity}/dimension`, { type: 'internal', name: 'Qty' })).status, 403);
    const internal = await admin.post(`/api/field/${quantity}/dimension`, { type: 'internal', name: 'Qty label' });
    assert.equal(internal.status, 200);
    assert.equal(internal.body.type, 'internal');
    assert.equal(internal.body.name, 'Qty label');
    assert.equal(internal.body.field_id, quantity);
    assert.equal((await user.get(`/api/field/${quantity}`)).body.dimensions.length, 1);
    assert.equal((await admin.delete(`/api/field/${quantity}/dimension`)).status, 204);
    assert.deepEqual((await user.get(`/api/field/${quantity}`)).body.dimensions, []);

    const productId = f('ORDERS', 'PRODUCT_ID');
    const noTarget = await admin.post(`/api/field/${productId}/dimension`, { type: 'external', name: 'Product' });
    assert.equal(noTarget.status, 400);
    const external = await admin.post(`/api/field/${productId}/dimension`, { type: 'external', name: 'Product', human_readable_field_id: f('PRODUCTS', 'TITLE') });
    assert.equal(external.body.human_readable_field_id, f('PRODUCTS', 'TITLE'));
    const hydrated = (await user.get(`/api/field/${productId}`)).body.dimensions[0];
    assert.equal(hydrated.human_readable_field.name, 'TITLE');
    const spec = await admin.post(`/api/field/${productId}/dimension`, { 'dimension-type': 'external', 'dimension-name': 'Product title', human_readable_field_id: f('PRODUCTS', 'TITLE') });
    assert.equal(spec.body.name, 'Product title');
    assert.equal(spec.body.id, external.body.id, 'one dimension per field, replaced');
    assert.equal((await admin.post(`/api/field/${productId}/dimension`, { type: 'sideways', name: 'x' })).status, 400);
    assert.equal((await admin.post(`/api/field/${productId}/dimension`, {})).status, 400);
    assert.equal((await admin.delete(`/api/field/${productId}/dimension`)).status, 204);
  });

  test('summary and related', async () => {
    const summary = await user.get(`/api/field/${f('PRODUCTS', 'CATEGORY')}/summary`);
    assert.deepEqual(summary.body, [['count', 200], ['distincts', 4]]);
    const related = (await user.get(`/api/field/${f('PRODUCTS', 'CATEGORY')}/related`)).body;
    assert.equal(related.table.name, 'PRODUCTS');
    assert.ok(Array.isArray(related.fields) && related.fields.length > 0);
    assert.equal((await user.get('/api/field/999999/summary')).status, 404);
  });
});
