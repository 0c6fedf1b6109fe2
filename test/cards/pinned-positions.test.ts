// Pinned positions (`collection_position`) stay a consistent order across a collection's cards and dashboards when an
// item moves to another collection, moves inside its collection, or is unpinned.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, type DataFixture } from './fixtures.js';

forEachAppDb('pinned positions', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });

  const positions = async (collectionId: number) => {
    const items = (await admin.get(`/api/collection/${collectionId}/items`)).body.data as Array<{ name: string; collection_position: number | null }>;
    return Object.fromEntries(items.filter((i) => i.collection_position !== null).map((i) => [i.name, i.collection_position]));
  };

  test('a pinned card moved to another collection keeps its place there; both collections stay in order', async () => {
    const a = (await admin.post('/api/collection', { name: 'A' })).body.id;
    const b = (await admin.post('/api/collection', { name: 'B' })).body.id;
    const first = await createCard(admin, data, { name: 'first', collection_id: a, collection_position: 1 });
    await createCard(admin, data, { name: 'second', collection_id: a, collection_position: 2 });
    assert.equal((await admin.post('/api/dashboard', { name: 'third', collection_id: a, collection_position: 3 })).status, 200);
    const there = await createCard(admin, data, { name: 'there', collection_id: b, collection_position: 1 });
    assert.deepEqual(await positions(a), { first: 1, second: 2, third: 3 });

    assert.equal((await admin.put(`/api/card/${first.id}`, { collection_id: b })).status, 200);
    assert.deepEqual(await positions(a), { second: 1, third: 2 }, 'the gap it left is closed, dashboards included');
    assert.deepEqual(await positions(b), { first: 1, there: 2 }, 'it keeps its place; the others make room');

    assert.equal((await admin.put(`/api/card/${first.id}`, { collection_position: 2 })).status, 200);
    assert.deepEqual(await positions(b), { there: 1, first: 2 }, 'a move inside the collection swaps only what is between');

    assert.equal((await admin.put(`/api/card/${there.id}`, { collection_position: null })).status, 200);
    assert.deepEqual(await positions(b), { first: 1 }, 'unpinning closes the gap');

    // Moved in bulk, a card is unpinned, and the collection it left closes the gap.
    const c = (await admin.post('/api/collection', { name: 'C' })).body.id;
    assert.equal((await admin.post('/api/cards/move', { card_ids: [first.id], collection_id: c })).status, 200);
    assert.deepEqual(await positions(c), {});
    assert.deepEqual(await positions(a), { second: 1, third: 2 });
    const second = (await admin.get(`/api/collection/${a}/items`)).body.data.find((i: any) => i.name === 'second');
    assert.equal((await admin.post('/api/cards/move', { card_ids: [second.id], collection_id: c })).status, 200);
    assert.deepEqual(await positions(a), { third: 1 });
  });
});
