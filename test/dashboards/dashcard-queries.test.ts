// Running dashcards on the Sample Database: dashboard filters wired to MBQL cards (string, number, date and category
// parameters), to native field filters and to native variables; series, downloads, pivot, last used values,
// param_fields / query_metadata, errors and permissions.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { createCollection, uniqueName } from '../cards/fixtures.js';
import { createDashboard, getDashboard, newDashcard, putLayout, setAllUsersCollectionPerms } from './fixtures.js';
import { flushExecutions } from '../../src/query/index.js';

const PARAMETERS = [
  { id: 'cat', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string' },
  { id: 'price', name: 'Price', slug: 'price', type: 'number/>=', sectionId: 'number' },
  { id: 'between', name: 'Price between', slug: 'between', type: 'number/between', sectionId: 'number' },
  { id: 'when', name: 'Created', slug: 'created', type: 'date/all-options', sectionId: 'date' },
  { id: 'kind', name: 'Kind', slug: 'kind', type: 'category', sectionId: 'string' },
  { id: 'vendor', name: 'Vendor', slug: 'vendor', type: 'string/contains', sectionId: 'string' },
  { id: 'amount', name: 'Amount', slug: 'amount', type: 'number/=', sectionId: 'number' },
];

forEachAppDb('dashcard queries', (server) => {
  let admin: Client;
  let sample: Sample;
  let dashboard: any;
  /** dashcard ids by name */
  const dc: Record<string, { id: number; card: number }> = {};

  const count = (table: string, filter?: unknown) => ({
    database: sample.id,
    type: 'query',
    query: { 'source-table': sample.table(table), aggregation: [['count']], ...(filter ? { filter } : {}) },
  });
  const native = (sql: string, tags: Record<string, unknown>) => ({ database: sample.id, type: 'native', native: { query: sql, 'template-tags': tags } });
  const field = (table: string, name: string) => ['field', sample.field(table, name), null];

  async function card(name: string, datasetQuery: unknown, extra: Record<string, unknown> = {}) {
    const r = await admin.post('/api/card', { name: uniqueName(name), display: 'scalar', visualization_settings: {}, dataset_query: datasetQuery, ...extra });
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  /** The first cell of an ad-hoc query (the baseline a filtered dashcard must match). */
  async function scalar(datasetQuery: unknown): Promise<number> {
    const r = await admin.post('/api/dataset', datasetQuery);
    assert.equal(r.body.status, 'completed', JSON.stringify(r.body.error));
    return Number(r.body.data.rows[0][0]);
  }

  async function run(name: string, parameters: unknown[], client: Client = admin) {
    const { id, card: cardId } = dc[name];
    const r = await client.post(`/api/dashboard/${dashboard.id}/dashcard/${id}/card/${cardId}/query`, { parameters });
    assert.equal(r.status, 202, r.text);
    return r.body;
  }

  const value = (result: any) => Number(result.data.rows[0][0]);

  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
    const cards = {
      products: await card('Products', count('PRODUCTS')),
      orders: await card('Orders', count('ORDERS')),
      nativeCategory: await card(
        'Native field filter',
        native('SELECT COUNT(*) AS n FROM PRODUCTS WHERE {{cat}}', {
          cat: { id: 't-cat', name: 'cat', 'display-name': 'Cat', type: 'dimension', dimension: field('PRODUCTS', 'CATEGORY'), 'widget-type': 'string/=' },
        }),
      ),
      nativeDate: await card(
        'Native date filter',
        native('SELECT COUNT(*) AS n FROM ORDERS WHERE {{created}}', {
          created: { id: 't-created', name: 'created', 'display-name': 'Created', type: 'dimension', dimension: field('ORDERS', 'CREATED_AT'), 'widget-type': 'date/all-options' },
        }),
      ),
      nativePrice: await card(
        'Native variables',
        native('SELECT COUNT(*) AS n FROM PRODUCTS WHERE PRICE >= {{min_price}} [[AND CATEGORY = {{category}}]]', {
          min_price: { id: 't-min', name: 'min_price', 'display-name': 'Min price', type: 'number', default: 0 },
          category: { id: 't-category', name: 'category', 'display-name': 'Category', type: 'text' },
        }),
      ),
      byCategoryAndVendor: await card(
        'Pivot',
        { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']], breakout: [field('PRODUCTS', 'CATEGORY'), field('PRODUCTS', 'VENDOR')] } },
        { display: 'pivot' },
      ),
      overlay: await card('Overlay', count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Gizmo'])),
    };
    const m = (parameterId: string, cardId: number, target: unknown) => ({ parameter_id: parameterId, card_id: cardId, target });
    dashboard = await createDashboard(admin, { parameters: PARAMETERS });
    const layout = await putLayout(admin, dashboard.id, [
      newDashcard(-1, cards.products.id, {
        parameter_mappings: [
          m('cat', cards.products.id, ['dimension', field('PRODUCTS', 'CATEGORY')]),
          m('price', cards.products.id, ['dimension', field('PRODUCTS', 'PRICE')]),
          m('between', cards.products.id, ['dimension', field('PRODUCTS', 'PRICE')]),
          m('kind', cards.products.id, ['dimension', field('PRODUCTS', 'CATEGORY')]),
          m('vendor', cards.products.id, ['dimension', field('PRODUCTS', 'VENDOR')]),
        ],
        series: [{ id: cards.overlay.id }],
      }),
      newDashcard(-2, cards.orders.id, {
        row: 4,
        parameter_mappings: [
          m('when', cards.orders.id, ['dimension', field('ORDERS', 'CREATED_AT')]),
          m('cat', cards.orders.id, ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), { 'source-field': sample.field('ORDERS', 'PRODUCT_ID') }]]),
        ],
      }),
      newDashcard(-3, cards.nativeCategory.id, { row: 8, parameter_mappings: [m('cat', cards.nativeCategory.id, ['dimension', ['template-tag', 'cat']]), m('kind', cards.nativeCategory.id, ['dimension', ['template-tag', 'cat']])] }),
      newDashcard(-4, cards.nativeDate.id, { row: 12, parameter_mappings: [m('when', cards.nativeDate.id, ['dimension', ['template-tag', 'created']])] }),
      newDashcard(-5, cards.nativePrice.id, {
        row: 16,
        parameter_mappings: [m('amount', cards.nativePrice.id, ['variable', ['template-tag', 'min_price']]), m('kind', cards.nativePrice.id, ['variable', ['template-tag', 'category']])],
      }),
      newDashcard(-6, cards.byCategoryAndVendor.id, { row: 20, visualization_settings: { 'pivot_table.column_split': { rows: [field('PRODUCTS', 'CATEGORY')], columns: [field('PRODUCTS', 'VENDOR')] } } }),
    ]);
    const names = ['products', 'orders', 'nativeCategory', 'nativeDate', 'nativePrice', 'byCategoryAndVendor'];
    const ids = [cards.products, cards.orders, cards.nativeCategory, cards.nativeDate, cards.nativePrice, cards.byCategoryAndVendor].map((c) => c.id);
    for (const d of layout.dashcards) dc[names[ids.indexOf(d.card_id)]] = { id: d.id, card: d.card_id };
    dc.overlay = { id: dc.products.id, card: cards.overlay.id };
  });

  test('MBQL card: string/= and category parameters become filters; no value, no filter', async () => {
    const all = value(await run('products', []));
    assert.equal(all, 200);
    const widgets = await run('products', [{ id: 'cat', type: 'string/=', value: ['Widget'] }]);
    assert.equal(widgets.status, 'completed');
    assert.equal(widgets.context, 'dashboard');
    assert.equal(value(widgets), await scalar(count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Widget'])));
    const two = value(await run('products', [{ id: 'kind', type: 'category', value: ['Widget', 'Gizmo'] }]));
    assert.equal(two, await scalar(count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Widget', 'Gizmo'])));
    assert.ok(two > value(widgets));
    assert.equal(value(await run('products', [{ id: 'cat', type: 'string/=', value: null }])), all, 'a cleared filter filters nothing');
    // a dashboard parameter mapped to another card only does not touch this one
    assert.equal(value(await run('products', [{ id: 'when', type: 'date/all-options', value: 'thisyear' }])), all);
    const contains = value(await run('products', [{ id: 'vendor', type: 'string/contains', value: ['inc'] }]));
    assert.equal(contains, await scalar(count('PRODUCTS', ['contains', field('PRODUCTS', 'VENDOR'), 'inc', { 'case-sensitive': false }])));
  });

  test('MBQL card: number parameters (>=, between) and an implicit-join target', async () => {
    const atLeast = value(await run('products', [{ id: 'price', type: 'number/>=', value: [50] }]));
    assert.equal(atLeast, await scalar(count('PRODUCTS', ['>=', field('PRODUCTS', 'PRICE'), 50])));
    assert.ok(atLeast > 0 && atLeast < 200);
    const between = value(await run('products', [{ id: 'between', type: 'number/between', value: [20, 40] }]));
    assert.equal(between, await scalar(count('PRODUCTS', ['between', field('PRODUCTS', 'PRICE'), 20, 40])));
    const gadgetOrders = value(await run('orders', [{ id: 'cat', type: 'string/=', value: ['Gadget'] }]));
    assert.equal(
      gadgetOrders,
      await scalar(count('ORDERS', ['=', ['field', sample.field('PRODUCTS', 'CATEGORY'), { 'source-field': sample.field('ORDERS', 'PRODUCT_ID') }], 'Gadget'])),
    );
    assert.ok(gadgetOrders > 0);
  });

  test('date parameters on an MBQL card and a native field filter give the same counts', async () => {
    const nativeYear = (year: number) =>
      scalar(native(`SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT >= '${year}-01-01' AND CREATED_AT < '${year + 1}-01-01'`, {}));
    const expected2025 = await nativeYear(2025);
    assert.ok(expected2025 > 0);
    const range = [{ id: 'when', type: 'date/all-options', value: '2025-01-01~2025-12-31' }];
    assert.equal(value(await run('orders', range)), expected2025);
    assert.equal(value(await run('nativeDate', range)), expected2025);
    const month = [{ id: 'when', type: 'date/all-options', value: '2025-03' }];
    const march = await scalar(native("SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT >= '2025-03-01' AND CREATED_AT < '2025-04-01'", {}));
    assert.equal(value(await run('orders', month)), march);
    assert.equal(value(await run('nativeDate', month)), march);
    assert.equal(value(await run('nativeDate', [])), await scalar(count('ORDERS')), 'no value: the field filter is 1 = 1');
    const bad = await run('orders', [{ id: 'when', type: 'date/all-options', value: 'not-a-date' }]);
    assert.equal(bad.status, 'failed');
  });

  test('native field filter: string/= and category parameters', async () => {
    const widgets = value(await run('nativeCategory', [{ id: 'cat', type: 'string/=', value: ['Widget'] }]));
    assert.equal(widgets, await scalar(count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Widget'])));
    const both = value(await run('nativeCategory', [{ id: 'kind', type: 'category', value: ['Widget', 'Doohickey'] }]));
    assert.equal(both, await scalar(count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Widget', 'Doohickey'])));
    assert.equal(value(await run('nativeCategory', [])), 200);
  });

  test('native variables: a number parameter and a category parameter fill template tags', async () => {
    assert.equal(value(await run('nativePrice', [])), 200, 'tag default 0, optional clause left out');
    const over = value(await run('nativePrice', [{ id: 'amount', type: 'number/=', value: [60] }]));
    assert.equal(over, await scalar(count('PRODUCTS', ['>=', field('PRODUCTS', 'PRICE'), 60])));
    const gizmosOver = value(await run('nativePrice', [{ id: 'amount', type: 'number/=', value: ['60'] }, { id: 'kind', type: 'category', value: 'Gizmo' }]));
    assert.equal(gizmosOver, await scalar(count('PRODUCTS', ['and', ['>=', field('PRODUCTS', 'PRICE'), 60], ['=', field('PRODUCTS', 'CATEGORY'), 'Gizmo']])));
    // an operator parameter can't fill a plain number variable (Metabase's compatibility rules)
    const incompatible = await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dc.nativePrice.id}/card/${dc.nativePrice.card}/query`, {
      parameters: [{ id: 'amount', type: 'number/>=', value: [60] }],
    });
    assert.equal(incompatible.body.status, 'failed');
    assert.equal(incompatible.body.error_type, 'invalid-parameter');
  });

  test('native date variable: a date/single filter fills a {{date}} tag', async () => {
    const since = await card(
      'Native date variable',
      native('SELECT COUNT(*) AS n FROM ORDERS WHERE CREATED_AT >= {{since}}', { since: { id: 't-since', name: 'since', 'display-name': 'Since', type: 'date' } }),
    );
    const d = await createDashboard(admin, { parameters: [{ id: 'since', name: 'Since', slug: 'since', type: 'date/single', sectionId: 'date' }] });
    const placed = await putLayout(admin, d.id, [
      newDashcard(-1, since.id, { parameter_mappings: [{ parameter_id: 'since', card_id: since.id, target: ['variable', ['template-tag', 'since']] }] }),
    ]);
    const url = `/api/dashboard/${d.id}/dashcard/${placed.dashcards[0].id}/card/${since.id}/query`;
    const r = await admin.post(url, { parameters: [{ id: 'since', type: 'date/single', value: '2025-06-01' }] });
    assert.equal(r.status, 202);
    assert.equal(r.body.status, 'completed', JSON.stringify(r.body.error));
    const expected = await scalar(native("SELECT COUNT(*) FROM ORDERS WHERE CREATED_AT >= '2025-06-01'", {}));
    assert.equal(value(r.body), expected);
    assert.ok(expected > 0 && expected < (await scalar(count('ORDERS'))));
    const later = await admin.post(url, { parameters: [{ id: 'since', type: 'date/single', value: '2025-09-01' }] });
    assert.ok(value(later.body) < expected);
    const none = await admin.post(url, { parameters: [] });
    assert.equal(none.body.status, 'failed');
    assert.equal(none.body.error_type, 'missing-required-parameter');
    const bad = await admin.post(url, { parameters: [{ id: 'since', type: 'date/single', value: 'soon' }] });
    assert.equal(bad.body.error_type, 'invalid-parameter');
  });

  test('bad filter values: an object is an invalid parameter (not a database error); a parameter needs an id', async () => {
    const url = `/api/dashboard/${dashboard.id}/dashcard/${dc.products.id}/card/${dc.products.card}/query`;
    const before = (await getDashboard(admin, dashboard.id)).last_used_param_values.cat;
    for (const value of [{ a: 1 }, [{ a: 1 }], [['Gizmo']]]) {
      const r = await admin.post(url, { parameters: [{ id: 'cat', type: 'string/=', value }] });
      assert.equal(r.status, 202);
      assert.equal(r.body.status, 'failed');
      assert.equal(r.body.error_type, 'invalid-parameter');
      assert.equal(r.body.error, `Invalid value for the filter "Category": ${JSON.stringify(value)}. A filter's value is a string, a number, a boolean or a list of them.`);
    }
    // a native card too, and downloads
    const nativeUrl = `/api/dashboard/${dashboard.id}/dashcard/${dc.nativePrice.id}/card/${dc.nativePrice.card}/query`;
    const onNative = await admin.post(nativeUrl, { parameters: [{ id: 'kind', type: 'category', value: { a: 1 } }] });
    assert.equal(onNative.body.error_type, 'invalid-parameter');
    const csv = await admin.post(`${url}/csv`, { parameters: JSON.stringify([{ id: 'cat', type: 'string/=', value: { a: 1 } }]) });
    assert.match(csv.text, /Invalid value for the filter/);
    assert.deepEqual((await getDashboard(admin, dashboard.id)).last_used_param_values.cat, before, 'a bad value is not remembered');
    // every parameter names its filter
    for (const parameters of [[{ value: 'Gizmo' }], [{ id: null, value: 'Gizmo' }], [{ id: 'cat', type: 'string/=', value: ['Gizmo'] }, { type: 'category', value: 'x' }]]) {
      const r = await admin.post(url, { parameters });
      assert.equal(r.status, 400, JSON.stringify(parameters));
      assert.equal(r.body.errors.parameters, 'nullable sequence of parameter must be a map with :id and :type keys');
    }
    const pivot = await admin.post(`/api/dashboard/pivot/${dashboard.id}/dashcard/${dc.byCategoryAndVendor.id}/card/${dc.byCategoryAndVendor.card}/query`, { parameters: [{ value: 1 }] });
    assert.equal(pivot.status, 400);
    assert.equal((await admin.post(`${url}/csv`, { parameters: JSON.stringify([{ value: 1 }]) })).status, 400);
  });

  test('number/between with a missing bound is open-ended', async () => {
    const price = field('PRODUCTS', 'PRICE');
    const atLeast = value(await run('products', [{ id: 'between', type: 'number/between', value: [60, null] }]));
    assert.equal(atLeast, await scalar(count('PRODUCTS', ['>=', price, 60])));
    assert.ok(atLeast > 0 && atLeast < 200);
    const atMost = value(await run('products', [{ id: 'between', type: 'number/between', value: [null, 40] }]));
    assert.equal(atMost, await scalar(count('PRODUCTS', ['<=', price, 40])));
    assert.equal(value(await run('products', [{ id: 'between', type: 'number/between', value: [null, null] }])), 200, 'no bounds, no filter');
  });

  test('a filter wired through a malformed target fails as an invalid parameter instead of running unfiltered', async () => {
    const d = await createDashboard(admin, { parameters: [{ id: 'broken', name: 'Broken', slug: 'broken', type: 'category' }] });
    const placed = await putLayout(admin, d.id, [newDashcard(-1, dc.products.card)]);
    const dashcardId = placed.dashcards[0].id;
    const url = `/api/dashboard/${d.id}/dashcard/${dashcardId}/card/${dc.products.card}/query`;
    const malformed = ['x', null, ['dimension'], { a: 1 }, ['dimension', ['template-tag', null]], ['dimension', ['field', { a: 1 }, null]]];
    for (const target of malformed) {
      // stored as older versions (or other tools) may have left it: PUT refuses such targets now
      const mappings = JSON.stringify([{ parameter_id: 'broken', card_id: dc.products.card, target }]);
      await server().ctx.db.updateTable('report_dashboardcard').set({ parameter_mappings: mappings }).where('id', '=', dashcardId).execute();
      const r = await admin.post(url, { parameters: [{ id: 'broken', type: 'category', value: 'Gizmo' }] });
      assert.equal(r.status, 202);
      assert.equal(r.body.status, 'failed', JSON.stringify(target));
      assert.equal(r.body.error_type, 'invalid-parameter');
      assert.match(r.body.error, /^The filter "Broken" is wired to this card through an unusable target\. Invalid parameter mapping target/);
      assert.doesNotMatch(r.body.error, /SQLITE|column/i);
      const unfiltered = await admin.post(url, { parameters: [{ id: 'broken', type: 'category', value: null }] });
      assert.equal(value(unfiltered.body), 200, 'without a value there is nothing to apply');
    }
  });

  test('series cards run on their dashcard; cards and dashcards elsewhere are 404', async () => {
    const overlay = await run('overlay', [{ id: 'cat', type: 'string/=', value: ['Widget'] }]);
    assert.equal(value(overlay), await scalar(count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Gizmo'])), 'a series card has no mappings of its own');
    const wrongCard = await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dc.orders.id}/card/${dc.products.card}/query`, {});
    assert.equal(wrongCard.status, 404);
    const other = await createDashboard(admin);
    const wrongDashboard = await admin.post(`/api/dashboard/${other.id}/dashcard/${dc.products.id}/card/${dc.products.card}/query`, {});
    assert.equal(wrongDashboard.status, 404);
    const unknownParameter = await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dc.products.id}/card/${dc.products.card}/query`, {
      parameters: [{ id: 'nope', type: 'category', value: 'x' }],
    });
    assert.equal(unknownParameter.status, 400);
    assert.equal((await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dc.products.id}/card/${dc.products.card}/query`, { parameters: 'x' })).status, 400);
  });

  test('downloads: csv (form body with JSON parameters), json, xlsx and api', async () => {
    const base = `/api/dashboard/${dashboard.id}/dashcard/${dc.byCategoryAndVendor.id}/card/${dc.byCategoryAndVendor.card}/query`;
    const mapped = `/api/dashboard/${dashboard.id}/dashcard/${dc.products.id}/card/${dc.products.card}/query`;
    const csv = await admin.post(`${mapped}/csv`, undefined, {
      raw: `parameters=${encodeURIComponent(JSON.stringify([{ id: 'cat', type: 'string/=', value: ['Widget'] }]))}&format_rows=false`,
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(csv.status, 200, csv.text);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    assert.match(csv.headers.get('content-disposition') ?? '', /attachment; filename=".*\.csv"/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.equal(Number(lines[1]), await scalar(count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Widget'])));
    const json = await admin.post(`${base}/json`, { parameters: [] });
    assert.equal(json.status, 200);
    assert.ok(JSON.parse(json.text).length > 4);
    const xlsx = await admin.post(`${base}/xlsx`, {});
    assert.equal(xlsx.status, 200);
    assert.match(xlsx.headers.get('content-type') ?? '', /spreadsheetml/);
    const api = await admin.post(`${mapped}/api`, { parameters: JSON.stringify([{ id: 'cat', type: 'string/=', value: ['Widget'] }]) });
    assert.equal(api.status, 200);
    assert.equal(value(JSON.parse(api.text)), await scalar(count('PRODUCTS', ['=', field('PRODUCTS', 'CATEGORY'), 'Widget'])));
    assert.equal((await admin.post(`${base}/pdf`, {})).status, 400);
    const pivotCsv = await admin.post(`${base}/csv`, { pivot_results: true });
    assert.equal(pivotCsv.status, 200);
  });

  test('pivot: the pivot endpoint adds the pivot-grouping rows', async () => {
    const r = await admin.post(`/api/dashboard/pivot/${dashboard.id}/dashcard/${dc.byCategoryAndVendor.id}/card/${dc.byCategoryAndVendor.card}/query`, { parameters: [] });
    assert.equal(r.status, 202);
    assert.equal(r.body.status, 'completed');
    assert.ok(r.body.data.cols.some((c: any) => c.name === 'pivot-grouping'));
  });

  test('the caller’s last used values come back on GET; param_fields and param_values describe the wiring', async () => {
    await run('products', [{ id: 'cat', type: 'string/=', value: ['Gizmo'] }, { id: 'price', type: 'number/>=', value: null }]);
    const got = await getDashboard(admin, dashboard.id);
    assert.deepEqual(got.last_used_param_values.cat, ['Gizmo']);
    assert.equal(got.last_used_param_values.price, null);
    const { client: other } = await createUserClient(server(), admin);
    assert.deepEqual((await getDashboard(other, dashboard.id)).last_used_param_values, {}, 'per user');
    const catFields = got.param_fields.cat.map((f: any) => f.id).sort();
    assert.deepEqual(catFields, [sample.field('PRODUCTS', 'CATEGORY')], 'MBQL, implicit-join and field-filter targets on one field');
    const category = got.param_fields.cat[0];
    assert.equal(category.has_field_values, 'list');
    assert.equal(category.table_id, sample.table('PRODUCTS'));
    assert.ok(Array.isArray(category.dimensions));
    assert.deepEqual(got.param_fields.when.map((f: any) => f.id), [sample.field('ORDERS', 'CREATED_AT')]);
    assert.ok(!('price' in got.param_fields) || got.param_fields.price.every((f: any) => f.id === sample.field('PRODUCTS', 'PRICE')), 'variables add no fields');
    const values = got.param_values[String(sample.field('PRODUCTS', 'CATEGORY'))];
    assert.deepEqual(values.values.map((v: any[]) => v[0]).sort(), ['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
  });

  test('query_metadata lists what the cards read, once each', async () => {
    const md = (await admin.get(`/api/dashboard/${dashboard.id}/query_metadata`)).body;
    assert.deepEqual(md.databases.map((d: any) => d.id), [sample.id]);
    const tableIds = md.tables.map((t: any) => t.id);
    assert.ok(tableIds.includes(sample.table('PRODUCTS')));
    assert.ok(tableIds.includes(sample.table('ORDERS')));
    assert.equal(new Set(tableIds).size, tableIds.length);
    assert.ok(Array.isArray(md.fields) && Array.isArray(md.cards) && Array.isArray(md.dashboards));
  });

  test('a page load: every dashcard at once with one dashboard_load_id', async () => {
    const loadId = `load-${Date.now()}`;
    const requests = Object.entries(dc).map(([, { id, card: cardId }]) =>
      admin.post(`/api/dashboard/${dashboard.id}/dashcard/${id}/card/${cardId}/query`, { parameters: [], dashboard_load_id: loadId }),
    );
    const results = await Promise.all([...requests, ...requests.map(() => admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dc.products.id}/card/${dc.products.card}/query`, { dashboard_load_id: loadId }))]);
    for (const r of results) {
      assert.equal(r.status, 202);
      assert.equal(r.body.status, 'completed', JSON.stringify(r.body.error));
    }
  });

  test('a dashcard whose client went away is cancelled on the database', async () => {
    // a few seconds of work on SQLite (long enough to walk away from, short enough not to hold up the suite)
    const slow = await card('Slow', native('WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 8000000) SELECT COUNT(*) FROM r', {}), { result_metadata: [] });
    const d = await createDashboard(admin);
    const dashcard = (await putLayout(admin, d.id, [newDashcard(-1, slow.id)])).dashcards[0];
    const controller = new AbortController();
    const request = fetch(`${server().url}/api/dashboard/${d.id}/dashcard/${dashcard.id}/card/${slow.id}/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Metabase-Session': admin.session! },
      body: JSON.stringify({ parameters: [] }),
      signal: controller.signal,
    }).catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 500)); // let the query start, then walk away
    controller.abort();
    assert.ok((await request) instanceof Error);
    const ctx = server().ctx;
    let logged: any;
    for (let i = 0; i < 100 && !logged; i++) {
      await flushExecutions(ctx);
      logged = await ctx.db.selectFrom('query_execution').selectAll().where('dashboard_id', '=', d.id).executeTakeFirst();
      if (!logged) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(logged, 'the query ended');
    assert.match(String(logged.error), /cancel/i);
    assert.equal(logged.card_id, slow.id);
    assert.equal(logged.context, 'dashboard');
  });

  test('permissions: the dashboard and the card must be readable', async () => {
    const secret = await createCollection(admin);
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
    const hiddenCard = await card('Hidden', count('PRODUCTS'), { collection_id: secret.id });
    const open = await createDashboard(admin);
    const layout = await putLayout(admin, open.id, [newDashcard(-1, hiddenCard.id)]);
    const { client: user } = await createUserClient(server(), admin);
    const r = await user.post(`/api/dashboard/${open.id}/dashcard/${layout.dashcards[0].id}/card/${hiddenCard.id}/query`, {});
    assert.equal(r.status, 403);
    const hiddenDashboard = await createDashboard(admin, { collection_id: secret.id });
    const l2 = await putLayout(admin, hiddenDashboard.id, [newDashcard(-1, dc.products.card)]);
    assert.equal((await user.post(`/api/dashboard/${hiddenDashboard.id}/dashcard/${l2.dashcards[0].id}/card/${dc.products.card}/query`, {})).status, 403);
    assert.equal((await user.get(`/api/dashboard/${hiddenDashboard.id}/query_metadata`)).status, 403);
    const ok = await run('products', [], user);
    assert.equal(ok.status, 'completed');
  });
});
