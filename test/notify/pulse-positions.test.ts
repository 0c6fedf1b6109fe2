// `collection_position` of subscriptions: pinning one at N makes room there — the collection's pinned cards,
// dashboards and other subscriptions at N and after move down one, as Metabase reconciles positions across them.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import { installSample, type Sample } from '../cards/sample.js';
import { createCollection } from '../cards/fixtures.js';
import type { Client } from '../helpers/client.js';
import { emailChannel, sampleCard } from './fixtures.js';

forEachAppDb('subscription collection positions', (server) => {
  let admin: Client;
  let sample: Sample;
  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
  });

  test('a subscription pinned at N shifts the pinned items at N and after; moving it to N again does too', async () => {
    const collection = await createCollection(admin);
    const card = await sampleCard(admin, sample, { collection_id: collection.id });
    assert.equal((await admin.put(`/api/card/${card.id}`, { collection_position: 1 })).status, 200);
    const dashboard = await admin.post('/api/dashboard', { name: 'Pinned', collection_id: collection.id, collection_position: 2 });
    assert.equal(dashboard.status, 200, dashboard.text);
    const pulse = (position: number | null) =>
      admin.post('/api/pulse', {
        name: `Pulse at ${position}`,
        cards: [{ id: card.id, include_csv: false, include_xls: false }],
        channels: [emailChannel([{ email: 'someone@example.com' }])],
        collection_id: collection.id,
        collection_position: position,
      });
    const positions = async () => ({
      card: (await admin.get(`/api/card/${card.id}`)).body.collection_position,
      dashboard: (await admin.get(`/api/dashboard/${dashboard.body.id}`)).body.collection_position,
    });

    const first = await pulse(1);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.collection_position, 1);
    assert.deepEqual(await positions(), { card: 2, dashboard: 3 });

    const second = await pulse(2);
    assert.equal(second.body.collection_position, 2);
    assert.equal((await admin.get(`/api/pulse/${first.body.id}`)).body.collection_position, 1);
    assert.deepEqual(await positions(), { card: 3, dashboard: 4 });

    const unpinned = await pulse(null);
    assert.equal(unpinned.body.collection_position, null);
    assert.deepEqual(await positions(), { card: 3, dashboard: 4 }, 'an unpinned subscription moves nothing');

    const moved = await admin.put(`/api/pulse/${unpinned.body.id}`, { collection_position: 1 });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.collection_position, 1);
    assert.equal((await admin.get(`/api/pulse/${first.body.id}`)).body.collection_position, 2);
    assert.equal((await admin.get(`/api/pulse/${second.body.id}`)).body.collection_position, 3);
    assert.deepEqual(await positions(), { card: 4, dashboard: 5 });

    const tooFar = await pulse(40_000);
    assert.equal(tooFar.status, 400, 'a smallint column: a clear 400, not a database error');
    assert.ok(tooFar.body.errors.collection_position);
  });
});
