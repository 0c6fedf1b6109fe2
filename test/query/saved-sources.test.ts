// Queries that read saved things, end to end through the cards and snippets APIs: saved questions as sources
// (`card__N`, nested to any depth, MBQL and native), models with edited metadata, `{{#N}}` card tags, snippets,
// metric cards, segments, joins to a saved question, and collection read access.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerWarehouses, type Warehouse } from './helpers/warehouses.js';
import { registerSegmentSource } from '../../src/query/index.js';

forEachAppDb('saved sources', (server: () => TestServer) => {
  let admin: Client;
  let w: Warehouse;

  before(async () => {
    admin = await setupAdmin(server());
    w = (await registerWarehouses(server(), admin, ['sqlite'])).sqlite;
  });

  async function card(name: string, dataset_query: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<any> {
    const r = await admin.post('/api/card', { name, dataset_query, display: 'table', visualization_settings: {}, ...extra });
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  const rows = async (query: Record<string, unknown>, client = admin) => {
    const r = await client.post('/api/dataset', query);
    assert.equal(r.body.status, 'completed', r.body.error);
    return r.body;
  };

  test('a saved question as a source, nested three deep', async () => {
    const widgets = await card('Widgets', w.mbql({ 'source-table': w.t('PRODUCTS'), filter: ['=', w.f('PRODUCTS', 'CATEGORY'), 'Widget'] }));
    const cheap = await card('Cheap widgets', { database: w.id, type: 'query', query: { 'source-table': `card__${widgets.id}`, filter: ['<', w.f('PRODUCTS', 'PRICE'), 50] } });
    const direct = await rows(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['and', ['=', w.f('PRODUCTS', 'CATEGORY'), 'Widget'], ['<', w.f('PRODUCTS', 'PRICE'), 50]] }));
    const nested = await rows({ database: w.id, type: 'query', query: { 'source-table': `card__${cheap.id}`, aggregation: [['count']] } });
    assert.deepEqual(nested.data.rows, direct.data.rows);
    // The saved-questions virtual database works too.
    const virtual = await rows({ database: -1337, type: 'query', query: { 'source-table': `card__${cheap.id}`, aggregation: [['count']] } });
    assert.deepEqual(virtual.data.rows, direct.data.rows);
    assert.equal(virtual.database_id, w.id);
  });

  test('a native saved question as a source', async () => {
    const native = await card('Native categories', w.native('SELECT "CATEGORY", COUNT(*) AS "N" FROM "PRODUCTS" GROUP BY "CATEGORY"'));
    const r = await rows({ database: w.id, type: 'query', query: { 'source-table': `card__${native.id}`, aggregation: [['sum', ['field', 'N', { 'base-type': 'type/Integer' }]]] } });
    assert.deepEqual(r.data.rows, [[200]]);
  });

  test('a model’s edited metadata shows in results read from it', async () => {
    const model = await card('Product model', w.mbql({ 'source-table': w.t('PRODUCTS'), fields: [w.f('PRODUCTS', 'ID'), w.f('PRODUCTS', 'TITLE')] }), { type: 'model' });
    const metadata = (await admin.get(`/api/card/${model.id}`)).body.result_metadata;
    assert.ok(Array.isArray(metadata) && metadata.length === 2, 'result_metadata computed by the query engine');
    const edited = metadata.map((m: any) => (m.name === 'TITLE' ? { ...m, display_name: 'Product name', description: 'What we call it' } : m));
    assert.equal((await admin.put(`/api/card/${model.id}`, { result_metadata: edited })).status, 200);
    const r = await rows({ database: w.id, type: 'query', query: { 'source-table': `card__${model.id}`, limit: 1, 'order-by': [['asc', ['field', 'ID', { 'base-type': 'type/BigInteger' }]]] } });
    const title = r.data.cols.find((c: any) => c.name === 'TITLE');
    assert.equal(title.display_name, 'Product name');
    assert.equal(title.description, 'What we call it');
  });

  test('running a model lays its edited metadata over its columns: card, export, dashcard and public runs', async () => {
    const category = w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY');
    const model = await card('Orders by category model', w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [category] }), { type: 'model' });
    const native = await card('Native counts model', w.native('SELECT "CATEGORY", COUNT(*) AS "Count" FROM "PRODUCTS" GROUP BY "CATEGORY" ORDER BY "CATEGORY"'), { type: 'model' });
    const question = await card('Orders by category question', w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [category] }));
    const edit = async (id: number, edits: Record<string, Record<string, unknown>>) => {
      const metadata = (await admin.get(`/api/card/${id}`)).body.result_metadata;
      const edited = metadata.map((m: any) => ({ ...m, ...(edits[m.name] ?? {}) }));
      assert.equal((await admin.put(`/api/card/${id}`, { result_metadata: edited })).status, 200);
    };
    const kind = { display_name: 'Kind', description: 'What sort of product', semantic_type: null, settings: { column_title: 'ignored here' }, visibility_type: 'normal' };
    await edit(model.id, { CATEGORY: kind, count: { display_name: 'Order Count' } });
    await edit(native.id, { CATEGORY: { display_name: 'Kind' }, Count: { display_name: 'Order Count', semantic_type: 'type/Quantity' } });
    await edit(question.id, { CATEGORY: { display_name: 'Kind' } });

    const run = async (id: number) => {
      const r = await admin.post(`/api/card/${id}/query`, {});
      assert.equal(r.body.status, 'completed', r.body.error);
      return r.body.data;
    };
    const data = await run(model.id);
    const [cat, count] = data.cols;
    assert.deepEqual([cat.display_name, cat.description, cat.semantic_type, cat.settings, cat.visibility_type], ['Kind', 'What sort of product', null, { column_title: 'ignored here' }, 'normal']);
    // Aggregation columns keep their computed names (Metabase merges model metadata into the others only).
    assert.equal(count.display_name, 'Count');
    assert.equal(data.results_metadata.columns[0].display_name, 'Kind');
    const nativeCols = (await run(native.id)).cols;
    assert.deepEqual(nativeCols.map((c: any) => [c.display_name, c.semantic_type ?? null]), [['Kind', null], ['Order Count', 'type/Quantity']]);
    assert.equal((await run(question.id)).cols[0].display_name, 'Product → Category', 'a question’s saved metadata is not laid over its results');

    const csv = await admin.post(`/api/card/${native.id}/query/csv`, {});
    assert.equal(csv.text.split('\n')[0], 'Kind,Order Count');
    assert.equal((await admin.post(`/api/card/${model.id}/query/csv`, {})).text.split('\n')[0], 'Kind,Count');

    const dashboard = (await admin.post('/api/dashboard', { name: 'Model board' })).body;
    const put = await admin.put(`/api/dashboard/${dashboard.id}`, { dashcards: [{ id: -1, card_id: native.id, row: 0, col: 0, size_x: 6, size_y: 4, parameter_mappings: [], visualization_settings: {}, series: [] }] });
    assert.equal(put.status, 200, put.text);
    const dashcardId = put.body.dashcards[0].id;
    const viaDashboard = await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dashcardId}/card/${native.id}/query`, {});
    assert.deepEqual(viaDashboard.body.data.cols.map((c: any) => c.display_name), ['Kind', 'Order Count']);

    await admin.put('/api/setting/enable-public-sharing', { value: true });
    const uuid = (await admin.post(`/api/card/${native.id}/public_link`)).body.uuid;
    const shared = await server().anon.get(`/api/public/card/${uuid}/query`);
    assert.deepEqual(shared.body.data.cols.map((c: any) => c.display_name), ['Kind', 'Order Count']);
    const sharedCsv = await server().anon.get(`/api/public/card/${uuid}/query/csv`);
    assert.equal(sharedCsv.text.split('\n')[0], 'Kind,Order Count');
  });

  test('a source-field ref to a column the source already has reads that column (no second join)', async () => {
    const category = w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY');
    const byCategory = await card('Orders by product category', w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [category] }));
    const r = await rows({ database: w.id, type: 'query', query: { 'source-table': `card__${byCategory.id}`, fields: [category, ['field', 'count', { 'base-type': 'type/BigInteger' }]], filter: ['=', category, 'Widget'] } });
    assert.equal(r.data.rows.length, 1);
    assert.equal(r.data.rows[0][0], 'Widget');
    assert.equal(r.data.cols[0].display_name, 'Product → Category');
    const direct = await rows(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], filter: ['=', category, 'Widget'] }));
    assert.equal(r.data.rows[0][1], direct.data.rows[0][0]);
    assert.doesNotMatch(r.data.native_form.query, /JOIN[\s\S]*JOIN/);
    // Nested source queries the same; a field through another FK of the outer stage still joins.
    const nested = await rows(w.mbql({ 'source-query': { 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'USER_ID'), category] }, aggregation: [['count']], breakout: [category], filter: ['=', category, 'Gizmo'] }));
    assert.deepEqual(nested.data.rows.map((x: unknown[]) => x[0]), ['Gizmo']);
    const both = await rows(w.mbql({ 'source-query': { 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'USER_ID'), category] }, aggregation: [['count']], breakout: [category, w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE')], limit: 1 }));
    assert.equal(both.data.rows[0].length, 3);
  });

  test('binning a column of a saved question or a native source uses the source’s fingerprint', async () => {
    const prices = await card('Product prices', w.mbql({ 'source-table': w.t('PRODUCTS'), fields: [w.f('PRODUCTS', 'ID'), w.f('PRODUCTS', 'PRICE')] }));
    // Saved without result_metadata, the card's columns are worked out without running it: a field column carries its
    // field's fingerprint (all the table's rows, not a first row).
    const meta = (await admin.get(`/api/card/${prices.id}`)).body.result_metadata;
    const price = meta.find((m: any) => m.name === 'PRICE');
    assert.ok(price.fingerprint.global['distinct-count'] > 100, JSON.stringify(price.fingerprint));
    assert.ok(price.fingerprint.type['type/Number'].min < price.fingerprint.type['type/Number'].max);
    const binned = await rows({ database: w.id, type: 'query', query: { 'source-table': `card__${prices.id}`, aggregation: [['count']], breakout: [['field', 'PRICE', { 'base-type': 'type/Float', binning: { strategy: 'num-bins', 'num-bins': 10 } }]] } });
    const direct = await rows(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], breakout: [w.f('PRODUCTS', 'PRICE', { binning: { strategy: 'num-bins', 'num-bins': 10 } })] }));
    assert.deepEqual(binned.data.rows, direct.data.rows);
    assert.equal(binned.data.cols[0].binning_info.num_bins, 10);
    // By field id too.
    const byId = await rows({ database: w.id, type: 'query', query: { 'source-table': `card__${prices.id}`, aggregation: [['count']], breakout: [w.f('PRODUCTS', 'PRICE', { binning: { strategy: 'num-bins', 'num-bins': 10 } })] } });
    assert.deepEqual(byId.data.rows, direct.data.rows);
    // A native saved question saved as the UI saves it, with the metadata of the run the user saw: fingerprints included.
    const nativeQuery = w.native('SELECT "ID", "PRICE" FROM "PRODUCTS"');
    const seen = await rows(nativeQuery);
    const native = await card('Native prices', nativeQuery, { result_metadata: seen.data.results_metadata.columns });
    const nativeBinned = await rows({ database: w.id, type: 'query', query: { 'source-table': `card__${native.id}`, aggregation: [['count']], breakout: [['field', 'PRICE', { 'base-type': 'type/Float', binning: { strategy: 'bin-width', 'bin-width': 25 } }]] } });
    const directWidth = await rows(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], breakout: [w.f('PRODUCTS', 'PRICE', { binning: { strategy: 'bin-width', 'bin-width': 25 } })] }));
    assert.deepEqual(nativeBinned.data.rows, directWidth.data.rows);
    // Saved without result_metadata, a native question's columns come from a one-row run, as Metabase's: names and
    // types but no fingerprint (one row has no range), so binning its number column says what is missing.
    const bare = await card('Native prices, no metadata', nativeQuery);
    const bareMeta = (await admin.get(`/api/card/${bare.id}`)).body.result_metadata;
    assert.deepEqual(bareMeta.map((m: any) => [m.name, m.base_type, 'fingerprint' in m]), [['ID', 'type/BigInteger', false], ['PRICE', 'type/Float', false]]);
    const unbinnable = await admin.post('/api/dataset', { database: w.id, type: 'query', query: { 'source-table': `card__${bare.id}`, aggregation: [['count']], breakout: [['field', 'PRICE', { 'base-type': 'type/Float', binning: { strategy: 'num-bins', 'num-bins': 10 } }]] } });
    assert.equal(unbinnable.body.status, 'failed');
    assert.equal(unbinnable.body.error, 'Unable to bin PRICE: it has no fingerprint with a minimum and maximum yet.');
  });

  test('a join to a saved question', async () => {
    const reviews = await card('Review stats', w.mbql({ 'source-table': w.t('REVIEWS'), aggregation: [['count']], breakout: [w.f('REVIEWS', 'PRODUCT_ID')] }));
    const r = await rows(w.mbql({
      'source-table': w.t('PRODUCTS'),
      joins: [{ 'source-table': `card__${reviews.id}`, alias: 'Stats', fields: 'none', condition: ['=', w.f('PRODUCTS', 'ID'), ['field', 'PRODUCT_ID', { 'base-type': 'type/Integer', 'join-alias': 'Stats' }]] }],
      aggregation: [['sum', ['field', 'count', { 'base-type': 'type/Integer', 'join-alias': 'Stats' }]]],
    }));
    assert.deepEqual(r.data.rows, [[1112]]);
  });

  test('a ref with the join alias of a join inside the source (card or nested query) reads that column', async () => {
    const join = { 'source-table': w.t('PRODUCTS'), alias: 'Products', fields: [w.f('PRODUCTS', 'CATEGORY', { 'join-alias': 'Products' })], condition: ['=', w.f('ORDERS', 'PRODUCT_ID'), w.f('PRODUCTS', 'ID', { 'join-alias': 'Products' })] };
    const inner = { 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'TOTAL')], joins: [join] };
    const joined = await card('Orders with their category', w.mbql(inner));
    const advertised = (await admin.get(`/api/card/${joined.id}`)).body.result_metadata.find((m: any) => m.name === 'CATEGORY').field_ref;
    assert.deepEqual(advertised, w.f('PRODUCTS', 'CATEGORY', { 'join-alias': 'Products' }));
    const category = w.f('PRODUCTS', 'CATEGORY', { 'join-alias': 'Products' });
    const expected = (await rows(w.mbql({ 'source-table': w.t('ORDERS'), joins: [{ ...join, fields: 'none' }], aggregation: [['count']], breakout: [category], filter: ['!=', category, 'Gadget'] }))).data.rows;
    assert.equal(expected.length, 3);
    for (const source of [{ 'source-table': `card__${joined.id}` }, { 'source-query': inner }, { 'source-query': { 'source-query': inner } }]) {
      const r = await rows(w.mbql({ ...source, aggregation: [['count']], breakout: [category], filter: ['!=', category, 'Gadget'], 'order-by': [['asc', category]] }));
      assert.deepEqual(r.data.rows, expected, JSON.stringify(source));
      assert.equal(r.data.cols[0].display_name, 'Products → Category');
    }
    // In the fields of a stage over the card too; an alias nothing in the query has still fails.
    const listed = await rows(w.mbql({ 'source-table': `card__${joined.id}`, fields: [category], limit: 1 }));
    assert.equal(listed.data.cols.length, 1);
    const unknown = await admin.post('/api/dataset', w.mbql({ 'source-table': `card__${joined.id}`, breakout: [w.f('PRODUCTS', 'CATEGORY', { 'join-alias': 'Nope' })], aggregation: [['count']] }));
    assert.equal(unknown.body.status, 'failed');
    assert.match(unknown.body.error, /No join named "Nope"/);
  });

  test('{{#N}} inlines a saved question as a subquery', async () => {
    const gizmos = await card('Gizmos', w.mbql({ 'source-table': w.t('PRODUCTS'), fields: [w.f('PRODUCTS', 'ID')], filter: ['=', w.f('PRODUCTS', 'CATEGORY'), 'Gizmo'] }));
    const tag = `#${gizmos.id}-gizmos`;
    const r = await rows(w.native(`SELECT COUNT(*) FROM {{${tag}}} AS g`, { [tag]: { id: 't', name: tag, 'display-name': 'Gizmos', type: 'card', 'card-id': gizmos.id } }));
    assert.deepEqual(r.data.rows, [[51]]);
    const nativeInner = await card('Native gadgets', w.native('SELECT "ID" FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}', { cat: { id: 'c', name: 'cat', type: 'text', default: 'Gadget' } }));
    const tag2 = `#${nativeInner.id}`;
    const r2 = await rows(w.native(`SELECT COUNT(*) FROM {{${tag2}}} AS g`, { [tag2]: { id: 't2', name: tag2, type: 'card', 'card-id': nativeInner.id } }));
    assert.deepEqual(r2.data.rows, [[53]]);
  });

  test('snippets are inlined, also inside other snippets', async () => {
    const name = `widgets ${Date.now()}`;
    assert.equal((await admin.post('/api/native-query-snippet', { name, content: `"CATEGORY" = 'Widget'` })).status, 200);
    const outer = `cheap ${name}`;
    assert.equal((await admin.post('/api/native-query-snippet', { name: outer, content: `{{snippet: ${name}}} AND "PRICE" < {{max}}` })).status, 200);
    const tags = { [`snippet: ${outer}`]: { id: 's', name: `snippet: ${outer}`, type: 'snippet', 'snippet-name': outer }, max: { id: 'm', name: 'max', type: 'number', default: 50 } };
    const r = await rows(w.native(`SELECT COUNT(*) FROM "PRODUCTS" WHERE {{snippet: ${outer}}}`, tags));
    const direct = await rows(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['and', ['=', w.f('PRODUCTS', 'CATEGORY'), 'Widget'], ['<', w.f('PRODUCTS', 'PRICE'), 50]] }));
    assert.deepEqual(r.data.rows, direct.data.rows);
  });

  test('a metric card used as an aggregation', async () => {
    const metric = await card('Revenue from big orders', w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['sum', w.f('ORDERS', 'TOTAL')]], filter: ['>', w.f('ORDERS', 'QUANTITY'), 5] }), { type: 'metric', display: 'scalar' });
    const r = await rows(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['metric', metric.id]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }));
    const direct = await rows(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['sum-where', w.f('ORDERS', 'TOTAL'), ['>', w.f('ORDERS', 'QUANTITY'), 5]]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }));
    assert.deepEqual(r.data.rows.map((x: unknown[]) => x[0]), direct.data.rows.map((x: unknown[]) => x[0]));
    r.data.rows.forEach((row: number[], i: number) => assert.ok(Math.abs(row[1] - direct.data.rows[i][1]) < 1e-6));
    assert.equal(r.data.cols[1].display_name, 'Revenue from big orders');
  });

  test('segments through a registered lookup', async () => {
    registerSegmentSource(async (_ctx, ids) => new Map(ids.filter((id) => id === 7).map((id) => [id, { id, table_id: w.t('PRODUCTS'), name: 'Gadgets', definition: { filter: ['=', w.f('PRODUCTS', 'CATEGORY'), 'Gadget'] } }])));
    const r = await rows(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['segment', 7] }));
    assert.deepEqual(r.data.rows, [[53]]);
    const missing = await admin.post('/api/dataset', w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['segment', 8] }));
    assert.equal(missing.body.status, 'failed');
  });

  test('a missing or archived card fails the query', async () => {
    const r = await admin.post('/api/dataset', { database: w.id, type: 'query', query: { 'source-table': 'card__987654' } });
    assert.equal(r.body.status, 'failed');
    assert.match(r.body.error, /987654/);
  });

  test('reading a saved question needs read access to its collection', async () => {
    const { client } = await createUserClient(server(), admin);
    const collection = await admin.post('/api/collection', { name: `Private ${Date.now()}`, color: '#509EE3' });
    const groups = (await admin.get('/api/permissions/group')).body;
    const allUsers = groups.find((g: any) => g.name === 'All Users');
    const graph = (await admin.get('/api/collection/graph')).body;
    graph.groups[allUsers.id] = { ...graph.groups[allUsers.id], [collection.body.id]: 'none' };
    assert.equal((await admin.put('/api/collection/graph', graph)).status, 200);
    const secret = await card('Secret', w.mbql({ 'source-table': w.t('PRODUCTS') }), { collection_id: collection.body.id });
    const denied = await client.post('/api/dataset', { database: w.id, type: 'query', query: { 'source-table': `card__${secret.id}`, aggregation: [['count']] } });
    assert.equal(denied.status, 403);
    const open = await card('Open', w.mbql({ 'source-table': w.t('PRODUCTS') }));
    const allowed = await client.post('/api/dataset', { database: w.id, type: 'query', query: { 'source-table': `card__${open.id}`, aggregation: [['count']] } });
    assert.deepEqual(allowed.body.data.rows, [[200]]);
  });
});
