// refresh_automatically reruns results cached for public links and signed embeds too, as those viewers asked for
// them (locked parameters included), so the next anonymous viewer is answered from the cache. Counted on PostgreSQL.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from './warehouse.js';
import { refreshesSettled } from '../../src/cache/refresh.js';

const REFRESHING = { type: 'duration', duration: 1, unit: 'hours', refresh_automatically: true };

forEachAppDb('automatic refresh of shared results', (server) => {
  let admin: Client;
  let wh: CountingWarehouse;
  const secret = randomBytes(32).toString('hex');

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
    for (const [key, value] of [['enable-embedding-static', true], ['embedding-secret-key', secret], ['enable-public-sharing', true]] as const) {
      assert.equal((await admin.put(`/api/setting/${key}`, { value })).status, 204);
    }
  });
  after(async () => {
    await wh?.drop();
  });

  async function cachedCard(name: string, native: Record<string, unknown>) {
    const created = await admin.post('/api/card', { name, display: 'table', visualization_settings: {}, dataset_query: { database: wh.id, type: 'native', native } });
    assert.equal(created.status, 200, created.text);
    assert.equal((await admin.put('/api/cache', { model: 'question', model_id: created.body.id, strategy: REFRESHING })).status, 200);
    return created.body.id as number;
  }

  test('invalidating reruns the public link’s and the embed’s results; their next viewers get them from the cache', async () => {
    const shared = await cachedCard('Public', { query: 'SELECT category, count(*) AS n FROM counted_orders GROUP BY category ORDER BY category' });
    const link = await admin.post(`/api/card/${shared}/public_link`);
    assert.equal(link.status, 200, link.text);
    const embedded = await cachedCard('Embedded', {
      query: 'SELECT region, count(*) AS n FROM counted_orders WHERE region = {{region}} GROUP BY region',
      'template-tags': { region: { id: 'region-tag', name: 'region', 'display-name': 'Region', type: 'number', required: true } },
    });
    assert.equal((await admin.put(`/api/card/${embedded}`, { enable_embedding: true, embedding_params: { region: 'locked' } })).status, 200);
    const token = await new SignJWT({ resource: { question: embedded }, params: { region: 2 } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
    const anon = server().anon;
    const viewPublic = () => anon.get(`/api/public/card/${link.body.uuid}/query`);
    const viewEmbed = () => anon.get(`/api/embed/card/${token}/query`);

    const first = [await viewPublic(), await viewEmbed()];
    for (const r of first) assert.equal(r.body.status, 'completed', r.text);
    assert.deepEqual(first[1].body.data.rows, [[2, 3750]]);
    const before = await wh.count();
    const invalidated = await admin.post('/api/cache/invalidate', undefined, { query: { question: [shared, embedded] } });
    assert.equal(invalidated.status, 200, invalidated.text);
    await refreshesSettled(server().ctx);
    assert.equal(await wh.count(), before + 2, 'both shared results ran again');
    const next = [await viewPublic(), await viewEmbed()];
    assert.equal(await wh.count(), before + 2, 'their next viewers were answered from the refreshed cache');
    assert.deepEqual(next[0].body.data.rows, first[0].body.data.rows);
    assert.deepEqual(next[1].body.data.rows, [[2, 3750]]);
  });
});
