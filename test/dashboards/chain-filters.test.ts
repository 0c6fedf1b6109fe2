// Dashboard filter values on the Sample Database: a filter's values narrowed by the other filters (PEOPLE.STATE by
// PEOPLE.SOURCE, PRODUCTS.CATEGORY by PEOPLE.STATE through ORDERS), search, the 1,000-value limit with
// has_more_values, static-list and card sources, and valid-filter-fields.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { createCollection, uniqueName } from '../cards/fixtures.js';
import { createDashboard, newDashcard, putLayout, setAllUsersCollectionPerms } from './fixtures.js';

forEachAppDb('dashboard filter values', (server) => {
  let admin: Client;
  let sample: Sample;
  let dashboard: any;

  const field = (table: string, name: string) => ['field', sample.field(table, name), null];

  /** Distinct values of a field under a filter, straight from the query engine (the baseline). */
  async function distinct(table: string, ref: unknown, filter?: unknown): Promise<unknown[]> {
    const r = await admin.post('/api/dataset', {
      database: sample.id,
      type: 'query',
      query: { 'source-table': sample.table(table), breakout: [ref], ...(filter ? { filter } : {}), limit: 5000 },
    });
    assert.equal(r.body.status, 'completed', JSON.stringify(r.body.error));
    return r.body.data.rows.map((row: unknown[]) => row[0]).filter((v: unknown) => v !== null);
  }

  async function values(key: string, query: Record<string, string | string[]> = {}, client: Client = admin) {
    const r = await client.get(`/api/dashboard/${dashboard.id}/params/${key}/values`, { query });
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
    const card = async (table: string) => {
      const r = await admin.post('/api/card', {
        name: uniqueName(table),
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table(table) } },
      });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const [people, orders, products] = [await card('PEOPLE'), await card('ORDERS'), await card('PRODUCTS')];
    const source = await card('PRODUCTS');
    const nativeCard = (
      await admin.post('/api/card', {
        name: uniqueName('Native'),
        display: 'table',
        visualization_settings: {},
        dataset_query: {
          database: sample.id,
          type: 'native',
          native: {
            query: 'SELECT * FROM PEOPLE WHERE {{state}}',
            'template-tags': { state: { id: 't-state', name: 'state', 'display-name': 'State', type: 'dimension', dimension: field('PEOPLE', 'STATE'), 'widget-type': 'location/state' } },
          },
        },
      })
    ).body;
    dashboard = await createDashboard(admin, {
      parameters: [
        { id: 'state', name: 'State', slug: 'state', type: 'location/state', sectionId: 'location' },
        { id: 'source', name: 'Source', slug: 'source', type: 'category', sectionId: 'string' },
        { id: 'category', name: 'Category', slug: 'category', type: 'category', sectionId: 'string' },
        { id: 'name', name: 'Name', slug: 'name', type: 'string/=', sectionId: 'string' },
        { id: 'created', name: 'Created', slug: 'created', type: 'date/all-options', sectionId: 'date' },
        { id: 'static', name: 'Fruit', slug: 'fruit', type: 'category', values_source_type: 'static-list', values_source_config: { values: ['apple', 'banana', ['cherry', 'Cherry!']] } },
        { id: 'fromcard', name: 'From card', slug: 'from_card', type: 'category', values_source_type: 'card', values_source_config: { card_id: source.id, value_field: ['field', 'CATEGORY', { 'base-type': 'type/Text' }] } },
        { id: 'unwired', name: 'Unwired', slug: 'unwired', type: 'category' },
        { id: 'person', name: 'Person', slug: 'person', type: 'id', sectionId: 'id' },
      ],
    });
    const m = (parameterId: string, cardId: number, target: unknown) => ({ parameter_id: parameterId, card_id: cardId, target });
    await putLayout(admin, dashboard.id, [
      newDashcard(-1, people.id, {
        parameter_mappings: [
          m('state', people.id, ['dimension', field('PEOPLE', 'STATE')]),
          m('source', people.id, ['dimension', field('PEOPLE', 'SOURCE')]),
          m('name', people.id, ['dimension', field('PEOPLE', 'NAME')]),
          m('person', people.id, ['dimension', field('PEOPLE', 'ID')]),
        ],
      }),
      newDashcard(-2, orders.id, {
        row: 4,
        parameter_mappings: [m('created', orders.id, ['dimension', field('ORDERS', 'CREATED_AT')])],
      }),
      newDashcard(-3, products.id, { row: 8, parameter_mappings: [m('category', products.id, ['dimension', field('PRODUCTS', 'CATEGORY')])] }),
      newDashcard(-4, nativeCard.id, { row: 12, parameter_mappings: [m('state', nativeCard.id, ['dimension', ['template-tag', 'state']])] }),
    ]);
  });

  test('without other filters: the field’s values (49 states), sorted', async () => {
    const all = await values('state');
    const states = all.values.map((v: unknown[]) => v[0]);
    assert.deepEqual(states, [...(await distinct('PEOPLE', field('PEOPLE', 'STATE')))].sort());
    assert.equal(states.length, 49);
    assert.equal(all.has_more_values, false);
    assert.ok(all.values.every((v: unknown[]) => v.length === 1));
  });

  test('chain filter: PEOPLE.STATE restricted by PEOPLE.SOURCE', async () => {
    for (const source of ['Facebook', 'Organic']) {
      const narrowed = (await values('state', { source })).values.map((v: unknown[]) => v[0]);
      const expected = await distinct('PEOPLE', field('PEOPLE', 'STATE'), ['=', field('PEOPLE', 'SOURCE'), source]);
      assert.deepEqual(narrowed, expected);
      assert.ok(narrowed.length > 0);
    }
    const both = (await values('state', { source: ['Facebook', 'Organic'] })).values.map((v: unknown[]) => v[0]);
    assert.deepEqual(both, await distinct('PEOPLE', field('PEOPLE', 'STATE'), ['=', field('PEOPLE', 'SOURCE'), 'Facebook', 'Organic']));
    // the other way round, and an unknown query key is ignored
    const sources = (await values('source', { state: 'RI', dashboard_load_id: 'x' })).values.map((v: unknown[]) => v[0]);
    assert.deepEqual(sources, await distinct('PEOPLE', field('PEOPLE', 'SOURCE'), ['=', field('PEOPLE', 'STATE'), 'RI']));
    assert.equal(sources.length, 1, 'one person lives in RI');
  });

  test('chain filter across tables: categories bought by people of a state, orders of a date range', async () => {
    const viaUser = (table: string, name: string) => ['field', sample.field(table, name), { 'source-field': sample.field('ORDERS', 'USER_ID') }];
    const viaProduct = ['field', sample.field('PRODUCTS', 'CATEGORY'), { 'source-field': sample.field('ORDERS', 'PRODUCT_ID') }];
    const categories = (await values('category', { state: 'RI' })).values.map((v: unknown[]) => v[0]);
    assert.deepEqual(categories, [...(await distinct('ORDERS', viaProduct, ['=', viaUser('PEOPLE', 'STATE'), 'RI']))].sort());
    // someone with a single order bought from a single category
    const fewest = await admin.post('/api/dataset', {
      database: sample.id,
      type: 'query',
      query: { 'source-table': sample.table('ORDERS'), aggregation: [['count']], breakout: [viaUser('PEOPLE', 'NAME')], 'order-by': [['asc', ['aggregation', 0]]], limit: 1 },
    });
    const [name, orders] = fewest.body.data.rows[0];
    assert.equal(orders, 1);
    const bought = (await values('category', { name })).values.map((v: unknown[]) => v[0]);
    assert.deepEqual(bought, await distinct('ORDERS', viaProduct, ['=', viaUser('PEOPLE', 'NAME'), name]));
    assert.equal(bought.length, 1);
    const inMarch = (await values('source', { created: '2025-03-01~2025-03-03' })).values.map((v: unknown[]) => v[0]);
    const expected = await distinct('ORDERS', ['field', sample.field('PEOPLE', 'SOURCE'), { 'source-field': sample.field('ORDERS', 'USER_ID') }], [
      'between',
      field('ORDERS', 'CREATED_AT'),
      '2025-03-01',
      '2025-03-03',
    ]);
    assert.deepEqual(inMarch, [...expected].sort());
    assert.ok(inMarch.length > 0);
  });

  test('search: values containing the text (case-insensitive), still narrowed by the other filters', async () => {
    const r = await admin.get(`/api/dashboard/${dashboard.id}/params/state/search/n`, { query: { source: 'Twitter' } });
    assert.equal(r.status, 200, r.text);
    const found = r.body.values.map((v: unknown[]) => v[0]);
    const twitter = await distinct('PEOPLE', field('PEOPLE', 'STATE'), ['=', field('PEOPLE', 'SOURCE'), 'Twitter']);
    assert.deepEqual(found, twitter.filter((s) => String(s).toLowerCase().includes('n')));
    const categories = (await admin.get(`/api/dashboard/${dashboard.id}/params/category/search/GIZ`)).body;
    assert.deepEqual(categories.values, [['Gizmo']]);
  });

  test('search on a number field runs in the database: every match, not only those among the first thousand', async () => {
    const search = async (text: string, query: Record<string, string> = {}) => {
      const r = await admin.get(`/api/dashboard/${dashboard.id}/params/person/search/${text}`, { query });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    /** PEOPLE ids whose digits contain `text`, straight from SQL. */
    const idsContaining = async (text: string, where = '1 = 1') => {
      const sql = `SELECT ID FROM PEOPLE WHERE CAST(ID AS TEXT) LIKE '%${text}%' AND ${where} ORDER BY ID`;
      const r = await admin.post('/api/dataset', { database: sample.id, type: 'native', native: { query: sql } });
      assert.equal(r.body.status, 'completed', JSON.stringify(r.body.error));
      return r.body.data.rows.map((row: number[]) => row[0]);
    };
    assert.deepEqual(await search('2499'), { values: [[2499]], has_more_values: false });
    const found = (await search('249')).values.map((v: unknown[]) => v[0]);
    assert.deepEqual(found, await idsContaining('249'));
    assert.ok(found.includes(249) && found.includes(2490));
    // narrowed by another filter as well
    const inTexas = (await search('1', { state: 'TX' })).values.map((v: unknown[]) => v[0]);
    assert.deepEqual(inTexas, await idsContaining('1', "STATE = 'TX'"));
    assert.ok(inTexas.length > 10);
    assert.deepEqual((await search('99999')).values, []);
  });

  test('at most 1,000 values with has_more_values; fewer once narrowed', async () => {
    const names = await values('name');
    assert.equal(names.values.length, 1000);
    assert.equal(names.has_more_values, true);
    const narrowed = await values('name', { state: 'TX' });
    assert.equal(narrowed.has_more_values, false);
    assert.ok(narrowed.values.length > 100 && narrowed.values.length < 1000);
    assert.deepEqual(
      narrowed.values.map((v: unknown[]) => v[0]),
      await distinct('PEOPLE', field('PEOPLE', 'NAME'), ['=', field('PEOPLE', 'STATE'), 'TX']),
    );
    const search = (await admin.get(`/api/dashboard/${dashboard.id}/params/name/search/a`)).body;
    assert.ok(search.values.length <= 1000);
    assert.ok(search.values.every((v: unknown[]) => String(v[0]).toLowerCase().includes('a')));
  });

  test('static-list and card sources; unknown and unwired parameters are 400', async () => {
    assert.deepEqual(await values('static'), { values: [['apple'], ['banana'], ['cherry', 'Cherry!']], has_more_values: false });
    assert.deepEqual((await admin.get(`/api/dashboard/${dashboard.id}/params/static/search/err`)).body.values, [['cherry', 'Cherry!']]);
    assert.deepEqual((await values('fromcard')).values.map((v: unknown[]) => v[0]).sort(), ['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    const unknown = await admin.get(`/api/dashboard/${dashboard.id}/params/nope/values`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.text, 'Dashboard does not have a parameter with the ID "nope".');
    const unwired = await admin.get(`/api/dashboard/${dashboard.id}/params/unwired/values`);
    assert.equal(unwired.status, 400);
    assert.equal((await admin.get('/api/dashboard/99999999/params/state/values')).status, 404);
  });

  test('valid-filter-fields: filtering fields joined to each filtered field', async () => {
    const state = sample.field('PEOPLE', 'STATE');
    const source = sample.field('PEOPLE', 'SOURCE');
    const category = sample.field('PRODUCTS', 'CATEGORY');
    const total = sample.field('ORDERS', 'TOTAL');
    const plan = sample.field('ACCOUNTS', 'PLAN');
    const r = await admin.get('/api/dashboard/params/valid-filter-fields', { query: { filtered: [state, plan], filtering: [source, category, total, plan] } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      [state]: [source, category, total].sort((a, b) => a - b),
      [plan]: [],
    });
    const single = await admin.get('/api/dashboard/params/valid-filter-fields', { query: { filtered: state } });
    assert.deepEqual(single.body, { [state]: [] });
    assert.equal((await admin.get('/api/dashboard/params/valid-filter-fields')).status, 400);
    assert.equal((await admin.get('/api/dashboard/params/valid-filter-fields', { query: { filtered: 99999999 } })).status, 404);
  });

  test('values need read access to the dashboard', async () => {
    const secret = await createCollection(admin);
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
    const hidden = await createDashboard(admin, { collection_id: secret.id, parameters: [{ id: 'x', type: 'category', name: 'X', slug: 'x' }] });
    const { client: user } = await createUserClient(server(), admin);
    assert.equal((await user.get(`/api/dashboard/${hidden.id}/params/x/values`)).status, 403);
    assert.equal((await values('source', {}, user)).values.length, 5);
  });
});
