// /api/cache as a client sees it (spec §4.18, reference §12.2): shapes, validation, who may do what, the
// invalidation messages — with no 402 anywhere (granular policies and the duration/schedule strategies are free).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { createCollection, uniqueName } from '../cards/fixtures.js';

const TTL = { type: 'ttl', multiplier: 10, min_duration_ms: 1000 };

forEachAppDb('cache api', (server) => {
  let admin: Client;
  let user: Client;
  let sample: Sample;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
    sample = await installSample(admin);
  });

  async function card(extra: Record<string, unknown> = {}) {
    const response = await admin.post('/api/card', {
      name: uniqueName('C'),
      display: 'table',
      visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']] } },
      ...extra,
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  test('the root policy: PUT, GET, DELETE', async () => {
    assert.deepEqual((await admin.get('/api/cache')).body, { data: [] });
    const put = await admin.put('/api/cache', { model: 'root', model_id: 0, strategy: TTL });
    assert.equal(put.status, 200, put.text);
    assert.equal(typeof put.body.id, 'number');
    assert.deepEqual((await admin.get('/api/cache', { query: { model: 'root' } })).body, { data: [{ model: 'root', model_id: 0, strategy: TTL }] });
    const again = await admin.put('/api/cache', { model: 'root', model_id: 0, strategy: { type: 'nocache' } });
    assert.equal(again.body.id, put.body.id, 'one root policy, replaced');
    assert.deepEqual((await admin.get('/api/cache')).body.data[0].strategy, { type: 'nocache' });
    const wrongId = await admin.put('/api/cache', { model: 'root', model_id: 1, strategy: TTL });
    assert.equal(wrongId.status, 404);
    assert.equal(wrongId.text, 'Root configuration is only valid with model_id = 0');
    const deleted = await admin.delete('/api/cache', { model: 'root', model_id: [0] });
    assert.equal(deleted.status, 204);
    assert.deepEqual((await admin.get('/api/cache')).body, { data: [] });
  });

  test('database, dashboard and question policies, with duration and schedule strategies, are free', async () => {
    const collection = await createCollection(admin);
    const c = await card({ collection_id: collection.id });
    const dash = (await admin.post('/api/dashboard', { name: uniqueName('D') })).body;
    const duration = { type: 'duration', duration: 12, unit: 'hours', refresh_automatically: true };
    const schedule = { type: 'schedule', schedule: '0 0 6 * * ? *', refresh_automatically: false };
    for (const [model, id, strategy] of [['database', sample.id, TTL], ['dashboard', dash.id, duration], ['question', c.id, schedule]] as const) {
      const r = await admin.put('/api/cache', { model, model_id: id, strategy });
      assert.equal(r.status, 200, `${model}: ${r.text}`);
    }
    const listed = (await admin.get('/api/cache', { query: { model: ['database', 'dashboard', 'question'] } })).body.data;
    const question = listed.find((x: any) => x.model === 'question' && x.model_id === c.id);
    assert.deepEqual(question.strategy, schedule);
    assert.equal(question.name, c.name);
    assert.deepEqual(question.collection, { id: collection.id, name: collection.name, authority_level: null, type: null });
    const dashboard = listed.find((x: any) => x.model === 'dashboard' && x.model_id === dash.id);
    assert.deepEqual(dashboard.strategy, { ...duration });
    assert.equal(dashboard.name, dash.name);
    assert.ok(!('collection' in dashboard), 'a dashboard in the root collection has none');
    assert.ok(listed.some((x: any) => x.model === 'database' && x.model_id === sample.id && !('name' in x)));

    const inCollection = (await admin.get('/api/cache', { query: { model: ['question', 'dashboard'], collection: collection.id } })).body.data;
    assert.deepEqual(inCollection.map((x: any) => [x.model, x.model_id]), [['question', c.id]]);
    const one = (await admin.get('/api/cache', { query: { model: 'question', id: c.id } })).body;
    assert.deepEqual(one, { data: [{ model: 'question', model_id: c.id, strategy: schedule }] });
    const page = (await admin.get('/api/cache', { query: { model: ['database', 'dashboard', 'question'], limit: 1, sort_column: 'policy', sort_direction: 'desc' } })).body;
    assert.equal(page.data.length, 1);
    assert.ok(page.total >= 3);
    assert.equal(page.limit, 1);
    assert.equal(page.offset, 0);
    assert.equal(page.data[0].strategy.type, 'ttl', 'sorted by policy, descending');

    const missing = await admin.put('/api/cache', { model: 'question', model_id: 987654, strategy: TTL });
    assert.equal(missing.status, 404);
    assert.equal((await admin.delete('/api/cache', { model: 'question', model_id: [c.id] })).status, 204);
    assert.equal((await admin.get('/api/cache', { query: { model: 'question', id: c.id } })).body.data.length, 0);
  });

  test('strategies are validated like Metabase (closed maps)', async () => {
    const bad = async (strategy: unknown, key: string) => {
      const r = await admin.put('/api/cache', { model: 'root', model_id: 0, strategy });
      assert.equal(r.status, 400, JSON.stringify(strategy));
      assert.ok(r.body.errors.strategy, r.text);
      assert.ok(r.body['specific-errors'].strategy[key], `${key} in ${r.text}`);
    };
    await bad({ type: 'ttl', multiplier: 0, min_duration_ms: 0 }, 'multiplier');
    await bad({ type: 'ttl', multiplier: 2, min_duration_ms: -1 }, 'min_duration_ms');
    await bad({ type: 'ttl', multiplier: 2, min_duration_ms: 0, extra: 1 }, 'extra');
    await bad({ type: 'duration', duration: 1, unit: 'weeks' }, 'unit');
    await bad({ type: 'schedule', schedule: 'every day' }, 'schedule');
    await bad({ type: 'schedule', schedule: '0 0 25 * * ? *' }, 'schedule');
    await bad({ type: 'forever' }, 'type');
    const negative = await admin.put('/api/cache', { model: 'root', model_id: -1, strategy: TTL });
    assert.equal(negative.status, 400);
    assert.equal(negative.body.errors.model_id, 'value must be an integer greater than zero.');
    const model = await admin.put('/api/cache', { model: 'collection', model_id: 1, strategy: TTL });
    assert.equal(model.status, 400);
    assert.ok(model.body.errors.model);
  });

  test('admins manage the root and database policies; curators their questions and dashboards', async () => {
    assert.equal((await user.get('/api/cache')).status, 403);
    assert.equal((await user.put('/api/cache', { model: 'root', model_id: 0, strategy: TTL })).status, 403);
    assert.equal((await user.put('/api/cache', { model: 'database', model_id: sample.id, strategy: TTL })).status, 403);
    const ownable = await card();
    const put = await user.put('/api/cache', { model: 'question', model_id: ownable.id, strategy: TTL });
    assert.equal(put.status, 200, 'the root collection is curated by All Users');
    assert.equal((await user.get('/api/cache', { query: { model: 'question', id: ownable.id } })).body.data.length, 1);
    const hidden = await createCollection(admin);
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [hidden.id]: 'read' } } });
    const readOnly = await card({ collection_id: hidden.id });
    assert.equal((await user.put('/api/cache', { model: 'question', model_id: readOnly.id, strategy: TTL })).status, 403);
    assert.equal((await user.delete('/api/cache', { model: 'question', model_id: [readOnly.id] })).status, 403);
    assert.equal((await user.post('/api/cache/invalidate', undefined, { query: { question: readOnly.id } })).status, 403);
    assert.equal((await user.post('/api/cache/invalidate', undefined, { query: { database: sample.id } })).status, 403);
  });

  test('invalidation messages', async () => {
    const a = await card();
    const b = await card();
    for (const c of [a, b]) await admin.put('/api/cache', { model: 'question', model_id: c.id, strategy: TTL });
    const two = await admin.post('/api/cache/invalidate', undefined, { query: { question: [a.id, b.id] } });
    assert.deepEqual(two.body, { count: 2, message: 'Invalidated 2 cache configurations.' });
    const dash = (await admin.post('/api/dashboard', { name: uniqueName('D') })).body;
    const empty = await admin.post('/api/cache/invalidate', undefined, { query: { dashboard: dash.id, include: 'overrides' } });
    assert.equal(empty.status, 404);
    assert.deepEqual(empty.body, { count: -1, message: 'Could not find any questions for the criteria you specified.' });
    await admin.put(`/api/dashboard/${dash.id}`, {
      dashcards: [
        { id: -1, card_id: a.id, row: 0, col: 0, size_x: 4, size_y: 4 },
        { id: -2, card_id: b.id, row: 4, col: 0, size_x: 4, size_y: 4 },
      ],
    });
    const cleared = await admin.post('/api/cache/invalidate', undefined, { query: { dashboard: dash.id, include: 'overrides' } });
    assert.deepEqual(cleared.body, { count: 2, message: 'Cleared 2 cached results.' });
    const stamped = (await admin.get(`/api/card/${a.id}`)).body;
    assert.equal(typeof stamped.cache_invalidated_at, 'string');
    assert.equal((await admin.post('/api/cache/invalidate', undefined, { query: { question: 987654 } })).status, 404);
    const badInclude = await admin.post('/api/cache/invalidate', undefined, { query: { question: a.id, include: 'everything' } });
    assert.equal(badInclude.status, 400);
  });
});
