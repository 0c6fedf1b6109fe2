// Anonymous usage stats with Metabase's keys, computed from what the instance holds, and each database's connection
// pool as its driver sees it (SQLite workers, PostgreSQL's pg pool, MariaDB's mysql2 pool), busy while a query runs.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import { tableOf, waitFor } from '../databases/helpers.js';
import { addWarehouse, type Warehouse } from '../actions/fixtures.js';
import { callers, ok, type Callers } from './helpers.js';

forEachAppDb('anonymous stats and connection pools', (server) => {
  let c: Callers;
  let pg: Warehouse;
  let maria: Warehouse;

  before(async () => {
    c = await callers(server());
    [pg, maria] = await Promise.all([addWarehouse(c.admin, 'postgres', { enableActions: false }), addWarehouse(c.admin, 'mysql', { enableActions: false })]);
  });
  after(async () => Promise.all([pg?.drop(), maria?.drop()]));

  test('anonymous stats: Metabase’s sections and keys, counted from the instance', async () => {
    const orders = tableOf(c.sample.metadata, 'ORDERS').id;
    const collection = ok(await c.admin.post('/api/collection', { name: `Stats ${Date.now()}` }), 'collection');
    const gui = ok(
      await c.admin.post('/api/card', { name: 'Orders', display: 'table', visualization_settings: {}, collection_id: collection.id, dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': orders } } }),
      'gui card',
    );
    ok(
      await c.admin.post('/api/card', {
        name: 'Native with a variable',
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: c.sample.id, type: 'native', native: { query: 'SELECT * FROM ORDERS WHERE ID = {{id}}', 'template-tags': { id: { id: 'a1', name: 'id', 'display-name': 'Id', type: 'number' } } } },
      }),
      'native card',
    );
    const dashboard = ok(await c.admin.post('/api/dashboard', { name: 'Stats dashboard', parameters: [{ id: 'p', name: 'P', slug: 'p', type: 'category' }] }), 'dashboard');
    ok(await c.admin.put(`/api/dashboard/${dashboard.id}`, { dashcards: [{ id: -1, card_id: gui.id, row: 0, col: 0, size_x: 4, size_y: 4 }] }), 'layout');
    ok(await c.admin.put('/api/setting/enable-public-sharing', { value: true }), 'public sharing');
    ok(await c.admin.post(`/api/card/${gui.id}/public_link`), 'public card');
    ok(await c.user.post(`/api/card/${gui.id}/query`), 'an execution');

    for (const path of ['/api/analytics/anonymous-stats', '/api/util/stats']) {
      const stats = ok(await c.admin.get(path), path);
      assert.equal(stats.application_database, server().kind);
      assert.equal(stats.has_sample_data, true);
      assert.equal(stats.email_configured, false);
      assert.equal(stats.slack_configured, false);
      assert.match(stats.uuid, /^[0-9a-f-]{36}$/);
      assert.ok(typeof stats.startup_time_millis === 'number' && stats.startup_time_millis > 0);
      assert.deepEqual(Object.keys(stats.stats).sort(), ['alert', 'cache', 'collection', 'dashboard', 'database', 'document', 'execution', 'field', 'group', 'library', 'metric', 'pulse', 'question', 'segment', 'system', 'table', 'user']);
      const s = stats.stats;
      assert.deepEqual({ ...s.user.users, logged_in: undefined }, { total: 3, active: 3, admin: 1, logged_in: undefined, sso: 0 });
      assert.ok(s.user.users.logged_in >= 2);
      assert.equal(s.question.questions.total, 2);
      assert.equal(s.question.questions.native, 1);
      assert.equal(s.question.questions.gui, 1);
      assert.equal(s.question.questions.with_params, 1);
      assert.deepEqual(s.question.public, { total: 1, with_params: 0 });
      assert.deepEqual(s.question.embedded, {});
      assert.equal(s.dashboard.dashboards, 1);
      assert.equal(s.dashboard.with_params, 1);
      assert.deepEqual(s.dashboard.num_cards_per_dash, { '1-5': 1 });
      assert.deepEqual(s.dashboard.num_dashs_per_user, { '1-5': 1 });
      assert.equal(s.collection.cards_in_collections, 1);
      assert.equal(s.collection.cards_not_in_collections, 1);
      assert.ok(s.collection.collections >= 1);
      assert.equal(s.database.databases.total, 3);
      assert.equal(s.database.databases.analyzed, 3);
      assert.ok(Object.keys(s.database.dbms_versions).some((k) => JSON.parse(k).engine === 'postgres'));
      assert.ok(s.table.tables >= 8 + 4);
      assert.ok(s.field.fields > 0);
      assert.ok(s.execution.executions >= 1);
      assert.ok(s.execution.by_status.completed >= 1);
      assert.ok(Object.values(s.execution.num_by_latency as Record<string, number>).reduce((a, b) => a + b, 0) === s.execution.executions);
      assert.deepEqual(s.pulse.pulses, 0);
      assert.ok(s.group.groups >= 3);
      assert.equal(typeof s.system.processors, 'number');
      assert.equal(s.system.node_version, process.version);
      assert.equal((await c.user.get(path)).status, 403);
    }
  });

  test('connection pools: each driver’s own figures, busy while a query runs', async () => {
    ok(await c.user.get(`/api/table/${tableOf(c.sample.metadata, 'PRODUCTS').id}/data`), 'a sample query');
    ok(await c.admin.get(`/api/table/${pg.tables.customers}/data`), 'a postgres query');
    ok(await c.admin.get(`/api/table/${maria.tables.customers}/data`), 'a mariadb query');
    for (const path of ['/api/bug-reporting/connection-pool-details', '/api/util/diagnostic_info/connection_pool_info']) {
      const pools = ok(await c.admin.get(path), path)['connection-pools'];
      for (const id of [c.sample.id, pg.id, maria.id]) {
        const [key] = Object.keys(pools).filter((k) => k.endsWith(`(${id})`));
        assert.ok(key, `${id} in ${JSON.stringify(Object.keys(pools))}`);
        const pool = pools[key];
        assert.deepEqual(Object.keys(pool).sort(), ['maxPoolSize', 'minPoolSize', 'numBusyConnections', 'numConnections', 'numIdleConnections', 'numThreadsAwaitingCheckoutDefaultUser']);
        assert.ok(pool.numConnections >= 1, `${key} opened a connection`);
        assert.equal(pool.numConnections, pool.numIdleConnections + pool.numBusyConnections);
        assert.ok(pool.maxPoolSize >= pool.numConnections);
      }
      assert.equal((await c.user.get(path)).status, 403);
    }

    // a slow PostgreSQL query holds one connection until it ends
    const running = c.admin.post('/api/dataset', { database: pg.id, type: 'native', native: { query: 'SELECT pg_sleep(3)' } });
    const busy = await waitFor('a busy connection', async () => {
      const pool = Object.entries(ok(await c.admin.get('/api/bug-reporting/connection-pool-details'), 'pools')['connection-pools']).find(([k]) => k.endsWith(`(${pg.id})`))?.[1] as any;
      return pool && pool.numBusyConnections >= 1 ? pool : null;
    });
    assert.ok(busy.numConnections >= 1);
    assert.equal((await running).status, 202);
  });
});
