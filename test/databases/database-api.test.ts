// /api/database end to end: listing and reading (with tables, fields, metadata, schemas), creating, updating and
// deleting databases, validation, the sample database and its setting, maintenance triggers, and every error path.

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, copyFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createPgDatabase } from '../helpers/databases.js';
import { installSample, loadSamplesEverywhere, waitForSync, fieldOf, tableOf, type LoadedSamples } from './helpers.js';

let samples: LoadedSamples;
before(async () => {
  samples = await loadSamplesEverywhere(['sqlite', 'postgres']);
});
after(async () => {
  await samples?.cleanup();
});

forEachAppDb('/api/database', (server) => {
  let admin: Client;
  let user: Client;
  let sample: { id: number; metadata: any };
  let dir: string;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
    sample = await installSample(admin);
    dir = mkdtempSync(join(tmpdir(), 'quarry-dbapi-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('requires a session', async () => {
    const response = await server().anon.get('/api/database');
    assert.equal(response.status, 401);
    assert.equal(response.text, 'Unauthenticated');
  });

  test('lists databases as {data, total}, with tables on request', async () => {
    const list = await user.get('/api/database');
    assert.equal(list.status, 200);
    assert.equal(list.body.total, list.body.data.length);
    const db = list.body.data.find((d: any) => d.id === sample.id);
    assert.equal(db.name, 'Sample Database');
    assert.equal(db.is_sample, true);
    assert.equal(db.engine, 'sqlite');
    assert.equal(db.tables, undefined);
    const withTables = await user.get('/api/database', { query: { include: 'tables' } });
    const tables = withTables.body.data.find((d: any) => d.id === sample.id).tables;
    assert.deepEqual(tables.map((t: any) => t.display_name), ['Accounts', 'Analytic Events', 'Feedback', 'Invoices', 'Orders', 'People', 'Products', 'Reviews']);
    assert.equal((await user.get('/api/database', { query: { include: 'nonsense' } })).status, 400);
    const saved = await user.get('/api/database', { query: { saved: 'true' } });
    assert.equal(saved.status, 200);
    assert.equal((await user.get('/api/database', { query: { saved: 'maybe' } })).status, 400);
  });

  test('one database: the Metabase shape, details only for admins, with secrets masked', async () => {
    const asUser = await user.get(`/api/database/${sample.id}`);
    assert.equal(asUser.status, 200);
    assert.equal(asUser.body.details, undefined);
    assert.equal(asUser.body['can-manage'], false);
    for (const key of ['id', 'name', 'engine', 'features', 'native_permissions', 'is_sample', 'is_full_sync', 'is_on_demand', 'auto_run_queries', 'schedules',
      'metadata_sync_schedule', 'cache_field_values_schedule', 'timezone', 'dbms_version', 'initial_sync_status', 'settings', 'created_at', 'updated_at', 'entity_id']) {
      assert.ok(key in asUser.body, key);
    }
    assert.equal(asUser.body.initial_sync_status, 'complete');
    const asAdmin = await admin.get(`/api/database/${sample.id}`);
    assert.equal(asAdmin.body['can-manage'], true);
    assert.equal(asAdmin.body.details['read-only'], true);
    assert.match(asAdmin.body.details.db, /sample-database\.sqlite$/);
    const withFields = await user.get(`/api/database/${sample.id}`, { query: { include: 'tables.fields' } });
    const orders = withFields.body.tables.find((t: any) => t.name === 'ORDERS');
    assert.equal(orders.fields.length, 9);
    assert.equal(orders.fields.find((f: any) => f.name === 'PRODUCT_ID').target.name, 'ID');
    assert.equal((await user.get('/api/database/999999')).status, 404);
    assert.equal((await user.get('/api/database/999999')).text, 'Not found.');
    const notNumeric = await user.get('/api/database/abc');
    assert.equal(notNumeric.status, 404);
    assert.equal(notNumeric.text, 'API endpoint does not exist.');
    assert.equal((await user.get(`/api/database/${sample.id}`, { query: { include: 'fields' } })).status, 400);
  });

  test('metadata, schemas, fields and primary keys', async () => {
    const md = await user.get(`/api/database/${sample.id}/metadata`);
    assert.equal(md.status, 200);
    assert.equal(md.body.tables.length, 8);
    assert.ok(tableOf(md.body, 'PRODUCTS').fields.length === 8);
    assert.equal((await user.get(`/api/database/${sample.id}/metadata`, { query: { skip_fields: 'true' } })).body.tables[0].fields, undefined);
    assert.deepEqual((await user.get(`/api/database/${sample.id}/schemas`)).body, ['']);
    const noSchema = await user.get(`/api/database/${sample.id}/schema/`);
    assert.equal(noSchema.status, 200);
    assert.equal(noSchema.body.length, 8);
    // An unknown schema is a 404, here and on the Saved Questions database.
    assert.equal((await user.get(`/api/database/${sample.id}/schema/elsewhere`)).status, 404);
    assert.equal((await user.get('/api/database/-1337/schema/No such collection')).status, 404);
    // listing a database's schemas on the server side needs its "manage database" (details) permission
    assert.equal((await user.get(`/api/database/${sample.id}/syncable_schemas`)).status, 403);
    assert.deepEqual((await admin.get(`/api/database/${sample.id}/syncable_schemas`)).body, []);
    const fields = (await user.get(`/api/database/${sample.id}/fields`)).body;
    const total = fields.find((f: any) => f.name === 'TOTAL' && f.table_name === 'ORDERS');
    assert.deepEqual(Object.keys(total).sort(), ['base_type', 'display_name', 'id', 'name', 'schema', 'semantic_type', 'table_id', 'table_name']);
    assert.equal(total.table_id, tableOf(sample.metadata, 'ORDERS').id);
    const pks = (await user.get(`/api/database/${sample.id}/idfields`)).body;
    assert.equal(pks.length, 8);
    assert.ok(pks.every((f: any) => f.semantic_type === 'type/PK' && f.table.name));
    for (const path of ['metadata', 'schemas', 'fields', 'idfields', 'schema/x']) assert.equal((await user.get(`/api/database/999999/${path}`)).status, 404, path);
  });

  test('autocomplete suggestions: prefix or substring, Metabase tuples', async () => {
    const prefix = await user.get(`/api/database/${sample.id}/autocomplete_suggestions`, { query: { prefix: 'pro' } });
    assert.deepEqual(prefix.body, [['PRODUCTS', 'Table'], ['PRODUCT_ID', 'ORDERS :type/Integer :type/FK'], ['PRODUCT_ID', 'REVIEWS :type/Integer :type/FK']]);
    const substring = await user.get(`/api/database/${sample.id}/autocomplete_suggestions`, { query: { substring: 'ATEGOR', prefix: 'zzz' } });
    assert.deepEqual(substring.body, [['CATEGORY', 'PRODUCTS :type/Text :type/Category']]);
    const ean = await user.get(`/api/database/${sample.id}/autocomplete_suggestions`, { query: { prefix: 'ea' } });
    assert.deepEqual(ean.body, [['EAN', 'PRODUCTS :type/Text']]);
    assert.equal((await user.get(`/api/database/${sample.id}/autocomplete_suggestions`)).status, 400);
    const cards = await user.get(`/api/database/${sample.id}/card_autocomplete_suggestions`, { query: { query: 'orders' } });
    assert.equal(cards.status, 200);
    assert.ok(Array.isArray(cards.body));
    assert.equal((await user.get(`/api/database/${sample.id}/card_autocomplete_suggestions`)).status, 400);
  });

  test('the Saved Questions virtual database', async () => {
    assert.deepEqual((await user.get('/api/database/-1337/schemas')).body, []);
    assert.deepEqual((await user.get('/api/database/-1337/schema/Everything else')).body, []);
    assert.deepEqual((await user.get('/api/database/-1337/datasets')).body, []);
    const md = (await user.get('/api/database/-1337/metadata')).body;
    assert.equal(md.id, -1337);
    assert.equal(md.is_saved_questions, true);
    assert.deepEqual(md.tables, []);
  });

  test('the Saved Questions virtual database lists questions; models are under /datasets', async () => {
    const orders = tableOf(sample.metadata, 'ORDERS').id;
    const made: number[] = [];
    for (const type of ['question', 'model'] as const) {
      const card = await admin.post('/api/card', {
        name: `Virtual ${type}`, type, display: 'table', visualization_settings: {},
        dataset_query: { database: sample.id, type: 'query', query: { 'source-table': orders, limit: 1 } },
      });
      assert.equal(card.status, 200, card.text);
      made.push(card.body.id);
      // result metadata comes from running the card
      await admin.post(`/api/card/${card.body.id}/query`);
    }
    const [question, model] = made.map((id) => `card__${id}`);
    const tables = async (path: string) => {
      const out: string[] = [];
      for (const schema of (await user.get(`/api/database/-1337/${path}`)).body) {
        out.push(...(await user.get(`/api/database/-1337/${path === 'schemas' ? 'schema' : 'datasets'}/${encodeURIComponent(schema)}`)).body.map((t: any) => t.id));
      }
      return out;
    };
    const listed = (await user.get('/api/database', { query: { saved: 'true', include: 'tables' } })).body.data.find((d: any) => d.id === -1337);
    assert.ok(listed, 'the virtual database is listed');
    assert.ok(listed.tables.some((t: any) => t.id === question));
    assert.ok(!listed.tables.some((t: any) => t.id === model), 'models are not saved questions');
    assert.ok((await tables('schemas')).includes(question));
    assert.ok(!(await tables('schemas')).includes(model));
    assert.ok((await tables('datasets')).includes(model));
    assert.ok(!(await tables('datasets')).includes(question));
    const md = (await user.get('/api/database/-1337/metadata')).body.tables.map((t: any) => t.id);
    assert.ok(md.includes(question) && !md.includes(model));
    assert.equal((await user.get(`/api/table/${model}/query_metadata`)).status, 200, 'a model still reads as a table');
    for (const id of made) await admin.delete(`/api/card/${id}`);
  });

  test('admin-only operations answer 403 to other users', async () => {
    const id = sample.id;
    const calls: Array<[string, string, unknown?]> = [
      ['post', '/api/database', { engine: 'sqlite', name: 'x', details: { db: 'x' } }],
      ['put', `/api/database/${id}`, { name: 'x' }],
      ['delete', `/api/database/${id}`],
      ['post', '/api/database/validate', { details: { engine: 'sqlite', details: { db: 'x' } } }],
      ['post', '/api/database/sample_database'],
      ['get', `/api/database/${id}/usage_info`],
      ['post', `/api/database/${id}/sync_schema`],
      ['post', `/api/database/${id}/rescan_values`],
      ['post', `/api/database/${id}/discard_values`],
      ['post', `/api/database/${id}/dismiss_spinner`],
      ['post', `/api/database/${id}/unpersist`],
    ];
    for (const [method, path, body] of calls) {
      const response = await (user as any)[method](path, body);
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.equal(response.text, "You don't have permissions to do that.");
    }
  });

  test('create: validation, connection failures as clear 400s, then a background sync', async () => {
    const missing = await admin.post('/api/database', { engine: 'sqlite' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors.name, 'value must be a non-blank string.');
    assert.equal(missing.body.errors.details, 'Value must be a map.');
    const engine = await admin.post('/api/database', { engine: 'oracle', name: 'x', details: {} });
    assert.equal(engine.status, 400);
    assert.equal(engine.body.errors.engine, 'value must be a valid database engine.');
    // Metabase's driver would create an empty file there; Quarry refuses (deliberately: an API call must not be a way
    // to create files at chosen paths) and creates nothing
    const noFile = await admin.post('/api/database', { engine: 'sqlite', name: 'No such file', details: { db: join(dir, 'nope.sqlite') } });
    assert.equal(noFile.status, 400);
    assert.equal(noFile.body.message, `Database file "${join(dir, 'nope.sqlite')}" does not exist.`);
    assert.ok(noFile.body.errors.db);
    assert.equal(existsSync(join(dir, 'nope.sqlite')), false, 'no file was created');
    assert.ok(!(await admin.get('/api/database')).body.data.some((d: any) => d.name === 'No such file'), 'no database was added');
    const started = Date.now();
    const refused = await admin.post('/api/database', { engine: 'postgres', name: 'x', details: { host: '127.0.0.1', port: 1, dbname: 'x', user: 'postgres' } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /refused/i);
    assert.ok(Date.now() - started < 5000);
    const ttl = await admin.post('/api/database', { engine: 'sqlite', name: 'x', details: { db: samples.details.sqlite.db }, cache_ttl: 10 });
    assert.equal(ttl.status, 402);

    const file = join(dir, 'copy.sqlite');
    copyFileSync(String(samples.details.sqlite.db), file);
    const created = await admin.post('/api/database', { engine: 'sqlite', name: 'My copy', details: { db: file, 'tunnel-enabled': true, 'additional-options': 'x=y' }, is_full_sync: false });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.name, 'My copy');
    assert.equal(created.body.is_full_sync, false);
    assert.deepEqual(created.body.details, { db: file });
    assert.equal(created.body.creator_id !== null, true);
    const synced = await waitForSync(admin, created.body.id);
    assert.equal(synced.initial_sync_status, 'complete');
    const md = (await admin.get(`/api/database/${created.body.id}/metadata`)).body;
    // Without a full sync there is no analysis: no fingerprints, no field values.
    assert.equal(fieldOf(md, 'PRODUCTS', 'CATEGORY').fingerprint, null);
    assert.equal(fieldOf(md, 'PRODUCTS', 'ID').semantic_type, 'type/PK');
  });

  test('update: names, schedules, settings, secrets kept when masked; delete', async () => {
    const created = await admin.post('/api/database', { engine: 'postgres', name: 'Warehouse', details: { ...samples.details.postgres, password: 'not-needed' } });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id;
    assert.equal(created.body.details.password, '**MetabasePass**');
    assert.equal(created.body.details.port, samples.details.postgres.port);
    const renamed = await admin.put(`/api/database/${id}`, { name: 'Warehouse 2', description: 'All the things', details: created.body.details });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.name, 'Warehouse 2');
    assert.equal(renamed.body.description, 'All the things');
    assert.equal(renamed.body.details.password, '**MetabasePass**');
    const scheduled = await admin.put(`/api/database/${id}`, {
      schedules: { metadata_sync: { schedule_type: 'daily', schedule_hour: 4, schedule_minute: 30 }, cache_field_values: { schedule_type: 'weekly', schedule_day: 'tue', schedule_hour: 2, schedule_minute: 0 } },
    });
    assert.equal(scheduled.body.metadata_sync_schedule, '0 30 4 * * ? *');
    assert.deepEqual(scheduled.body.schedules.metadata_sync, { schedule_type: 'daily', schedule_minute: 30, schedule_hour: 4, schedule_day: null, schedule_frame: null });
    assert.equal(scheduled.body.schedules.cache_field_values.schedule_day, 'tue');
    const badSchedule = await admin.put(`/api/database/${id}`, { schedules: { metadata_sync: { schedule_type: 'yearly' } } });
    assert.equal(badSchedule.status, 400);
    const settings = await admin.put(`/api/database/${id}`, { settings: { 'database-enable-actions': true } });
    assert.deepEqual(settings.body.settings, { 'database-enable-actions': true });
    const cleared = await admin.put(`/api/database/${id}`, { settings: { 'database-enable-actions': null } });
    assert.equal(cleared.body.settings, null);
    // The model-persistence switch as a setting goes through the same checks as POST /persist.
    const persist = await admin.put(`/api/database/${id}`, { settings: { 'persist-models-enabled': true } });
    assert.equal(persist.status, 400);
    assert.match(persist.text, /not enabled/);
    assert.equal((await admin.get(`/api/database/${id}`)).body.settings, null);
    // A partial details map is merged into the stored one (Metabase merges).
    const port = await admin.put(`/api/database/${id}`, { details: { port: samples.details.postgres.port } });
    assert.equal(port.status, 200, port.text);
    assert.equal(port.body.details.dbname, samples.details.postgres.dbname);
    assert.equal(port.body.details.password, '**MetabasePass**');
    const wrongPort = await admin.put(`/api/database/${id}`, { details: { port: 1 } });
    assert.equal(wrongPort.status, 400);
    assert.equal((await admin.get(`/api/database/${id}`)).body.details.port, samples.details.postgres.port);
    const broken = await admin.put(`/api/database/${id}`, { details: { ...created.body.details, dbname: 'no_such_database_here' } });
    assert.equal(broken.status, 400);
    assert.match(broken.body.message, /does not exist/);
    assert.equal((await admin.get(`/api/database/${id}`)).body.details.dbname, samples.details.postgres.dbname);
    assert.equal((await admin.put('/api/database/999999', { name: 'x' })).status, 404);
    assert.equal((await admin.put(`/api/database/${id}`, { name: '' })).status, 400);
    assert.equal((await admin.get(`/api/database/${id}/usage_info`)).status, 200);
    assert.deepEqual((await admin.get(`/api/database/${id}/usage_info`)).body, { question: 0, dataset: 0, metric: 0, segment: 0 });
    await waitForSync(admin, id);
    const deleted = await admin.delete(`/api/database/${id}`);
    assert.equal(deleted.status, 204);
    assert.equal((await admin.get(`/api/database/${id}`)).status, 404);
    assert.equal((await admin.delete(`/api/database/${id}`)).status, 404);
  });

  test('validate', async () => {
    const ok = await admin.post('/api/database/validate', { details: { engine: 'sqlite', details: { db: samples.details.sqlite.db } } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { valid: true });
    const flat = await admin.post('/api/database/validate', { engine: 'postgres', details: samples.details.postgres });
    assert.deepEqual(flat.body, { valid: true });
    const bad = await admin.post('/api/database/validate', { details: { engine: 'sqlite', details: { db: '/nonexistent/dir/x.db' } } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.valid, false);
    assert.match(bad.body.message, /does not exist/);
    const badEngine = await admin.post('/api/database/validate', { details: { engine: 'nope', details: {} } });
    assert.equal(badEngine.status, 400);
  });

  test('maintenance triggers and the sync spinner', async () => {
    for (const action of ['sync_schema', 'rescan_values', 'discard_values']) {
      const response = await admin.post(`/api/database/${sample.id}/${action}`);
      assert.equal(response.status, 200, action);
      assert.deepEqual(response.body, { status: 'ok' });
      assert.equal((await admin.post(`/api/database/999999/${action}`)).status, 404);
    }
    assert.deepEqual((await admin.post(`/api/database/${sample.id}/dismiss_spinner`)).body, { status: 'ok' });
    // sync_schema first checks the database can be reached: Metabase's 422 with the driver's message.
    const file = join(dir, 'vanishing.sqlite');
    copyFileSync(String(samples.details.sqlite.db), file);
    const vanishing = await admin.post('/api/database', { engine: 'sqlite', name: 'Vanishing', details: { db: file } });
    await waitForSync(admin, vanishing.body.id);
    rmSync(file);
    await admin.put(`/api/database/${vanishing.body.id}`, { description: 'gone' });
    const unreachable = await admin.post(`/api/database/${vanishing.body.id}/sync_schema`);
    assert.equal(unreachable.status, 422, unreachable.text);
    assert.match(unreachable.text, /does not exist/);
    await admin.delete(`/api/database/${vanishing.body.id}`);
    assert.equal((await admin.post('/api/database/999999/dismiss_spinner')).status, 404);
  });

  test('model persistence switch', async () => {
    const off = await admin.post(`/api/database/${sample.id}/persist`);
    assert.equal(off.status, 400);
    assert.match(off.text, /not enabled/);
    // as Metabase, the site switch is checked before anything else
    assert.equal((await user.post(`/api/database/${sample.id}/persist`)).text, 'Persisting models is not enabled.');
    await admin.put('/api/setting/persisted-models-enabled', { value: true });
    assert.equal((await user.post(`/api/database/${sample.id}/persist`)).status, 403);
    const sqlite = await admin.post(`/api/database/${sample.id}/persist`);
    assert.equal(sqlite.status, 400);
    assert.equal(sqlite.text, 'Database does not support persisting');
    // turning it on writes Quarry's schema into the database: a throwaway one, not the shared sample
    const scratch = await createPgDatabase('quarry_persist_switch');
    const created = await admin.post('/api/database', { engine: 'postgres', name: 'Persisting', details: { ...samples.details.postgres, dbname: scratch.name } });
    const id = created.body.id;
    assert.equal((await admin.post(`/api/database/${id}/persist`)).status, 204);
    assert.equal((await admin.post(`/api/database/${id}/persist`)).status, 204);
    const db = (await admin.get(`/api/database/${id}`)).body;
    assert.equal(db.settings['persist-models-enabled'], true);
    assert.ok(db.features.includes('persist-models-enabled'));
    assert.equal((await admin.post(`/api/database/${id}/unpersist`)).status, 204);
    assert.equal((await admin.post(`/api/database/${id}/unpersist`)).status, 204);
    assert.equal((await admin.get(`/api/database/${id}`)).body.settings, null);
    await admin.put('/api/setting/persisted-models-enabled', { value: false });
    await waitForSync(admin, id);
    await admin.delete(`/api/database/${id}`);
    await scratch.drop();
  });

  test('the sample database: idempotent restore, and the has-sample-database? setting', async () => {
    assert.equal((await user.get('/api/session/properties')).body['has-sample-database?'], true);
    const again = await admin.post('/api/database/sample_database');
    assert.equal(again.status, 200);
    assert.equal(again.body.id, sample.id);
    assert.equal(again.body.is_sample, true);
    assert.equal((await admin.get('/api/database')).body.data.filter((d: any) => d.is_sample).length, 1);
    assert.equal((await admin.delete(`/api/database/${sample.id}`)).status, 204);
    assert.equal((await user.get('/api/session/properties')).body['has-sample-database?'], false);
    const restored = await admin.post('/api/database/sample_database');
    assert.equal(restored.status, 200);
    assert.equal(restored.body.initial_sync_status, 'complete');
    assert.equal((await user.get('/api/session/properties')).body['has-sample-database?'], true);
    sample = { id: restored.body.id, metadata: (await admin.get(`/api/database/${restored.body.id}/metadata`)).body };
    assert.equal(fieldOf(sample.metadata, 'PRODUCTS', 'CATEGORY').semantic_type, 'type/Category');
    // The seed's metadata: descriptions, and no currency types on the money columns.
    assert.match(tableOf(sample.metadata, 'ORDERS').description, /orders/i);
    assert.equal(fieldOf(sample.metadata, 'PRODUCTS', 'PRICE').semantic_type, null);
    assert.equal(fieldOf(sample.metadata, 'REVIEWS', 'BODY').semantic_type, 'type/Description');
  });
});
