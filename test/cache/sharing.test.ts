// Results shared instead of recomputed, counted on the PostgreSQL side: 50 viewers of a card at the same moment cause
// one query (in-flight sharing, even when the result isn't stored); a cached dashboard load reaches the database not
// at all where an uncached one runs every card; a result stored by one instance answers another on the same app DB.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, appDbKinds, appDbEnv, startServer, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from './warehouse.js';

const DURATION = { type: 'duration', duration: 1, unit: 'hours' };

forEachAppDb('result sharing', (server) => {
  let admin: Client;
  let viewers: Client[];
  let wh: CountingWarehouse;

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
    viewers = [admin];
    for (let i = 0; i < 4; i++) viewers.push((await createUserClient(server(), admin)).client);
  });
  after(async () => {
    await wh?.drop();
  });

  async function card(name: string, query: Record<string, unknown>) {
    const created = await admin.post('/api/card', { name, display: 'table', visualization_settings: {}, dataset_query: query });
    assert.equal(created.status, 200, created.text);
    return created.body as { id: number };
  }

  test('50 viewers opening the same card at once cause one database query', async () => {
    const c = await card('Slow card', { database: wh.id, type: 'native', native: { query: 'SELECT (SELECT quarry_counted(2000)) AS run, category, count(*) AS n FROM orders GROUP BY category ORDER BY category' } });
    // adaptive, but no run is ever long enough to be stored: only in-flight sharing can spare the database
    await admin.put('/api/cache', { model: 'question', model_id: c.id, strategy: { type: 'ttl', multiplier: 10, min_duration_ms: 600_000 } });
    const before = await wh.count();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => viewers[i % viewers.length].post(`/api/card/${c.id}/query`)));
    assert.equal(await wh.count(), before + 1, 'one query reached PostgreSQL');
    for (const a of answers) {
      assert.equal(a.status, 202);
      assert.equal(a.body.status, 'completed', a.text);
      assert.deepEqual(a.body.data.rows, answers[0].body.data.rows);
      assert.deepEqual(a.body.data.cols, answers[0].body.data.cols);
    }
    assert.equal(answers.filter((a) => a.body.cached === null).length, 1, 'the one that ran is the fresh answer');
    await admin.post(`/api/card/${c.id}/query`);
    assert.equal(await wh.count(), before + 2, 'nothing was stored: the next viewer alone runs it again');
  });

  test('a cached dashboard load reaches the database not at all; an uncached one runs every card', async () => {
    const orders = wh.table('counted_orders');
    const breakouts = ['category', 'region', 'created_at'];
    const cards: Array<{ id: number }> = [];
    for (const b of breakouts) {
      const field = b === 'created_at' ? ['field', wh.field('counted_orders', b), { 'temporal-unit': 'month' }] : ['field', wh.field('counted_orders', b), null];
      cards.push(await card(`By ${b}`, { database: wh.id, type: 'query', query: { 'source-table': orders, aggregation: [['count'], ['avg', ['field', wh.field('counted_orders', 'total'), null]]], breakout: [field] } }));
    }
    async function dashboard(strategy: Record<string, unknown>) {
      const dash = (await admin.post('/api/dashboard', { name: `Dash ${strategy.type}` })).body;
      const put = await admin.put(`/api/dashboard/${dash.id}`, { dashcards: cards.map((c, i) => ({ id: -1 - i, card_id: c.id, row: i * 4, col: 0, size_x: 6, size_y: 4 })) });
      assert.equal(put.status, 200, put.text);
      assert.equal((await admin.put('/api/cache', { model: 'dashboard', model_id: dash.id, strategy })).status, 200);
      return { id: dash.id as number, dashcards: put.body.dashcards as Array<{ id: number; card_id: number }> };
    }
    const load = async (dash: { id: number; dashcards: Array<{ id: number; card_id: number }> }, viewer: Client) => {
      const answers = await Promise.all(dash.dashcards.map((dc) => viewer.post(`/api/dashboard/${dash.id}/dashcard/${dc.id}/card/${dc.card_id}/query`, {})));
      for (const a of answers) assert.equal(a.body.status, 'completed', a.text);
      return answers.map((a) => a.body);
    };
    const cached = await dashboard(DURATION);
    const uncached = await dashboard({ type: 'nocache' });
    const start = await wh.count();
    const first = await load(cached, admin);
    assert.equal(await wh.count(), start + cards.length);
    const again = await load(cached, viewers[1]);
    assert.equal(await wh.count(), start + cards.length, 'the second load came from the cache');
    assert.ok(again.every((a) => typeof a.cached === 'string'));
    assert.deepEqual(again.map((a) => a.data.rows), first.map((a) => a.data.rows));
    const mid = await wh.count();
    await load(uncached, admin);
    await load(uncached, viewers[1]);
    assert.equal(await wh.count(), mid + 2 * cards.length, 'uncached: every card, every load');
  });
});

describe('result cache across instances', () => {
  for (const kind of appDbKinds()) {
    test(`a result stored by one instance answers another [${kind}]`, async () => {
      const env = await appDbEnv(kind);
      let one: TestServer | null = null;
      let two: TestServer | null = null;
      let wh: CountingWarehouse | null = null;
      try {
        one = await startServer(kind, {}, env.env);
        const admin = await setupAdmin(one);
        two = await startServer(kind, {}, env.env);
        const adminOnTwo = two.anon.withSession(admin.session);
        wh = await createCountingWarehouse(one, admin);
        const created = await admin.post('/api/card', { name: 'Shared', display: 'table', visualization_settings: {}, dataset_query: { database: wh.id, type: 'native', native: { query: 'SELECT category, count(*) AS n FROM counted_orders GROUP BY category ORDER BY category' } } });
        await admin.put('/api/cache', { model: 'question', model_id: created.body.id, strategy: DURATION });
        const before = await wh.count();
        const fresh = await admin.post(`/api/card/${created.body.id}/query`);
        const fromOther = await adminOnTwo.post(`/api/card/${created.body.id}/query`);
        assert.equal(fromOther.body.status, 'completed', fromOther.text);
        assert.equal(typeof fromOther.body.cached, 'string');
        assert.deepEqual(fromOther.body.data.rows, fresh.body.data.rows);
        assert.equal(await wh.count(), before + 1);
        const invalidated = await adminOnTwo.post('/api/cache/invalidate', undefined, { query: { question: created.body.id } });
        assert.equal(invalidated.status, 200);
        assert.equal((await admin.post(`/api/card/${created.body.id}/query`)).body.cached, null, 'invalidated on the other instance: stale here too');
      } finally {
        await wh?.drop();
        await two?.server.close();
        await one?.server.close();
        await env.cleanup();
      }
    });
  }
});
