// Cached results never cross a permission boundary: a user is never answered with rows cached for someone allowed to
// see more — limited downloads, blocked data, embedding tokens with locked parameters — while public links and
// embeds are cached like the rest (counted on the PostgreSQL side).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from './warehouse.js';

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

  test('a user whose data is blocked gets no cached rows', async () => {
    const c = await cachedCard('SELECT category, count(*) AS n FROM counted_orders GROUP BY category ORDER BY category');
    const answer = await full.post(`/api/card/${c.id}/query`);
    assert.equal(answer.body.status, 'completed', answer.text);
    assert.equal(answer.body.data.rows.length, 3);
    const refused = await blocked.post(`/api/card/${c.id}/query`);
    assert.equal(refused.status, 202);
    assert.equal(refused.body.status, 'failed');
    assert.equal(refused.body.error_type, 'missing-required-permissions');
    assert.equal(refused.body.data?.rows?.length ?? 0, 0);
    assert.ok(!refused.text.includes('Gizmo'));
    const csv = await blocked.post(`/api/card/${c.id}/query/csv`);
    assert.ok(!csv.text.includes('Gizmo'), csv.text);
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
