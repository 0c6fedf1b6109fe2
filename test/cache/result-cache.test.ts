// The result cache end to end on a real PostgreSQL warehouse that counts the statements reaching it: policies and
// their resolution, what a cached answer looks like, invalidation, automatic refresh, size limits, damaged entries.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from './warehouse.js';
import { refreshesSettled, refreshExpiring } from '../../src/cache/refresh.js';
import { flushExecutions } from '../../src/query/index.js';
import { schedulerOf } from '../../src/tasks/scheduler.js';
import { purgeEntries } from '../../src/cache/entries.js';

const DURATION = { type: 'duration', duration: 1, unit: 'hours' };
/** The parts of an answer that belong to the request, not to the result. */
const REQUEST_KEYS = ['started_at', 'running_time', 'json_query', 'context', 'cached', 'updated_at', 'average_execution_time'];

function resultPart(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const key of REQUEST_KEYS) delete out[key];
  return out;
}

forEachAppDb('result cache', (server) => {
  let admin: Client;
  let wh: CountingWarehouse;

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
  });
  after(async () => {
    await wh?.drop();
  });

  let n = 0;
  async function card(query: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    n += 1;
    const response = await admin.post('/api/card', { name: `Cached ${n}`, display: 'table', visualization_settings: {}, dataset_query: query, ...extra });
    assert.equal(response.status, 200, response.text);
    return response.body as { id: number };
  }

  const byCategory = () => ({
    database: wh.id,
    type: 'query',
    query: { 'source-table': wh.table('counted_orders'), aggregation: [['count'], ['sum', ['field', wh.field('counted_orders', 'total'), null]]], breakout: [['field', wh.field('counted_orders', 'category'), null]] },
  });

  async function policy(model: string, modelId: number, strategy: Record<string, unknown>) {
    const response = await admin.put('/api/cache', { model, model_id: modelId, strategy });
    assert.equal(response.status, 200, response.text);
    return response.body.id as number;
  }

  async function run(cardId: number, body: Record<string, unknown> = {}, client: Client = admin) {
    const response = await client.post(`/api/card/${cardId}/query`, body);
    assert.equal(response.status, 202, response.text);
    assert.equal(response.body.status, 'completed', response.text);
    return response.body;
  }

  test('a duration policy answers the second run from the cache, identical to the fresh run, without touching the database', async () => {
    const c = await card(byCategory());
    await policy('question', c.id, DURATION);
    const before = await wh.count();
    const fresh = await run(c.id);
    assert.equal(fresh.cached, null);
    assert.equal(await wh.count(), before + 1);
    const cached = await run(c.id);
    assert.equal(await wh.count(), before + 1, 'the second run never reached PostgreSQL');
    assert.equal(typeof cached.cached, 'string');
    assert.equal(cached.updated_at, cached.cached);
    assert.ok(new Date(cached.cached).getTime() <= Date.now());
    assert.equal(typeof cached.average_execution_time, 'number');
    assert.equal(cached.status, 'completed');
    assert.equal(cached.context, 'question');
    assert.deepEqual(resultPart(cached), resultPart(fresh));
    assert.equal(JSON.stringify(cached.data.rows), JSON.stringify(fresh.data.rows));
    assert.equal(JSON.stringify(cached.data.cols), JSON.stringify(fresh.data.cols));
    await flushExecutions(server().ctx);
    const executions = await server().ctx.db.selectFrom('query_execution').select(['cache_hit']).where('card_id', '=', c.id).orderBy('id').execute();
    assert.deepEqual(executions.map((e) => Boolean(e.cache_hit)), [false, true]);
  });

  test("a re-analysis of the fields keeps cached results (with the new fingerprints); an admin's rename doesn't", async () => {
    const c = await card(byCategory());
    await policy('question', c.id, DURATION);
    const fresh = await run(c.id);
    const categoryField = wh.field('counted_orders', 'category');
    const fingerprint = { global: { 'distinct-count': 3, 'nil%': 0 }, type: { 'type/Text': { 'average-length': 6 } } };
    await server().ctx.db.updateTable('metabase_field').set({ fingerprint: JSON.stringify(fingerprint), has_field_values: 'list' }).where('id', '=', categoryField).execute();
    const reanalysed = await run(c.id);
    assert.equal(typeof reanalysed.cached, 'string', 'still from the cache');
    assert.deepEqual(reanalysed.data.cols[0].fingerprint, fingerprint, 'as a fresh run would report it');
    assert.equal(reanalysed.data.cols[0].has_field_values, 'list');
    assert.deepEqual(reanalysed.data.rows, fresh.data.rows);
    assert.equal((await admin.put(`/api/field/${categoryField}`, { display_name: 'Kind' })).status, 200);
    const renamed = await run(c.id);
    assert.equal(renamed.cached, null, 'the columns changed: a fresh run');
    assert.equal(renamed.data.cols[0].display_name, 'Kind');
    await admin.put(`/api/field/${categoryField}`, { display_name: 'Category' });
  });

  test('ignore_cache runs the query and stores the fresh result', async () => {
    const c = await card(byCategory());
    await policy('question', c.id, DURATION);
    await run(c.id);
    const before = await wh.count();
    const forced = await run(c.id, { ignore_cache: true });
    assert.equal(forced.cached, null);
    assert.equal(await wh.count(), before + 1);
    const next = await run(c.id);
    assert.equal(await wh.count(), before + 1);
    assert.ok(next.cached >= forced.started_at, 'the result stored is the forced run');
  });

  test('policies resolve question → dashboard → database → root', async () => {
    const c = await card(byCategory());
    const dash = (await admin.post('/api/dashboard', { name: `Policies ${c.id}` })).body;
    const put = await admin.put(`/api/dashboard/${dash.id}`, { dashcards: [{ id: -1, card_id: c.id, row: 0, col: 0, size_x: 4, size_y: 4 }] });
    assert.equal(put.status, 200, put.text);
    const dashcard = put.body.dashcards[0];
    const runOnDashboard = async () => {
      const r = await admin.post(`/api/dashboard/${dash.id}/dashcard/${dashcard.id}/card/${c.id}/query`, {});
      assert.equal(r.status, 202, r.text);
      return r.body;
    };
    try {
      await policy('root', 0, DURATION);
      await policy('database', wh.id, { type: 'nocache' });
      await run(c.id);
      assert.equal((await run(c.id)).cached, null, 'the database says nocache, over the root policy');
      await policy('dashboard', dash.id, DURATION);
      await runOnDashboard();
      assert.equal(typeof (await runOnDashboard()).cached, 'string', 'run from the dashboard: its policy wins over the database');
      assert.equal((await run(c.id)).cached, null, 'run on its own, the dashboard policy does not apply');
      await policy('question', c.id, { type: 'nocache' });
      assert.equal((await runOnDashboard()).cached, null, "the question's policy wins over the dashboard");
    } finally {
      await admin.delete('/api/cache', { model: 'root', model_id: [0] });
      await admin.delete('/api/cache', { model: 'database', model_id: [wh.id] });
    }
  });

  test("without any policy: a card's legacy cache_ttl (hours), else Metabase's default adaptive policy", async () => {
    const legacy = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 21 AS y' } }, { cache_ttl: 2 });
    await run(legacy.id);
    assert.equal(typeof (await run(legacy.id)).cached, 'string', 'cache_ttl: 2 hours');
    const plain = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 22 AS y' } });
    await run(plain.id);
    assert.equal((await run(plain.id)).cached, null, 'the default policy stores only runs of a second or more');
    const slow = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(1100) AS x, 23 AS y' } });
    await run(slow.id);
    assert.equal(typeof (await run(slow.id)).cached, 'string', 'a run over a second: kept for 10 × its average');
  });

  test('adaptive (ttl): only runs of at least min_duration_ms are stored, valid for multiplier × the average run', async () => {
    const slow = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(300) AS x, 42 AS answer' } });
    await policy('question', slow.id, { type: 'ttl', multiplier: 1000, min_duration_ms: 200 });
    const before = await wh.count();
    await run(slow.id);
    const second = await run(slow.id);
    assert.equal(await wh.count(), before + 1);
    assert.equal(typeof second.cached, 'string');
    const quick = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 43 AS answer' } });
    await policy('question', quick.id, { type: 'ttl', multiplier: 1000, min_duration_ms: 60_000 });
    const beforeQuick = await wh.count();
    await run(quick.id);
    assert.equal((await run(quick.id)).cached, null, 'a run shorter than min_duration_ms is not stored');
    assert.equal(await wh.count(), beforeQuick + 2);
  });

  test('schedule: a result is valid until the schedule next fires', async () => {
    const yearly = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 1 AS y' } });
    await policy('question', yearly.id, { type: 'schedule', schedule: '0 0 0 1 1 ? *' });
    await run(yearly.id);
    assert.equal(typeof (await run(yearly.id)).cached, 'string');
    const everySecond = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 2 AS y' } });
    await policy('question', everySecond.id, { type: 'schedule', schedule: '* * * * * ? *' });
    await run(everySecond.id);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await run(everySecond.id)).cached, null, 'the schedule fired since: the result is stale');
  });

  test('invalidation: policies, overrides, and card edits', async () => {
    const c = await card(byCategory());
    await policy('question', c.id, DURATION);
    await run(c.id);
    assert.equal(typeof (await run(c.id)).cached, 'string');
    const invalidated = await admin.post('/api/cache/invalidate', undefined, { query: { question: c.id } });
    assert.equal(invalidated.status, 200, invalidated.text);
    assert.deepEqual(invalidated.body, { count: 1, message: 'Invalidated cache configuration.' });
    assert.equal((await run(c.id)).cached, null);
    assert.equal(typeof (await run(c.id)).cached, 'string');

    const overrides = await admin.post('/api/cache/invalidate', undefined, { query: { question: c.id, include: 'overrides' } });
    assert.deepEqual(overrides.body, { count: 1, message: 'Cleared a cached result.' });
    assert.equal((await run(c.id)).cached, null);

    assert.equal((await admin.put(`/api/card/${c.id}`, { parameters: [] })).status, 200);
    assert.equal((await run(c.id)).cached, null, 'a card edit that changes its results invalidates them');

    const nothing = await admin.post('/api/cache/invalidate');
    assert.equal(nothing.status, 404);
    assert.deepEqual(nothing.body, { count: -1, message: 'Nothing to invalidate.' });
    const noConfig = await admin.post('/api/cache/invalidate', undefined, { query: { database: wh.id } });
    assert.deepEqual(noConfig.body, { count: 0, message: 'No cache configuration to invalidate.' });
  });

  test('refresh_automatically: invalidating reruns the cached queries so the next viewer gets a cached result', async () => {
    const c = await card(byCategory());
    await policy('question', c.id, { ...DURATION, refresh_automatically: true });
    const first = await run(c.id);
    const before = await wh.count();
    const invalidated = await admin.post('/api/cache/invalidate', undefined, { query: { question: c.id } });
    assert.equal(invalidated.status, 200);
    await refreshesSettled(server().ctx);
    assert.equal(await wh.count(), before + 1, 'the refresh ran the query once');
    const next = await run(c.id);
    assert.equal(await wh.count(), before + 1);
    assert.equal(typeof next.cached, 'string');
    assert.ok(next.cached > first.started_at, 'a result of the refresh');
    assert.deepEqual(next.data.rows, first.data.rows);
  });

  test('refresh_automatically: a duration running out reruns what was viewed during the period, not what nobody looked at', async () => {
    const viewed = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 7 AS y' } });
    const unviewed = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 8 AS y' } });
    for (const c of [viewed, unviewed]) await policy('question', c.id, { type: 'duration', duration: 5, unit: 'minutes', refresh_automatically: true });
    await run(viewed.id);
    await run(unviewed.id);
    assert.equal(typeof (await run(viewed.id)).cached, 'string', 'viewed again while cached');
    await flushExecutions(server().ctx);
    const before = await wh.count();
    const refreshedAfter = new Date().toISOString();
    assert.equal(await refreshExpiring(server().ctx, new Date(Date.now() + 60_000)), 0, 'four minutes before expiry: nothing yet');
    assert.equal(await refreshExpiring(server().ctx, new Date(Date.now() + 4.5 * 60_000)), 1);
    assert.equal(await wh.count(), before + 1, 'only the viewed result ran again');
    const after = await run(viewed.id);
    assert.equal(typeof after.cached, 'string');
    assert.ok(after.cached >= refreshedAfter, 'stored by the refresh');
    assert.equal(await wh.count(), before + 1);
  });

  test('refresh_automatically: a schedule policy reruns its results when it fires, on the cluster scheduler', async () => {
    const c = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 9 AS y' } });
    const configId = await policy('question', c.id, { type: 'schedule', schedule: '0 0 0 1 1 ? *', refresh_automatically: true });
    await run(c.id);
    const kind = schedulerOf(server().ctx).kinds.get('cache-refresh')!;
    const job = (await kind.list(server().ctx)).find((j) => j.key === String(configId));
    assert.equal(job?.cron, '0 0 0 1 1 ? *');
    const before = await wh.count();
    const refreshedAfter = new Date().toISOString();
    const details: Record<string, unknown> = {};
    await kind.run(server().ctx, { key: String(configId), occurrence: new Date(), attempt: 1, progress: {}, checkpoint: async () => {}, details, signal: new AbortController().signal });
    assert.equal(details.refreshed, 1);
    assert.equal(await wh.count(), before + 1);
    const next = await run(c.id);
    assert.ok(next.cached >= refreshedAfter, 'the refreshed result');
    assert.equal(await wh.count(), before + 1);

    // and the scheduler really fires it: every second, nobody viewing
    const often = await card({ database: wh.id, type: 'native', native: { query: 'SELECT quarry_counted(0) AS x, 10 AS y' } });
    await policy('question', often.id, { type: 'schedule', schedule: '* * * * * ? *', refresh_automatically: true });
    await run(often.id);
    const start = await wh.count();
    const deadline = Date.now() + 20_000;
    while ((await wh.count()) === start && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok((await wh.count()) > start, 'rerun by the scheduler without any viewer');
    await admin.delete('/api/cache', { model: 'question', model_id: [often.id] });
    const history = (await admin.get('/api/task', { query: { task: 'cache-refresh' } })).body;
    assert.ok(history.data.some((t: any) => t.task === 'cache-refresh'), JSON.stringify(history).slice(0, 300));
  });

  test('a result bigger than query-caching-max-kb is simply not stored', async () => {
    const c = await card({ database: wh.id, type: 'native', native: { query: 'SELECT o.* FROM counted_orders o ORDER BY id LIMIT 1500' } });
    await policy('question', c.id, DURATION);
    assert.equal((await admin.put('/api/setting/query-caching-max-kb', { value: 1 })).status, 204);
    try {
      const before = await wh.count();
      await run(c.id);
      const second = await run(c.id);
      assert.equal(second.cached, null);
      assert.equal(second.row_count, 1500);
      assert.equal(await wh.count(), before + 2);
    } finally {
      await admin.put('/api/setting/query-caching-max-kb', { value: null });
    }
    const tooBig = await admin.put('/api/setting/query-caching-max-kb', { value: 204801 });
    assert.equal(tooBig.status, 400);
    assert.match(tooBig.text, /Values greater than 204800 \(200\.0 MB\) are not allowed/);
  });

  test('purging: entries past query-caching-max-ttl, then the oldest beyond query-caching-max-total-kb', async () => {
    const ctx = server().ctx;
    const cards = [];
    for (const y of [11, 12, 13]) {
      // a few kilobytes each, compressed (md5 doesn't compress)
      const c = await card({ database: wh.id, type: 'native', native: { query: `SELECT ${y} AS y, md5((g * ${y})::text) AS h, (SELECT quarry_counted(0)) AS x FROM generate_series(1, 200) g` } });
      await policy('question', c.id, DURATION);
      await run(c.id);
      cards.push(c.id);
    }
    const entries = await ctx.db.selectFrom('query_cache').select(['card_id', 'size_bytes', 'updated_at']).where('card_id', 'in', cards).orderBy('updated_at').execute();
    assert.equal(entries.length, 3);
    assert.ok(entries[0].size_bytes > 1024);
    // room for the two newest only (anything stored before the three goes first)
    const kb = Math.ceil((entries[1].size_bytes + entries[2].size_bytes) / 1024);
    assert.equal((await admin.put('/api/setting/query-caching-max-total-kb', { value: kb })).status, 204);
    try {
      await purgeEntries(ctx);
      const left = await ctx.db.selectFrom('query_cache').select('card_id').where('card_id', 'in', cards).execute();
      assert.deepEqual(left.map((e) => e.card_id).sort(), cards.slice(1).sort(), 'the oldest went first');
    } finally {
      await admin.put('/api/setting/query-caching-max-total-kb', { value: null });
    }
    const beforeCount = await wh.count();
    assert.equal(typeof (await run(cards[2])).cached, 'string');
    // a day later, with a maximum age of an hour: gone
    assert.equal((await admin.put('/api/setting/query-caching-max-ttl', { value: 3600 })).status, 204);
    try {
      await purgeEntries(ctx, new Date(Date.now() + 24 * 3600_000));
      assert.equal((await ctx.db.selectFrom('query_cache').select('card_id').where('card_id', 'in', cards).execute()).length, 0);
    } finally {
      await admin.put('/api/setting/query-caching-max-ttl', { value: null });
    }
    assert.equal((await run(cards[2])).cached, null);
    assert.equal(await wh.count(), beforeCount + 1);
  });

  test('a damaged entry is never replayed, and a download never uses the 2,000-row API result', async () => {
    const c = await card({ database: wh.id, type: 'native', native: { query: 'SELECT id, total FROM counted_orders ORDER BY id' } });
    await policy('question', c.id, DURATION);
    const api = await run(c.id);
    assert.equal(api.row_count, 2000);
    const csv = await admin.post(`/api/card/${c.id}/query/csv`);
    assert.equal(csv.status, 200);
    assert.equal(csv.text.trim().split('\n').length, 15001, 'every row, not the API result cut at 2,000');
    // cut every stored entry short, as a crash half-way through writing it would
    const ctx = server().ctx;
    const rows = await ctx.db.selectFrom('query_cache').select(['query_hash', 'results']).where('card_id', '=', c.id).execute();
    assert.ok(rows.length >= 2);
    for (const row of rows) {
      const bytes = Buffer.from(row.results);
      await ctx.db.updateTable('query_cache').set({ results: bytes.subarray(0, Math.floor(bytes.length / 2)) }).where('query_hash', '=', row.query_hash).execute();
    }
    const before = await wh.count();
    const csvAgain = await admin.post(`/api/card/${c.id}/query/csv`);
    assert.equal(csvAgain.text.trim().split('\n').length, 15001);
    assert.equal(csvAgain.text, csv.text);
    const apiAgain = await run(c.id);
    assert.equal(apiAgain.cached, null);
    assert.deepEqual(apiAgain.data.rows, api.data.rows);
    assert.equal(await wh.count(), before + 2, 'both ran on the database');
  });
});
