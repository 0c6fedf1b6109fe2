// Related entities of tables, fields, segments, cards (saved and ad hoc) and dashboards, on the Sample Database:
// built from its foreign keys, the segments and metrics on its tables and the questions like each other — and only
// what the caller may see.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import { fieldOf, tableOf } from '../databases/helpers.js';
import { callers, ok, type Callers } from './helpers.js';

const names = (list: any[]) => list.map((x) => x.name).sort();
const ids = (list: any[]) => list.map((x) => x.id);

forEachAppDb('related entities', (server) => {
  let c: Callers;
  let t: (name: string) => number;
  let f: (table: string, name: string) => number;
  let q1: any, q2: any, unlike: any, hidden: any, metric: any, seg1: any, seg2: any, dashboard: any, lonely: any, privateCollection: any;

  const card = async (name: string, query: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ok(
      await c.admin.post('/api/card', {
        name,
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': t('ORDERS'), ...query } },
        ...extra,
      }),
      name,
    );

  before(async () => {
    c = await callers(server());
    t = (name) => tableOf(c.sample.metadata, name).id;
    f = (table, name) => fieldOf(c.sample.metadata, table, name).id;
    const total = ['field', f('ORDERS', 'TOTAL'), null];
    const product = ['field', f('ORDERS', 'PRODUCT_ID'), null];
    privateCollection = ok(await c.admin.post('/api/collection', { name: `Admins only ${Date.now()}` }), 'collection');
    const graph = ok(await c.admin.get('/api/collection/graph'), 'graph');
    const groups = Object.fromEntries(Object.keys(graph.groups).filter((g) => g !== '2').map((g) => [g, { [privateCollection.id]: 'none' }]));
    ok(await c.admin.put('/api/collection/graph', { revision: graph.revision, groups }), 'graph update');

    q1 = await card('Revenue by product', { aggregation: [['sum', total]], breakout: [product] });
    q2 = await card('Revenue by product and month', { aggregation: [['sum', total]], breakout: [product, ['field', f('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]] });
    unlike = await card('Discounts', { fields: [['field', f('ORDERS', 'DISCOUNT'), null]] });
    hidden = await card('Revenue by product, privately', { aggregation: [['sum', total]], breakout: [product] }, { collection_id: privateCollection.id });
    metric = await card('Revenue', { aggregation: [['sum', total]] }, { type: 'metric', display: 'scalar' });
    seg1 = ok(await c.admin.post('/api/segment', { name: 'Big orders', table_id: t('ORDERS'), definition: { 'source-table': t('ORDERS'), filter: ['>', total, 100] } }), 'segment 1');
    seg2 = ok(
      await c.admin.post('/api/segment', { name: 'Big Widget orders', table_id: t('ORDERS'), definition: { 'source-table': t('ORDERS'), filter: ['and', ['>', total, 100], ['=', product, 1]] } }),
      'segment 2',
    );
    dashboard = ok(await c.admin.post('/api/dashboard', { name: 'Sales' }), 'dashboard');
    ok(
      await c.admin.put(`/api/dashboard/${dashboard.id}`, {
        dashcards: [q1, q2, unlike].map((card, i) => ({ id: -(i + 1), card_id: card.id, row: i * 4, col: 0, size_x: 6, size_y: 4 })),
      }),
      'layout',
    );
    lonely = ok(await c.admin.post('/api/dashboard', { name: 'Just revenue' }), 'lonely dashboard');
    ok(await c.admin.put(`/api/dashboard/${lonely.id}`, { dashcards: [{ id: -1, card_id: q1.id, row: 0, col: 0, size_x: 6, size_y: 4 }] }), 'lonely layout');
  });

  test('a table: its segments and metrics, the tables its keys link to and from, and its neighbours', async () => {
    const related = ok(await c.user.get(`/api/table/${t('ORDERS')}/related`), 'orders');
    assert.deepEqual(Object.keys(related).sort(), ['linked-from', 'linking-to', 'metrics', 'segments', 'tables']);
    assert.deepEqual(names(related['linking-to']), ['PEOPLE', 'PRODUCTS']);
    assert.deepEqual(related['linked-from'], []);
    assert.deepEqual(names(related.segments), ['Big Widget orders', 'Big orders']);
    assert.deepEqual(ids(related.metrics), [metric.id]);
    assert.deepEqual(names(related.tables), ['ACCOUNTS', 'ANALYTIC_EVENTS', 'FEEDBACK', 'INVOICES', 'REVIEWS']);
    assert.deepEqual(ok(await c.user.get(`/api/table/${t('ORDERS')}/related`), 'again'), related, 'the same answer every time');
    assert.deepEqual(names(ok(await c.user.get(`/api/table/${t('PRODUCTS')}/related`), 'products')['linked-from']), ['ORDERS', 'REVIEWS']);

    ok(await c.admin.put(`/api/table/${t('INVOICES')}`, { visibility_type: 'hidden' }), 'hide');
    assert.ok(!names(ok(await c.user.get(`/api/table/${t('ORDERS')}/related`), 'orders').tables).includes('INVOICES'), 'hidden tables are left out');
    ok(await c.admin.put(`/api/table/${t('INVOICES')}`, { visibility_type: null }), 'unhide');
    assert.equal((await c.nodata.get(`/api/table/${t('ORDERS')}/related`)).status, 403);
    assert.equal((await c.user.get('/api/table/999999/related')).status, 404);
  });

  test('a field: its table, segments, metrics that use it and other fields', async () => {
    const related = ok(await c.user.get(`/api/field/${f('ORDERS', 'TOTAL')}/related`), 'total');
    assert.deepEqual(Object.keys(related).sort(), ['fields', 'metrics', 'segments', 'table']);
    assert.equal(related.table.name, 'ORDERS');
    assert.deepEqual(ids(related.metrics), [metric.id]);
    assert.deepEqual(names(related.segments), ['Big Widget orders', 'Big orders']);
    assert.equal(related.fields.length, 5);
    assert.ok(!related.fields.some((x: any) => x.name === 'TOTAL'));
    assert.deepEqual(ok(await c.user.get(`/api/field/${f('ORDERS', 'DISCOUNT')}/related`), 'discount').metrics, [], 'no metric uses DISCOUNT');
    assert.equal((await c.nodata.get(`/api/field/${f('ORDERS', 'TOTAL')}/related`)).status, 403);
    assert.equal((await c.user.get('/api/field/999999/related')).status, 404);
  });

  test('a segment: its table, the table’s metrics, the other segments and the tables linking to it', async () => {
    const related = ok(await c.user.get(`/api/segment/${seg1.id}/related`), 'segment');
    assert.deepEqual(Object.keys(related).sort(), ['linked-from', 'metrics', 'segments', 'table']);
    assert.equal(related.table.id, t('ORDERS'));
    assert.deepEqual(ids(related.metrics), [metric.id]);
    assert.deepEqual(ids(related.segments), [seg2.id], 'the others, not itself');
    assert.deepEqual(related['linked-from'], []);
    assert.equal((await c.nodata.get(`/api/segment/${seg1.id}/related`)).status, 403);
    assert.equal((await c.user.get('/api/segment/999999/related')).status, 404);
  });

  test('a card: similar metrics, segments, its dashboard mates, dashboards and collections — readable ones only', async () => {
    const related = ok(await c.user.get(`/api/card/${q1.id}/related`), 'card');
    assert.deepEqual(Object.keys(related).sort(), ['collections', 'dashboard-mates', 'dashboards', 'metrics', 'segments', 'table']);
    assert.equal(related.table.id, t('ORDERS'));
    assert.deepEqual(ids(related.metrics), [metric.id]);
    assert.deepEqual(ids(related.segments).slice(0, 2).sort(), [seg1.id, seg2.id].sort());
    assert.deepEqual(ids(related['dashboard-mates']).sort(), [q2.id, unlike.id].sort());
    assert.deepEqual(ids(related.dashboards), [dashboard.id], 'the dashboard showing the similar question');
    assert.deepEqual(related.collections, [], 'the similar questions are in the root collection');
    const asAdmin = ok(await c.admin.get(`/api/card/${q1.id}/related`), 'card as admin');
    assert.ok(asAdmin.collections.some((x: any) => x.id === privateCollection.id), 'the admin sees the private similar question’s collection');
    assert.ok(ids(asAdmin.dashboards).includes(lonely.id), 'and the dashboards they edited lately');
    assert.equal((await c.user.get(`/api/card/${hidden.id}/related`)).status, 403);
    assert.equal((await c.user.get('/api/card/999999/related')).status, 404);
  });

  test('an unsaved query: the same recommendations as a card of it', async () => {
    const related = ok(await c.user.post('/api/card/related', q1.dataset_query), 'ad hoc');
    assert.equal(related.table.id, t('ORDERS'));
    assert.deepEqual(ids(related.metrics), [metric.id]);
    assert.deepEqual(related['dashboard-mates'], []);
    assert.ok(ids(related.dashboards).includes(dashboard.id));
    assert.equal((await c.nodata.post('/api/card/related', q1.dataset_query)).status, 403);
    assert.equal((await c.user.post('/api/card/related', { database: c.sample.id, type: 'query', query: { 'source-table': 999999 } })).status, 404);
    assert.equal((await c.user.post('/api/card/related', { type: 'bogus' })).status, 400);
  });

  test('a dashboard: questions like its own that it doesn’t show', async () => {
    const related = ok(await c.user.get(`/api/dashboard/${lonely.id}/related`), 'dashboard');
    assert.deepEqual(Object.keys(related), ['cards']);
    assert.deepEqual(ids(related.cards), [q2.id], 'similar, readable, not on it');
    assert.ok(ids(ok(await c.admin.get(`/api/dashboard/${lonely.id}/related`), 'as admin').cards).includes(hidden.id));
    assert.equal((await c.user.get('/api/dashboard/999999/related')).status, 404);
  });
});
