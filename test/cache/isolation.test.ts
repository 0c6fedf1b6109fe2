// Cached results never cross a permission boundary: a user is never answered with rows cached for someone allowed to
// see more — limited downloads, blocked data, embedding tokens with locked parameters — while public links and
// embeds are cached like the rest (counted on the PostgreSQL side). Each test first shows the card *is* served from
// the cache for the same caller (so it could leak), then that a caller with other access runs it afresh: the tests
// fail if the access context is dropped from the cache key. Persisted models: their tables are read only by callers
// allowed to run the model's query.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from './warehouse.js';
import { refreshesDone } from '../../src/persistence/refresh.js';

const DURATION = { type: 'duration', duration: 1, unit: 'hours' };
const ALL_USERS = 1;

forEachAppDb('result cache isolation', (server) => {
  let admin: Client;
  let full: Client;
  let limited: Client;
  let blocked: Client;
  let wh: CountingWarehouse;

  async function group(name: string, userIds: number[]): Promise<number> {
    const created = await admin.post('/api/permissions/group', { name });
    assert.equal(created.status, 200, created.text);
    for (const id of userIds) assert.equal((await admin.post('/api/permissions/membership', { group_id: created.body.id, user_id: id })).status, 200);
    return created.body.id;
  }

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
    const a = await createUserClient(server(), admin);
    const b = await createUserClient(server(), admin);
    const c = await createUserClient(server(), admin);
    full = a.client;
    limited = b.client;
    blocked = c.client;
    const fullGroup = await group('Full downloads', [a.user.id]);
    const limitedGroup = await group('Limited downloads', [b.user.id]);
    const graph = (await admin.get('/api/permissions/graph')).body;
    const access = (download: string) => ({ 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native', download: { schemas: download } });
    const put = await admin.put('/api/permissions/graph', {
      revision: graph.revision,
      groups: {
        [ALL_USERS]: { [wh.id]: { 'view-data': 'blocked' } },
        [fullGroup]: { [wh.id]: access('full') },
        [limitedGroup]: { [wh.id]: access('limited') },
      },
    });
    assert.equal(put.status, 200, put.text);
  });
  after(async () => {
    await wh?.drop();
  });

  let n = 0;
  async function cachedCard(sql: string, extra: Record<string, unknown> = {}) {
    n += 1;
    const created = await admin.post('/api/card', { name: `Isolated ${n}`, display: 'table', visualization_settings: {}, dataset_query: { database: wh.id, type: 'native', native: { query: sql, ...extra } } });
    assert.equal(created.status, 200, created.text);
    assert.equal((await admin.put('/api/cache', { model: 'question', model_id: created.body.id, strategy: DURATION })).status, 200);
    return created.body as { id: number };
  }

  const csvRows = (text: string) => text.trim().split('\n').length - 1;

  test('a limited download never gets the full download cached for someone else, nor the other way round', async () => {
    const c = await cachedCard('SELECT id FROM counted_orders ORDER BY id');
    const fullCsv = await full.post(`/api/card/${c.id}/query/csv`);
    assert.equal(fullCsv.status, 200, fullCsv.text);
    assert.equal(csvRows(fullCsv.text), 15000);
    const before = await wh.count();
    assert.equal(csvRows((await full.post(`/api/card/${c.id}/query/csv`)).text), 15000);
    assert.equal(await wh.count(), before, 'the same user again: from the cache');
    const limitedCsv = await limited.post(`/api/card/${c.id}/query/csv`);
    assert.equal(csvRows(limitedCsv.text), 10000, 'not the 15,000 rows cached for the full download');
    assert.equal(await wh.count(), before + 1);

    const other = await cachedCard('SELECT id, region FROM counted_orders ORDER BY id');
    assert.equal(csvRows((await limited.post(`/api/card/${other.id}/query/csv`)).text), 10000);
    assert.equal(csvRows((await full.post(`/api/card/${other.id}/query/csv`)).text), 15000, 'not the 10,000 rows cached for the limited one');
  });

  test('a user with limited downloads is answered afresh, never with what was cached for a full one', async () => {
    const c = await cachedCard('SELECT category, count(*) AS n FROM counted_orders GROUP BY category ORDER BY category');
    const first = await full.post(`/api/card/${c.id}/query`);
    assert.equal(first.body.status, 'completed', first.text);
    assert.equal(first.body.data.download_perms, 'full');
    assert.equal(first.body.cached, null);
    const again = await full.post(`/api/card/${c.id}/query`);
    assert.equal(typeof again.body.cached, 'string', 'the same user again: from the cache');
    const before = await wh.count();
    const other = await limited.post(`/api/card/${c.id}/query`);
    assert.equal(other.body.status, 'completed', other.text);
    assert.equal(other.body.data.download_perms, 'limited', 'not the full download offered to someone else');
    assert.equal(other.body.cached, null, 'not served from the entry cached for the full user');
    assert.equal(await wh.count(), before + 1);
    const otherAgain = await limited.post(`/api/card/${c.id}/query`);
    assert.equal(typeof otherAgain.body.cached, 'string');
    assert.equal(otherAgain.body.data.download_perms, 'limited');
    assert.equal((await full.post(`/api/card/${c.id}/query`)).body.data.download_perms, 'full');
    assert.equal(await wh.count(), before + 1);
  });

  test('a user whose data is blocked gets no cached rows', async () => {
    const c = await cachedCard('SELECT category, count(*) AS n FROM counted_orders GROUP BY category ORDER BY category, n');
    const answer = await full.post(`/api/card/${c.id}/query`);
    assert.equal(answer.body.status, 'completed', answer.text);
    assert.equal(answer.body.data.rows.length, 3);
    assert.equal(typeof (await full.post(`/api/card/${c.id}/query`)).body.cached, 'string', 'cached for the full user');
    const before = await wh.count();
    const refused = await blocked.post(`/api/card/${c.id}/query`);
    assert.equal(refused.status, 202);
    assert.equal(refused.body.status, 'failed');
    assert.equal(refused.body.error_type, 'missing-required-permissions');
    assert.equal(refused.body.data?.rows?.length ?? 0, 0);
    assert.ok(!refused.body.cached, refused.text);
    assert.ok(!refused.text.includes('Gizmo'));
    const csv = await blocked.post(`/api/card/${c.id}/query/csv`);
    assert.ok(!csv.text.includes('Gizmo'), csv.text);
    assert.equal(await wh.count(), before, 'nothing ran for the blocked user');
  });

  test('a persisted model: a user without data access reads neither its table nor its rows through a question', async () => {
    assert.equal((await admin.post('/api/persist/enable')).status, 204);
    assert.equal((await admin.post(`/api/database/${wh.id}/persist`)).status, 204);
    const o = (name: string) => ['field', wh.field('counted_orders', name), null];
    const created = await admin.post('/api/card', {
      name: 'Persisted orders',
      type: 'model',
      display: 'table',
      visualization_settings: {},
      dataset_query: { database: wh.id, type: 'query', query: { 'source-table': wh.table('counted_orders'), fields: [o('id'), o('category')], 'order-by': [['asc', o('id')]] } },
    });
    assert.equal(created.status, 200, created.text);
    const model = created.body.id as number;
    assert.equal((await admin.post(`/api/card/${model}/persist`)).status, 204);
    await refreshesDone(server().ctx);
    assert.equal((await admin.get(`/api/persist/card/${model}`)).body.state, 'persisted');
    const questionQuery = { database: wh.id, type: 'query', query: { 'source-table': `card__${model}`, aggregation: [['count']] } };
    const question = await admin.post('/api/card', { name: 'On the persisted model', display: 'scalar', visualization_settings: {}, dataset_query: questionQuery });
    assert.equal(question.status, 200, question.text);

    const before = await wh.count();
    const allowed = await full.post(`/api/card/${question.body.id}/query`);
    assert.equal(allowed.body.status, 'completed', allowed.text);
    assert.deepEqual(allowed.body.data.rows, [[15000]]);
    assert.match(allowed.body.data.native_form.query, /metabase_cache_/, 'read from the persisted table');
    assert.equal(await wh.count(), before, 'the model query itself never ran');

    for (const run of [
      () => blocked.post(`/api/card/${question.body.id}/query`),
      () => blocked.post(`/api/card/${model}/query`),
      () => blocked.post('/api/dataset', questionQuery),
    ]) {
      const refused = await run();
      assert.ok(refused.status === 202 || refused.status === 403, refused.text);
      if (refused.status === 202) assert.equal(refused.body.error_type, 'missing-required-permissions', refused.text);
      assert.ok(!refused.body?.data?.rows?.length, refused.text);
      assert.ok(!refused.text.includes('15000') && !refused.text.includes('Gizmo'), refused.text);
    }
    assert.equal((await admin.post('/api/persist/disable')).status, 204);
  });

  test('embedding tokens with different locked parameters never share results; public links are cached', async () => {
    const secret = randomBytes(32).toString('hex');
    for (const [key, value] of [['enable-embedding-static', true], ['embedding-secret-key', secret], ['enable-public-sharing', true]] as const) {
      assert.equal((await admin.put(`/api/setting/${key}`, { value })).status, 204);
    }
    const c = await cachedCard('SELECT region, count(*) AS n FROM counted_orders WHERE region = {{region}} GROUP BY region', {
      'template-tags': { region: { id: 'region-tag', name: 'region', 'display-name': 'Region', type: 'number', required: true } },
    });
    assert.equal((await admin.put(`/api/card/${c.id}`, { enable_embedding: true, embedding_params: { region: 'locked' } })).status, 200);
    const token = (region: number) => new SignJWT({ resource: { question: c.id }, params: { region } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
    const anon = server().anon;
    const embedded = async (region: number) => {
      const r = await anon.get(`/api/embed/card/${await token(region)}/query`);
      assert.equal(r.status, 202, r.text);
      assert.equal(r.body.status, 'completed', r.text);
      return r.body.data.rows;
    };
    const before = await wh.count();
    assert.deepEqual(await embedded(1), [[1, 3750]]);
    assert.deepEqual(await embedded(2), [[2, 3750]], "region 2's token never gets region 1's cached rows");
    assert.deepEqual(await embedded(1), [[1, 3750]]);
    assert.deepEqual(await embedded(2), [[2, 3750]]);
    assert.equal(await wh.count(), before + 2, 'each locked value ran once, then came from the cache');
    // the same value as a signed-in user's parameter: the same SQL, but not the same access — never shared
    const region3 = [{ type: 'number/=', target: ['variable', ['template-tag', 'region']], value: [3] }];
    const signedIn = await admin.post(`/api/card/${c.id}/query`, { parameters: region3 });
    assert.deepEqual(signedIn.body.data.rows, [[3, 3750]], signedIn.text);
    assert.equal(typeof (await admin.post(`/api/card/${c.id}/query`, { parameters: region3 })).body.cached, 'string', 'cached for the admin');
    const beforeEmbed = await wh.count();
    assert.deepEqual(await embedded(3), [[3, 3750]]);
    assert.equal(await wh.count(), beforeEmbed + 1, "the token's run is not served from the admin's entry");
    assert.deepEqual(await embedded(3), [[3, 3750]]);
    assert.equal(await wh.count(), beforeEmbed + 1);

    const counted = await cachedCard('SELECT category, sum(total) AS total FROM counted_orders GROUP BY category ORDER BY category');
    const link = await admin.post(`/api/card/${counted.id}/public_link`);
    assert.equal(link.status, 200, link.text);
    const beforePublic = await wh.count();
    const first = await anon.get(`/api/public/card/${link.body.uuid}/query`);
    const second = await anon.get(`/api/public/card/${link.body.uuid}/query`);
    assert.equal(second.status, 202);
    assert.deepEqual(second.body, first.body, 'the public answer is the same, trimmed the same');
    assert.equal(await wh.count(), beforePublic + 1);
  });
});
