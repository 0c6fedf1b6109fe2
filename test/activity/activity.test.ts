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

  async function dashboard(client: Client, fields: Record<string, unknown> = {}) {
    const response = await client.post('/api/dashboard', { name: `Dash ${Math.random().toString(36).slice(2, 8)}`, ...fields });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  test('popular items: dashboards viewed by anyone, in Metabase’s recents shape, only what the caller can read, at most 5', async () => {
    const c = await createCollection(admin);
    const open = await dashboard(admin, { description: 'everyone looks here' });
    const inCollection = await dashboard(admin, { collection_id: c.id });
    const secret = await dashboard(admin, { collection_id: (await createCollection(admin)).id });
    const someone = await freshUser();
    for (let i = 0; i < 3; i++) await someone.get(`/api/dashboard/${open.id}`);
    await someone.get(`/api/dashboard/${inCollection.id}`);
    await admin.get(`/api/dashboard/${secret.id}`);
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [secret.collection_id]: 'none' } } });

    const viewer = await freshUser();
    const items = (await viewer.get('/api/activity/popular_items')).body.popular_items;
    assert.ok(items.length <= 5, 'at most 5');
    const ids = items.filter((i: any) => i.model === 'dashboard').map((i: any) => i.id);
    assert.ok(ids.includes(open.id) && ids.includes(inCollection.id), `viewed dashboards: ${ids}`);
    assert.ok(!ids.includes(secret.id), 'not a dashboard the caller cannot read');
    const item = items.find((i: any) => i.model === 'dashboard' && i.id === open.id);
    assert.deepEqual(Object.keys(item).sort(), ['can_write', 'description', 'id', 'model', 'moderated_status', 'name', 'parent_collection', 'timestamp']);
    assert.equal(item.name, open.name);
    assert.equal(item.description, 'everyone looks here');
    assert.deepEqual(item.parent_collection, { id: 'root', name: 'Our analytics', authority_level: null });
    assert.deepEqual(items.find((i: any) => i.id === inCollection.id && i.model === 'dashboard').parent_collection, { id: c.id, name: c.name, authority_level: null });
    assert.ok(ids.indexOf(open.id) < ids.indexOf(inCollection.id), 'viewed more often ranks first');
    assert.ok((await admin.get('/api/activity/popular_items')).body.popular_items.some((i: any) => i.id === secret.id && i.model === 'dashboard'), 'admins see it');
  });

  test('most recently viewed dashboard: the last one viewed within 24 hours, else 204', async () => {
    const user = await freshUser();
    const none = await user.get('/api/activity/most_recently_viewed_dashboard');
    assert.equal(none.status, 204);
    assert.equal(none.text, '');
    const first = await dashboard(user);
    const second = await dashboard(user, { collection_id: (await createCollection(admin)).id });
    await user.get(`/api/dashboard/${first.id}`);
    await user.get(`/api/dashboard/${second.id}`);
    const found = await user.get('/api/activity/most_recently_viewed_dashboard');
    assert.equal(found.status, 200);
    assert.equal(found.body.id, second.id);
    assert.equal(found.body.name, second.name);
    assert.equal(found.body.collection.id, second.collection_id);
    assert.equal(found.body.archived, false);
    await user.get(`/api/dashboard/${first.id}`);
    assert.equal((await user.get('/api/activity/most_recently_viewed_dashboard')).body.id, first.id, 'the newest view wins');

    // views older than 24 hours don't count
    const me = (await user.get('/api/user/current')).body;
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000 - 60_000).toISOString();
    await server().ctx.db.updateTable('recent_views').set({ timestamp: dayAgo }).where('user_id', '=', me.id).where('model', '=', 'dashboard').where('model_id', '=', first.id).execute();
    assert.equal((await user.get('/api/activity/most_recently_viewed_dashboard')).body.id, second.id, 'the older view is ignored');
    await server().ctx.db.updateTable('recent_views').set({ timestamp: dayAgo }).where('user_id', '=', me.id).where('model', '=', 'dashboard').execute();
    assert.equal((await user.get('/api/activity/most_recently_viewed_dashboard')).status, 204);
    // an archived dashboard isn't offered
    await user.get(`/api/dashboard/${first.id}`);
    await user.put(`/api/dashboard/${first.id}`, { archived: true });
    assert.equal((await user.get('/api/activity/most_recently_viewed_dashboard')).status, 204);
  });

  test('activity needs a session', async () => {
    assert.equal((await server().anon.get('/api/activity/recent_views')).status, 401);
  });
});
