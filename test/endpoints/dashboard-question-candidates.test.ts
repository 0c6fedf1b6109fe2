// Dashboard-question candidates (Metabase 0.53+): questions of a collection shown on exactly one dashboard of the
// same collection, listed for admins and moved into their dashboards in one go.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import { tableOf } from '../databases/helpers.js';
import { callers, ok, type Callers } from './helpers.js';

forEachAppDb('dashboard-question candidates', (server) => {
  let c: Callers;
  let orders: number;

  before(async () => {
    c = await callers(server());
    orders = tableOf(c.sample.metadata, 'ORDERS').id;
  });

  const question = async (name: string, collectionId: number | null, type = 'question') =>
    ok(
      await c.admin.post('/api/card', {
        name,
        type,
        display: 'table',
        visualization_settings: {},
        collection_id: collectionId,
        dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': orders } },
      }),
      name,
    );
  const dashboard = async (name: string, collectionId: number | null) => ok(await c.admin.post('/api/dashboard', { name, collection_id: collectionId }), name);
  const show = async (dashboardId: number, cards: Array<{ id: number; series?: number[] }>) =>
    ok(
      await c.admin.put(`/api/dashboard/${dashboardId}`, {
        dashcards: cards.map((card, i) => ({ id: -(i + 1), card_id: card.id, row: i * 4, col: 0, size_x: 6, size_y: 4, series: (card.series ?? []).map((id) => ({ id })) })),
      }),
      'layout',
    );

  test('lists the questions on exactly one dashboard of the same collection, newest first, pages, and moves them', async () => {
    const collection = ok(await c.admin.post('/api/collection', { name: `Candidates ${Date.now()}` }), 'collection');
    const elsewhere = ok(await c.admin.post('/api/collection', { name: `Elsewhere ${Date.now()}` }), 'elsewhere');
    const home = await dashboard('Home dashboard', collection.id);
    const other = await dashboard('Other dashboard', collection.id);
    const away = await dashboard('Away dashboard', elsewhere.id);
    const sole = await question('Only on home', collection.id);
    const asSeries = await question('Only as a series on home', collection.id);
    const twice = await question('On two dashboards', collection.id);
    const awayOnly = await question('On a dashboard elsewhere', collection.id);
    const unused = await question('On no dashboard', collection.id);
    const model = await question('A model on home', collection.id, 'model');
    await show(home.id, [{ id: sole.id, series: [asSeries.id] }, { id: twice.id }, { id: model.id }]);
    await show(other.id, [{ id: twice.id }]);
    await show(away.id, [{ id: awayOnly.id }]);

    const path = `/api/collection/${collection.id}/dashboard-question-candidates`;
    const listed = ok(await c.admin.get(path), 'candidates');
    assert.equal(listed.total, 2);
    assert.deepEqual(listed.data, [
      { id: asSeries.id, name: 'Only as a series on home', description: null, sole_dashboard_info: { id: home.id, name: 'Home dashboard', description: null } },
      { id: sole.id, name: 'Only on home', description: null, sole_dashboard_info: { id: home.id, name: 'Home dashboard', description: null } },
    ]);
    assert.ok(!listed.data.some((d: any) => [twice.id, awayOnly.id, unused.id, model.id].includes(d.id)));
    const page = ok(await c.admin.get(path, { query: { limit: 1, offset: 1 } }), 'page');
    assert.equal(page.total, 2);
    assert.deepEqual(page.data.map((d: any) => d.id), [sole.id]);

    // a question trashed, or on a trashed dashboard, is no candidate
    ok(await c.admin.put(`/api/card/${asSeries.id}`, { archived: true }), 'archive');
    assert.deepEqual(ok(await c.admin.get(path), 'after archiving').data.map((d: any) => d.id), [sole.id]);
    ok(await c.admin.put(`/api/card/${asSeries.id}`, { archived: false }), 'restore');

    // moving only the ones asked for (ids that aren't candidates are left alone)
    const moved = ok(await c.admin.post(`/api/collection/${collection.id}/move-dashboard-question-candidates`, { card_ids: [sole.id, twice.id] }), 'move');
    assert.deepEqual(moved, { moved: [sole.id] });
    const card = ok(await c.admin.get(`/api/card/${sole.id}`), 'moved card');
    assert.equal(card.dashboard_id, home.id);
    assert.equal(card.collection_id, collection.id);
    assert.equal(ok(await c.admin.get(`/api/card/${twice.id}`), 'not moved').dashboard_id, null);
    const dashcards = ok(await c.admin.get(`/api/dashboard/${home.id}`), 'home').dashcards;
    assert.equal(dashcards.filter((d: any) => d.card_id === sole.id).length, 1, 'still shown once on its dashboard');

    // and then all that are left
    assert.deepEqual(ok(await c.admin.post(`/api/collection/${collection.id}/move-dashboard-question-candidates`, {}), 'move all'), { moved: [asSeries.id] });
    assert.deepEqual(ok(await c.admin.get(path), 'none left'), { data: [], total: 0 });
  });

  test('the root collection has its own candidates', async () => {
    const home = await dashboard(`Root dashboard ${Date.now()}`, null);
    const sole = await question('Root question on one dashboard', null);
    await show(home.id, [{ id: sole.id }]);
    const listed = ok(await c.admin.get('/api/collection/root/dashboard-question-candidates'), 'root candidates');
    assert.ok(listed.data.some((d: any) => d.id === sole.id && d.sole_dashboard_info.id === home.id));
    assert.deepEqual(ok(await c.admin.post('/api/collection/root/move-dashboard-question-candidates', { card_ids: [sole.id] }), 'move'), { moved: [sole.id] });
    assert.equal(ok(await c.admin.get(`/api/card/${sole.id}`), 'moved').dashboard_id, home.id);
  });

  test('admins only; a missing collection is a 404; bad input is a 400', async () => {
    const collection = ok(await c.admin.post('/api/collection', { name: `Open ${Date.now()}` }), 'collection');
    assert.equal((await c.user.get(`/api/collection/${collection.id}/dashboard-question-candidates`)).status, 403);
    assert.equal((await c.user.get('/api/collection/root/dashboard-question-candidates')).status, 403);
    assert.equal((await c.user.post(`/api/collection/${collection.id}/move-dashboard-question-candidates`, {})).status, 403);
    assert.equal((await server().anon.get('/api/collection/root/dashboard-question-candidates')).status, 401);
    assert.equal((await c.admin.get('/api/collection/999999/dashboard-question-candidates')).status, 404);
    assert.equal((await c.admin.post(`/api/collection/${collection.id}/move-dashboard-question-candidates`, { card_ids: ['x'] })).status, 400);
    assert.equal((await c.admin.get(`/api/collection/${collection.id}/dashboard-question-candidates`, { query: { limit: -1 } })).status, 400);
  });
});
