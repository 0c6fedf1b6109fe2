// Model persistence on a real PostgreSQL warehouse: the switches and Metabase's messages, the table in Quarry's
// schema, and queries that use the model — questions on it, joins to it, dashboard filters, its own runs — reading
// that table (the SQL Quarry ran names it, and the counting view behind the model is never touched), refreshes that
// swap atomically, unpersisting, pruning.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from '../cache/warehouse.js';
import { refreshesDone } from '../../src/persistence/refresh.js';
import { pruneTables } from '../../src/persistence/prune.js';
import { schedulerOf } from '../../src/tasks/scheduler.js';
import { idleSyncs } from '../../src/sync/runner.js';

forEachAppDb('persisted models', (server) => {
  let admin: Client;
  let user: Client;
  let wh: CountingWarehouse;
  let model: { id: number };
  let schema: string;

  const orders = () => wh.table('counted_orders');
  const f = (name: string) => ['field', wh.field('counted_orders', name), null];

  async function post(path: string, body?: unknown, client = admin) {
    return client.post(path, body);
  }

  async function dataset(query: Record<string, unknown>) {
    const r = await admin.post('/api/dataset', query);
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.status, 'completed', r.text);
    return r.body;
  }

  async function tableRows(table: string): Promise<number | null> {
    const exists = await wh.sql('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [schema, table]);
    if (!exists.rowCount) return null;
    return Number((await wh.sql(`SELECT count(*) AS n FROM "${schema}"."${table}"`)).rows[0].n);
  }

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
    wh = await createCountingWarehouse(server(), admin);
    const created = await admin.post('/api/card', {
      name: 'Order Lines',
      type: 'model',
      display: 'table',
      visualization_settings: {},
      dataset_query: { database: wh.id, type: 'query', query: { 'source-table': orders(), fields: [f('id'), f('region'), f('category'), f('total')], 'order-by': [['asc', f('id')]] } },
    });
    assert.equal(created.status, 200, created.text);
    model = created.body;
  });
  after(async () => {
    await wh?.drop();
  });

  test('switches: the site, the database, the model — with Metabase’s messages', async () => {
    const early = await post(`/api/card/${model.id}/persist`);
    assert.equal(early.status, 400);
    assert.equal(early.body.message, 'Persisting models not enabled for database');
    const dbEarly = await post(`/api/database/${wh.id}/persist`);
    assert.equal(dbEarly.status, 400);
    assert.equal(dbEarly.text, 'Persisting models is not enabled.');
    assert.equal((await post('/api/persist/enable', undefined, user)).status, 403);
    assert.equal((await post('/api/persist/enable')).status, 204);
    assert.equal((await server().anon.get('/api/session/properties')).body['persisted-models-enabled'], true, 'a public setting');
    assert.equal((await post(`/api/database/${wh.id}/persist`, undefined, user)).status, 403);
    assert.equal((await post(`/api/database/${wh.id}/persist`)).status, 204);
    assert.equal((await post(`/api/database/${wh.id}/persist`)).status, 204, 'already on');
    const db = (await admin.get(`/api/database/${wh.id}`)).body;
    assert.ok(db.features.includes('persist-models-enabled'));
    const rows = (await admin.get('/api/persist')).body;
    const row = rows.data.find((x: any) => x.card_id === model.id);
    assert.ok(row, 'enabling the database readied its models');
    schema = row.schema_name;
    assert.match(schema, new RegExp(`^metabase_cache_[0-9a-f]{5}_${wh.id}$`));
    const info = await wh.sql(`SELECT key, value FROM "${schema}".cache_info ORDER BY key`);
    assert.deepEqual(info.rows.map((r: any) => r.key), ['created-at', 'instance-name', 'instance-uuid', 'settings-version']);
    const question = await admin.post('/api/card', { name: 'Not a model', display: 'table', visualization_settings: {}, dataset_query: { database: wh.id, type: 'query', query: { 'source-table': orders() } } });
    const notModel = await post(`/api/card/${question.body.id}/persist`);
    assert.equal(notModel.status, 400);
    assert.equal(notModel.text, 'Card is not a model');
    assert.equal((await post(`/api/card/${question.body.id}/refresh`)).status, 404, 'no row');
    assert.equal((await post('/api/card/987654/persist')).status, 404);
  });

  test('persisting builds the table; questions, joins and the model itself read it', async () => {
    const live = await admin.post(`/api/card/${model.id}/query`);
    assert.equal(live.body.status, 'completed', live.text);
    assert.equal((await post(`/api/card/${model.id}/persist`, undefined, user)).status, 403);
    assert.equal((await post(`/api/card/${model.id}/persist`)).status, 204);
    await refreshesDone(server().ctx);
    const info = (await admin.get(`/api/persist/card/${model.id}`)).body;
    assert.equal(info.state, 'persisted', JSON.stringify(info));
    assert.equal(info.active, true);
    assert.equal(info.error, null);
    assert.equal(info.card_name, 'Order Lines');
    assert.equal(info.table_name, `model_${model.id}_order_line`);
    assert.deepEqual(info.definition['field-definitions'].map((d: any) => d['field-name']), ['id', 'region', 'category', 'total']);
    assert.equal(typeof info['next-fire-time'], 'string');
    assert.equal(info.creator.email, 'admin@example.com');
    assert.equal((await admin.get(`/api/card/${model.id}`)).body.persisted, true);
    assert.equal(await tableRows(info.table_name), 15000);
    // Quarry's schema is its own: a sync of the database doesn't show it as the database's tables
    assert.equal((await admin.post(`/api/database/${wh.id}/sync_schema`)).status, 200);
    await idleSyncs(server().ctx);
    const synced = (await admin.get(`/api/database/${wh.id}/metadata`)).body.tables.map((t: any) => t.schema);
    assert.ok(!synced.some((s: string) => s.startsWith('metabase_cache_')), JSON.stringify(synced));

    const before = await wh.count();
    // the model's own run: same columns, same rows, in the same order, from the table
    const own = await admin.post(`/api/card/${model.id}/query`);
    assert.equal(own.body.status, 'completed', own.text);
    assert.match(own.body.data.native_form.query, new RegExp(`"${schema}"\\."${info.table_name}"`));
    assert.deepEqual(own.body.data.cols, live.body.data.cols);
    assert.deepEqual(own.body.data.rows, live.body.data.rows);
    assert.equal(own.body.row_count, 2000);

    // a question built on the model
    const byCategory = { database: wh.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['count'], ['sum', ['field', 'total', { 'base-type': 'type/Decimal' }]]], breakout: [['field', 'category', { 'base-type': 'type/Text' }]] } };
    const nested = await dataset(byCategory);
    assert.match(nested.data.native_form.query, new RegExp(info.table_name));
    const sql = (await admin.post('/api/dataset/native', byCategory)).body.query;
    assert.match(sql, new RegExp(`"${schema}"\\."${info.table_name}"`), 'the SQL Quarry runs reads the table');
    const direct = await dataset({ database: wh.id, type: 'query', query: { 'source-table': wh.table('orders'), aggregation: [['count'], ['sum', ['field', wh.field('orders', 'total'), null]]], breakout: [['field', wh.field('orders', 'category'), null]] } });
    assert.deepEqual(nested.data.rows, direct.data.rows);

    // a join to the model
    const joined = await dataset({
      database: wh.id,
      type: 'query',
      query: {
        'source-table': wh.table('orders'),
        joins: [{ alias: 'Lines', 'source-table': `card__${model.id}`, condition: ['=', ['field', wh.field('orders', 'id'), null], ['field', 'id', { 'base-type': 'type/Integer', 'join-alias': 'Lines' }]], fields: 'none' }],
        aggregation: [['count']],
      },
    });
    assert.match(joined.data.native_form.query, new RegExp(info.table_name));
    assert.deepEqual(joined.data.rows, [[15000]]);

    // native SQL naming the model as {{#N}}
    const tag = `#${model.id}-order-lines`;
    const native = await dataset({ database: wh.id, type: 'native', native: { query: `SELECT count(*) AS n FROM {{${tag}}} AS m`, 'template-tags': { [tag]: { id: 'm', name: tag, 'display-name': 'Model', type: 'card', 'card-id': model.id } } } });
    assert.match(native.data.native_form.query, new RegExp(info.table_name));
    assert.deepEqual(native.data.rows, [[15000]]);
    assert.equal(await wh.count(), before, 'the view behind the model was never read');
  });

  test('dashboard filters on the model and on a question built on it read the table', async () => {
    const info = (await admin.get(`/api/persist/card/${model.id}`)).body;
    const q = await admin.post('/api/card', {
      name: 'Totals by region',
      display: 'bar',
      visualization_settings: {},
      dataset_query: { database: wh.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['sum', ['field', 'total', { 'base-type': 'type/Decimal' }]]], breakout: [['field', 'region', { 'base-type': 'type/Integer' }]] } },
    });
    const dash = (await admin.post('/api/dashboard', { name: 'Persisted', parameters: [{ id: 'cat', name: 'Category', slug: 'category', type: 'string/=' }] })).body;
    const target = ['dimension', ['field', 'category', { 'base-type': 'type/Text' }]];
    const put = await admin.put(`/api/dashboard/${dash.id}`, {
      dashcards: [
        { id: -1, card_id: model.id, row: 0, col: 0, size_x: 8, size_y: 6, parameter_mappings: [{ parameter_id: 'cat', card_id: model.id, target: ['dimension', f('category')] }] },
        { id: -2, card_id: q.body.id, row: 6, col: 0, size_x: 8, size_y: 6, parameter_mappings: [{ parameter_id: 'cat', card_id: q.body.id, target }] },
      ],
    });
    assert.equal(put.status, 200, put.text);
    const before = await wh.count();
    const parameters = [{ id: 'cat', type: 'string/=', value: ['Gizmo'] }];
    for (const dc of put.body.dashcards) {
      const r = await admin.post(`/api/dashboard/${dash.id}/dashcard/${dc.id}/card/${dc.card_id}/query`, { parameters });
      assert.equal(r.body.status, 'completed', r.text);
      assert.match(r.body.data.native_form.query, new RegExp(info.table_name));
      if (dc.card_id === model.id) {
        assert.equal(r.body.row_count, 2000);
        assert.ok(r.body.data.rows.every((row: unknown[]) => row[2] === 'Gizmo'));
      } else {
        const expected = await wh.sql("SELECT region, sum(total)::float AS s FROM orders WHERE category = 'Gizmo' GROUP BY region ORDER BY region");
        assert.deepEqual(r.body.data.rows.map((row: unknown[]) => [row[0], Number(row[1])]), expected.rows.map((e: any) => [e.region, e.s]));
      }
    }
    assert.equal(await wh.count(), before);
  });

  test('a refresh swaps atomically: readers see the old rows or the new ones, never a half-written table', async () => {
    const info = (await admin.get(`/api/persist/card/${model.id}`)).body;
    await wh.sql("INSERT INTO orders VALUES (15001, 1, 'Gizmo', 10.00, '2025-01-01')");
    // make the refresh slow: the model's view sleeps a second each time it is read
    await wh.sql('CREATE OR REPLACE VIEW counted_orders AS SELECT o.* FROM orders o WHERE (SELECT quarry_counted(1500)) = 1');
    const count = { database: wh.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['count']] } };
    assert.equal((await post(`/api/card/${model.id}/refresh`)).status, 204);
    const seen = new Set<number>();
    let refreshing = true;
    const refresh = refreshesDone(server().ctx).then(() => (refreshing = false));
    while (refreshing) {
      const r = await dataset(count);
      seen.add(r.data.rows[0][0]);
    }
    await refresh;
    seen.add((await dataset(count)).data.rows[0][0]);
    assert.deepEqual([...seen].sort(), [15000, 15001], 'only whole tables: the old one, then the new one');
    const after = (await admin.get(`/api/persist/card/${model.id}`)).body;
    assert.equal(after.state, 'persisted');
    assert.ok(after.refresh_begin > info.refresh_begin);
    const leftovers = await wh.sql('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [schema]);
    assert.deepEqual(leftovers.rows.map((r: any) => r.table_name), ['cache_info', info.table_name], 'no temporary table left behind');
    await wh.sql('CREATE OR REPLACE VIEW counted_orders AS SELECT o.* FROM orders o WHERE (SELECT quarry_counted(0)) = 1');
  });

  test("editing the model's query reads live until the next refresh", async () => {
    const info = (await admin.get(`/api/persist/card/${model.id}`)).body;
    const card = (await admin.get(`/api/card/${model.id}`)).body;
    const narrower = { ...card.dataset_query, query: { ...card.dataset_query.query, filter: ['=', f('region'), 1] } };
    assert.equal((await admin.put(`/api/card/${model.id}`, { dataset_query: narrower })).status, 200);
    const count = { database: wh.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['count']] } };
    const live = await dataset(count);
    assert.doesNotMatch(live.data.native_form.query, new RegExp(info.table_name));
    assert.deepEqual(live.data.rows, [[3751]]);
    await post(`/api/card/${model.id}/refresh`);
    await refreshesDone(server().ctx);
    const persisted = await dataset(count);
    assert.match(persisted.data.native_form.query, new RegExp(info.table_name));
    assert.deepEqual(persisted.data.rows, [[3751]]);
  });

  test('a scheduled refresh runs every model of the database, with task history; a failing model is an error, mailed to admins', async () => {
    const broken = await admin.post('/api/card', { name: 'Broken model', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: wh.id, type: 'native', native: { query: 'SELECT id, total FROM orders' } } });
    assert.equal(broken.status, 200, broken.text);
    await wh.sql('ALTER TABLE orders RENAME COLUMN total TO amount');
    try {
      const kind = schedulerOf(server().ctx).kinds.get('persist-refresh')!;
      const jobs = await kind.list(server().ctx);
      assert.ok(jobs.some((j) => j.key === String(wh.id) && j.cron === '0 0 0/6 * * ? *'));
      server().mail.length = 0;
      const details: Record<string, unknown> = {};
      await kind.run(server().ctx, { key: String(wh.id), occurrence: new Date(), attempt: 1, progress: {}, checkpoint: async () => {}, details, signal: new AbortController().signal });
      assert.equal(details.trigger, 'Scheduled');
      assert.equal(details.success, 1);
      assert.equal(details.error, 1);
      const row = (await admin.get(`/api/persist/card/${broken.body.id}`)).body;
      assert.equal(row.state, 'error');
      assert.equal(row.active, false);
      assert.match(row.error, /total/);
      assert.ok(server().mail.some((m) => m.to === 'admin@example.com' && m.subject.endsWith(`Model cache refresh failed for ${wh.name}`) && m.text.includes('Broken model')));
    } finally {
      await wh.sql('ALTER TABLE orders RENAME COLUMN amount TO total');
    }
    const schedule = await post('/api/persist/set-refresh-schedule', { cron: '0 30 1/8 * * ? *' });
    assert.equal(schedule.status, 204);
    assert.equal((await admin.get('/api/setting/persisted-model-refresh-cron-schedule')).body, '0 30 1/8 * * ? *');
    const fields = await post('/api/persist/set-refresh-schedule', { cron: '0 30 1/8 * * ?' });
    assert.equal(fields.status, 400);
    assert.ok(fields.body.errors.cron.startsWith('Value must be a string representing a cron schedule'));
    const year = await post('/api/persist/set-refresh-schedule', { cron: '0 30 1/8 * * ? 2030' });
    assert.equal(year.status, 400);
    assert.equal(year.text, 'Must be a valid cron string not specifying a year');
    await post('/api/persist/set-refresh-schedule', { cron: '0 0 0/6 * * ? *' });
  });

  test('unpersisting reads live at once and the prune drops the table; the row stays off', async () => {
    const info = (await admin.get(`/api/persist/card/${model.id}`)).body;
    assert.equal((await post(`/api/card/${model.id}/unpersist`)).status, 204);
    assert.equal((await admin.get(`/api/card/${model.id}`)).body.persisted, false);
    const count = { database: wh.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['count']] } };
    assert.doesNotMatch((await dataset(count)).data.native_form.query, new RegExp(info.table_name));
    await pruneTables(server().ctx, new Date());
    assert.equal(await tableRows(info.table_name), 3751, 'within the grace hour the table stays for queries under way');
    await pruneTables(server().ctx, new Date(Date.now() + 2 * 3600_000));
    assert.equal(await tableRows(info.table_name), null);
    const row = (await server().ctx.db.selectFrom('persisted_info').selectAll().where('card_id', '=', model.id).executeTakeFirst())!;
    assert.equal(row.state, 'off');
    assert.equal((await post(`/api/card/${model.id}/persist`)).status, 204, 'persisting again');
    await refreshesDone(server().ctx);
    assert.equal((await admin.get(`/api/persist/card/${model.id}`)).body.state, 'persisted');
  });

  test('the database and the site switched off: rows deletable, queries live, tables dropped', async () => {
    const info = (await admin.get(`/api/persist/card/${model.id}`)).body;
    assert.equal((await post(`/api/database/${wh.id}/unpersist`)).status, 204);
    assert.equal((await post(`/api/database/${wh.id}/unpersist`)).status, 204, 'already off');
    const count = { database: wh.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['count']] } };
    assert.doesNotMatch((await dataset(count)).data.native_form.query, new RegExp(info.table_name));
    await pruneTables(server().ctx, new Date(Date.now() + 2 * 3600_000));
    assert.equal(await tableRows(info.table_name), null);
    assert.equal((await admin.get('/api/persist')).body.data.filter((x: any) => x.card_id === model.id).length, 0);
    // on again through the database's settings, then the site switch off
    const on = await admin.put(`/api/database/${wh.id}`, { settings: { 'persist-models-enabled': true } });
    assert.equal(on.status, 200, on.text);
    assert.ok(on.body.features.includes('persist-models-enabled'));
    assert.equal((await admin.get(`/api/persist/card/${model.id}`)).body.state, 'creating');
    assert.equal((await post('/api/persist/disable')).status, 204);
    assert.ok(!(await admin.get(`/api/database/${wh.id}`)).body.features.includes('persist-models-enabled'));
    const rows = await server().ctx.db.selectFrom('persisted_info').select('state').execute();
    assert.ok(rows.every((r) => r.state === 'deletable'));
    const listing = (await admin.get('/api/persist', { query: { limit: 1, offset: 0 } })).body;
    assert.deepEqual(Object.keys(listing).sort(), ['data', 'limit', 'offset', 'total']);
    assert.equal(listing.limit, 1);
  });
});
