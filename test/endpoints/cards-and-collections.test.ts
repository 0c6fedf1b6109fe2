// Endpoints of newer Metabase versions around cards and collections: moving cards in bulk, the dashboards of
// several cards, the display value of a card parameter's value, and deleting a trashed collection for good.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import { fieldOf, tableOf } from '../databases/helpers.js';
import { callers, ok, type Callers } from './helpers.js';

forEachAppDb('bulk card moves, parameter remapping, deleting collections', (server) => {
  let c: Callers;
  const table = (name: string) => tableOf(c.sample.metadata, name).id as number;
  const field = (t: string, name: string) => fieldOf(c.sample.metadata, t, name).id as number;
  const card = async (fields: Record<string, unknown> = {}) =>
    ok(
      await c.admin.post('/api/card', {
        name: `Card ${Math.random()}`,
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': table('ORDERS') } },
        ...fields,
      }),
      'card',
    );

  before(async () => {
    c = await callers(server());
  });

  test('POST /api/cards/move moves every card or none, with the checks of moving one', async () => {
    const from = ok(await c.admin.post('/api/collection', { name: 'From' }), 'collection');
    const to = ok(await c.admin.post('/api/collection', { name: 'To' }), 'collection');
    const a = await card({ collection_id: from.id });
    const b = await card({ collection_id: from.id });
    const where = async (id: number) => ok(await c.admin.get(`/api/card/${id}`), 'card').collection_id;

    const partial = await c.admin.post('/api/cards/move', { card_ids: [a.id, 999999], collection_id: to.id });
    assert.equal(partial.status, 404);
    assert.equal(await where(a.id), from.id);

    const moved = await c.admin.post('/api/cards/move', { card_ids: [a.id, b.id], collection_id: to.id });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(moved.body, { status: 'success' });
    assert.deepEqual([await where(a.id), await where(b.id)], [to.id, to.id]);

    // All Users may not write the admin's collections here: nothing moves
    const graph = ok(await c.admin.get('/api/collection/graph'), 'graph');
    ok(await c.admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [to.id]: 'read', [from.id]: 'write' } } }), 'graph update');
    assert.equal((await c.user.post('/api/cards/move', { card_ids: [a.id], collection_id: from.id })).status, 403);
    assert.equal(await where(a.id), to.id);

    const root = await c.admin.post('/api/cards/move', { card_ids: [a.id], collection_id: null });
    assert.equal(root.status, 200);
    assert.equal(await where(a.id), null);

    const dashboard = ok(await c.admin.post('/api/dashboard', { name: 'Home of b', collection_id: to.id }), 'dashboard');
    ok(await c.admin.post('/api/cards/move', { card_ids: [b.id], dashboard_id: dashboard.id }), 'into a dashboard');
    assert.equal(ok(await c.admin.get(`/api/card/${b.id}`), 'card').dashboard_id, dashboard.id);
    assert.ok(ok(await c.admin.get(`/api/dashboard/${dashboard.id}`), 'dashboard').dashcards.some((d: any) => d.card_id === b.id));
    const on = ok(await c.admin.post('/api/cards/dashboards', { card_ids: [b.id, a.id] }), 'dashboards');
    assert.deepEqual(on, [
      { card_id: b.id, dashboards: [{ id: dashboard.id, name: 'Home of b' }] },
      { card_id: a.id, dashboards: [] },
    ]);

    assert.equal((await c.admin.post('/api/cards/move', { collection_id: to.id })).status, 400);
    assert.equal((await c.admin.post('/api/cards/move', { card_ids: ['x'], collection_id: to.id })).status, 400);
    assert.equal((await c.admin.post('/api/cards/move', { card_ids: [a.id], collection_id: to.id, dashboard_id: dashboard.id })).status, 400);
    assert.equal((await server().anon.post('/api/cards/move', { card_ids: [a.id] })).status, 401);
  });

  test('GET /api/card/:id/params/:key/remapping: a static label, or the name behind a key', async () => {
    const productId = field('ORDERS', 'PRODUCT_ID');
    const withParams = await card({
      parameters: [
        { id: 'size', name: 'Size', slug: 'size', type: 'category', values_source_type: 'static-list', values_source_config: { values: [['S', 'Small'], ['L', 'Large'], 'XL'] } },
        { id: 'product', name: 'Product', slug: 'product', type: 'id', target: ['dimension', ['field', productId, null]] },
        { id: 'total', name: 'Total', slug: 'total', type: 'number/=', target: ['dimension', ['field', field('ORDERS', 'TOTAL'), null]] },
      ],
    });
    const remap = (key: string, value: string) => c.user.get(`/api/card/${withParams.id}/params/${key}/remapping`, { query: { value } });
    assert.deepEqual((await remap('size', 'L')).body, ['L', 'Large']);
    assert.deepEqual((await remap('size', 'XL')).body, ['XL']);
    assert.deepEqual((await remap('size', 'M')).body, ['M']);
    const title = ok(await c.admin.get(`/api/field/${productId}/remapping/${field('PRODUCTS', 'TITLE')}`, { query: { value: '1' } }), 'field remapping');
    assert.equal(typeof title[1], 'string');
    assert.deepEqual((await remap('product', '1')).body, [1, title[1]]);
    assert.deepEqual((await remap('total', '12.5')).body, [12.5]);
    assert.equal((await remap('nope', '1')).status, 400);
    assert.equal((await c.user.get(`/api/card/${withParams.id}/params/size/remapping`)).status, 400);
    assert.equal((await c.user.get('/api/card/999999/params/size/remapping', { query: { value: 'L' } })).status, 404);
  });

  test('DELETE /api/collection/:id: admins delete a trashed collection with all it holds', async () => {
    const parent = ok(await c.admin.post('/api/collection', { name: 'Old stuff' }), 'collection');
    const child = ok(await c.admin.post('/api/collection', { name: 'Older stuff', parent_id: parent.id }), 'collection');
    const inChild = await card({ collection_id: child.id });
    const elsewhere = await card();
    const dashboard = ok(await c.admin.post('/api/dashboard', { name: 'Old dashboard', collection_id: parent.id }), 'dashboard');
    ok(await c.admin.put(`/api/dashboard/${dashboard.id}`, { dashcards: [{ id: -1, card_id: elsewhere.id, row: 0, col: 0, size_x: 4, size_y: 4 }] }), 'dashcard');

    const early = await c.admin.delete(`/api/collection/${parent.id}`);
    assert.equal(early.status, 400);
    assert.equal(ok(await c.admin.get(`/api/collection/${parent.id}`), 'still there').name, 'Old stuff');
    ok(await c.admin.put(`/api/collection/${parent.id}`, { archived: true }), 'to the trash');
    assert.equal((await c.user.delete(`/api/collection/${parent.id}`)).status, 403);

    const deleted = await c.admin.delete(`/api/collection/${parent.id}`);
    assert.equal(deleted.status, 204, deleted.text);
    for (const path of [`/api/collection/${parent.id}`, `/api/collection/${child.id}`, `/api/card/${inChild.id}`, `/api/dashboard/${dashboard.id}`]) {
      assert.equal((await c.admin.get(path)).status, 404, path);
    }
    assert.equal((await c.admin.get(`/api/card/${elsewhere.id}`)).status, 200, 'a card shown on a deleted dashboard stays');
    assert.equal((await c.admin.delete(`/api/collection/${parent.id}`)).status, 404);
    const trash = ok(await c.admin.get('/api/collection/trash'), 'trash');
    assert.equal((await c.admin.delete(`/api/collection/${trash.id}`)).status, 400);
  });
});
