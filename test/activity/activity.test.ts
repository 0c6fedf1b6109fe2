import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, type DataFixture } from '../cards/fixtures.js';

forEachAppDb('activity', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });

  async function freshUser() {
    return (await createUserClient(server(), admin)).client;
  }

  test('recent_views: cards, models and collections viewed, newest first, archived and deleted ones left out', async () => {
    const user = await freshUser();
    const card = await createCard(user, data);
    const model = await createCard(user, data, { type: 'model' });
    const collection = await createCollection(admin);
    await user.get(`/api/card/${card.id}`);
    await user.get(`/api/card/${model.id}`);
    await user.get(`/api/collection/${collection.id}/items`);
    const views = (await user.get('/api/activity/recent_views')).body.recent_views;
    assert.deepEqual(views.map((v: any) => `${v.model}:${v.id}`), [`collection:${collection.id}`, `dataset:${model.id}`, `card:${card.id}`]);
    const cardView = views[2];
    assert.equal(cardView.name, card.name);
    assert.equal(cardView.display, 'table');
    assert.equal(cardView.can_write, true);
    assert.equal(typeof cardView.timestamp, 'string');
    assert.deepEqual(cardView.parent_collection, { id: 'root', name: 'Our analytics', authority_level: null });
    assert.equal(cardView.moderated_status, null);
    await user.get(`/api/card/${card.id}`);
    const again = (await user.get('/api/activity/recent_views')).body.recent_views;
    assert.equal(again[0].id, card.id, 'a second view moves it to the top');
    assert.equal(again.filter((v: any) => v.id === card.id && v.model === 'card').length, 1);
    await user.put(`/api/card/${model.id}`, { archived: true });
    await user.delete(`/api/card/${card.id}`);
    const after = (await user.get('/api/activity/recent_views')).body.recent_views;
    assert.deepEqual(after.map((v: any) => v.model), ['collection']);
  });

  test('at most 20 of each kind are kept', async () => {
    const user = await freshUser();
    for (let i = 0; i < 22; i++) {
      const card = await createCard(user, data);
      await user.get(`/api/card/${card.id}`);
    }
    const views = (await user.get('/api/activity/recent_views')).body.recent_views;
    assert.equal(views.filter((v: any) => v.model === 'card').length, 20);
  });

  test('recents with contexts; POST recents records selections', async () => {
    const user = await freshUser();
    const card = await createCard(user, data);
    const model = await createCard(user, data, { type: 'model' });
    await user.get(`/api/card/${card.id}`);
    const posted = await user.post('/api/activity/recents', { model: 'dataset', model_id: model.id, context: 'selection' });
    assert.equal(posted.status, 204);
    const selections = (await user.get('/api/activity/recents', { query: { context: 'selections' } })).body.recents;
    assert.deepEqual(selections.map((r: any) => `${r.model}:${r.id}`), [`dataset:${model.id}`]);
    const views = (await user.get('/api/activity/recents', { query: { context: 'views' } })).body.recents;
    assert.deepEqual(views.map((r: any) => `${r.model}:${r.id}`), [`card:${card.id}`]);
    const both = (await user.get('/api/activity/recents', { query: { context: ['views', 'selections'] } })).body.recents;
    assert.equal(both.length, 2);
    assert.equal((await user.get('/api/activity/recents')).status, 400);
    assert.equal((await user.get('/api/activity/recents', { query: { context: 'likes' } })).status, 400);
    assert.equal((await user.post('/api/activity/recents', { model: 'planet', model_id: 1, context: 'selection' })).status, 400);
    assert.equal((await user.post('/api/activity/recents', { model: 'card', model_id: 1, context: 'view' })).status, 400);
    assert.equal((await user.post('/api/activity/recents', { model: 'card', model_id: 987654, context: 'selection' })).status, 404);
  });

  test('recents hide what the user can no longer read', async () => {
    const user = await freshUser();
    const c = await createCollection(admin);
    const card = await createCard(admin, data, { collection_id: c.id });
    await user.get(`/api/card/${card.id}`);
    assert.ok((await user.get('/api/activity/recent_views')).body.recent_views.some((v: any) => v.id === card.id));
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [c.id]: 'none' } } });
    assert.ok(!(await user.get('/api/activity/recent_views')).body.recent_views.some((v: any) => v.id === card.id));
    assert.equal((await user.post('/api/activity/recents', { model: 'card', model_id: card.id, context: 'selection' })).status, 403);
  });

  test('popular items: a list of at most 5', async () => {
    const body = (await admin.get('/api/activity/popular_items')).body;
    assert.ok(Array.isArray(body.popular_items));
    assert.ok(body.popular_items.length <= 5);
  });

  test('most recently viewed dashboard: 204 when none in the last 24 hours', async () => {
    const user = await freshUser();
    const response = await user.get('/api/activity/most_recently_viewed_dashboard');
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
  });

  test('activity needs a session', async () => {
    assert.equal((await server().anon.get('/api/activity/recent_views')).status, 401);
  });
});
