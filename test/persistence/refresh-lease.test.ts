// One build at a time: refreshes of the same persisted model started together — here twice, or here while another
// instance holds it — build the table once; a holder that crashed loses its lease when it expires and exactly one
// contender takes over. Cache reruns (`refresh_automatically`) likewise run a result once. Counted on the warehouse.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from '../cache/warehouse.js';
import { refreshModel, refreshesDone } from '../../src/persistence/refresh.js';
import { recipesFor, rerunLeaseKey, runRefreshes } from '../../src/cache/refresh.js';
import { acquireLease, releaseLease } from '../../src/tasks/lease.js';

forEachAppDb('refresh leases', (server) => {
  let admin: Client;
  let wh: CountingWarehouse;
  let rowId: number;

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
    // a build that takes a moment (300 ms asleep in PostgreSQL), so a second refresh can start while it runs
    const model = await admin.post('/api/card', {
      name: 'Leased', type: 'model', display: 'table', visualization_settings: {},
      dataset_query: { database: wh.id, type: 'native', native: { query: 'SELECT (SELECT quarry_counted(300)) AS x, g AS y FROM generate_series(1, 10) g' } },
    });
    assert.equal(model.status, 200, model.text);
    assert.equal((await admin.post('/api/persist/enable')).status, 204);
    assert.equal((await admin.post(`/api/database/${wh.id}/persist`)).status, 204);
    assert.equal((await admin.post(`/api/card/${model.body.id}/persist`)).status, 204);
    await refreshesDone(server().ctx);
    const info = (await admin.get(`/api/persist/card/${model.body.id}`)).body;
    assert.equal(info.state, 'persisted', JSON.stringify(info));
    rowId = info.id;
  });
  after(async () => {
    await wh?.drop();
  });

  const leases = () => server().ctx.db.selectFrom('task_lease').selectAll();

  test('a refresh started on one instance while another refresh of the model runs there is skipped', async () => {
    const ctx = server().ctx;
    const before = await wh.count();
    const first = refreshModel(ctx, rowId);
    while (!(await leases().where('lease_key', '=', `persist-refresh:${rowId}`).executeTakeFirst())) await new Promise((r) => setTimeout(r, 5));
    const second = await refreshModel(ctx, rowId);
    assert.deepEqual(second, { status: 'skipped' }, 'the lease this process holds is not entered again');
    assert.deepEqual(await first, { status: 'success' });
    assert.equal(await wh.count(), before + 1, 'the model query ran once');
    assert.equal(await leases().where('lease_key', '=', `persist-refresh:${rowId}`).executeTakeFirst(), undefined, 'released');
  });

  test('a refresh held by another instance is not run; once its holder crashed and the lease expired, one contender takes over', async () => {
    const ctx = server().ctx;
    const key = `persist-refresh:${rowId}`;
    await ctx.db.insertInto('task_lease').values({ lease_key: key, owner: 'another-instance/1', expires_at: Date.now() + 60_000 }).execute();
    const before = await wh.count();
    assert.deepEqual(await refreshModel(ctx, rowId), { status: 'skipped' });
    assert.equal(await wh.count(), before);
    await ctx.db.updateTable('task_lease').set({ expires_at: Date.now() - 1 }).where('lease_key', '=', key).execute();
    const outcomes = await Promise.all([refreshModel(ctx, rowId), refreshModel(ctx, rowId), refreshModel(ctx, rowId)]);
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['skipped', 'skipped', 'success']);
    assert.equal(await wh.count(), before + 1);
    assert.equal((await admin.get(`/api/persist/${rowId}`)).body.state, 'persisted');
  });

  test('cache reruns: a result being rerun elsewhere is not rerun again; reruns started together run it once', async () => {
    const ctx = server().ctx;
    const card = await admin.post('/api/card', { name: 'Rerun', display: 'table', visualization_settings: {}, dataset_query: { database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 21 AS y' } } });
    const policy = await admin.put('/api/cache', { model: 'question', model_id: card.body.id, strategy: { type: 'schedule', schedule: '0 0 0 1 1 ? *', refresh_automatically: true } });
    assert.equal(policy.status, 200, policy.text);
    assert.equal((await admin.post(`/api/card/${card.body.id}/query`)).body.status, 'completed');
    const recipes = await recipesFor(ctx, { configIds: [policy.body.id] });
    assert.equal(recipes.length, 1);
    const key = rerunLeaseKey(recipes[0]);
    await ctx.db.insertInto('task_lease').values({ lease_key: key, owner: 'another-instance/2', expires_at: Date.now() + 60_000 }).execute();
    const before = await wh.count();
    assert.equal(await runRefreshes(ctx, recipes), 0);
    assert.equal(await wh.count(), before, 'the other instance is rerunning it');
    await ctx.db.deleteFrom('task_lease').where('lease_key', '=', key).execute();
    const ran = await Promise.all([runRefreshes(ctx, recipes), runRefreshes(ctx, recipes)]);
    assert.deepEqual(ran.sort(), [0, 1]);
    assert.equal(await wh.count(), before + 1);
  });
  test('a lease the app DB fails to store is an error, not "held by someone else"', async () => {
    // longer than the key column: PostgreSQL refuses the row (SQLite stores it), and nobody holds that key
    const key = `oversized-${'k'.repeat(300)}`;
    const outcome = await acquireLease(server().ctx, key, 60_000).then(
      async (lease) => (lease ? (await releaseLease(server().ctx, lease), 'taken') : 'held'),
      () => 'error',
    );
    assert.notEqual(outcome, 'held');
  });
});
