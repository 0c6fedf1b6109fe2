import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, type DataFixture } from '../cards/fixtures.js';

forEachAppDb('bookmarks', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });

  test('bookmark cards, collections and snippets; list, order and remove', async () => {
    const { client: user } = await createUserClient(server(), admin);
    const card = await createCard(user, data, { type: 'model', description: 'desc' });
    const collection = await createCollection(user, { authority_level: null });
    const snippet = (await user.post('/api/native-query-snippet', { name: `bm_${Date.now()}`, content: '1 = 1' })).body;

    const added = await user.post(`/api/bookmark/card/${card.id}`);
    assert.equal(added.status, 200);
    assert.equal(added.body.card_id, card.id);
    assert.equal(typeof added.body.id, 'number');
    assert.equal((await user.post(`/api/bookmark/card/${card.id}`)).status, 400);
    await user.post(`/api/bookmark/collection/${collection.id}`);
    await user.post(`/api/bookmark/snippet/${snippet.id}`);

    const list = (await user.get('/api/bookmark')).body;
    const byType = Object.fromEntries(list.map((b: any) => [b.type, b]));
    assert.deepEqual(
      { id: byType.card.id, item_id: byType.card.item_id, name: byType.card.name, card_type: byType.card.card_type, display: byType.card.display, description: byType.card.description },
      { id: `card-${card.id}`, item_id: card.id, name: card.name, card_type: 'model', display: 'table', description: 'desc' },
    );
    assert.equal(byType.collection.id, `collection-${collection.id}`);
    assert.equal(byType.collection.authority_level, null);
    assert.equal(byType.snippet.item_id, snippet.id);

    const ordered = await user.put('/api/bookmark/ordering', {
      orderings: [
        { type: 'snippet', item_id: snippet.id },
        { type: 'card', item_id: card.id },
        { type: 'collection', item_id: collection.id },
      ],
    });
    assert.equal(ordered.status, 204);
    assert.deepEqual((await user.get('/api/bookmark')).body.map((b: any) => b.type), ['snippet', 'card', 'collection']);

    assert.equal((await user.delete(`/api/bookmark/card/${card.id}`)).status, 204);
    assert.deepEqual((await user.get('/api/bookmark')).body.map((b: any) => b.type), ['snippet', 'collection']);
    await user.put(`/api/collection/${collection.id}`, { archived: true });
    assert.deepEqual((await user.get('/api/bookmark')).body.map((b: any) => b.type), ['snippet'], 'archived things drop out');
  });

  test('errors: unknown model, missing item, unreadable item', async () => {
    const { client: user } = await createUserClient(server(), admin);
    assert.equal((await user.post('/api/bookmark/planet/1')).status, 400);
    assert.equal((await user.post('/api/bookmark/card/987654')).status, 404);
    const adminPersonal = (await admin.get('/api/user/current')).body.personal_collection_id;
    const secret = await createCard(admin, data, { collection_id: adminPersonal });
    assert.equal((await user.post(`/api/bookmark/card/${secret.id}`)).status, 403);
    assert.equal((await user.post(`/api/bookmark/collection/${adminPersonal}`)).status, 403);
    assert.equal((await user.put('/api/bookmark/ordering', { orderings: [{ type: 'card' }] })).status, 400);
  });
});
