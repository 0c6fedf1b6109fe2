// Running cards against the Sample Database: results, parameters, exports, pivot, parameter values, query
// metadata, nested questions on cards and models, snippets, result metadata computed on save.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from './sample.js';
import { createCollection, uniqueName } from './fixtures.js';

const CATEGORIES = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'];

forEachAppDb('card queries', (server) => {
  let admin: Client;
  let sample: Sample;

  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
  });

  const byCategory = () => ({
    database: sample.id,
    type: 'query',
    query: {
      'source-table': sample.table('PRODUCTS'),
      aggregation: [['count']],
      breakout: [['field', sample.field('PRODUCTS', 'CATEGORY'), null]],
    },
  });

  async function card(fields: Record<string, unknown>) {
    const response = await admin.post('/api/card', { name: uniqueName('Q'), display: 'table', visualization_settings: {}, ...fields });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  test('result_metadata is computed when not given, and kept when given', async () => {
    const c = await card({ dataset_query: byCategory(), display: 'bar' });
    assert.ok(Array.isArray(c.result_metadata));
    assert.deepEqual(c.result_metadata.map((m: any) => m.name), ['CATEGORY', 'count']);
    assert.equal(c.result_metadata[1].base_type.startsWith('type/'), true);
    const given = [{ name: 'CATEGORY', display_name: 'Kind', base_type: 'type/Text' }, { name: 'count', display_name: 'How many', base_type: 'type/Integer' }];
    const model = await card({ dataset_query: byCategory(), type: 'model', result_metadata: given });
    assert.deepEqual(model.result_metadata.map((m: any) => m.display_name), ['Kind', 'How many']);
    const changed = (await admin.put(`/api/card/${c.id}`, { dataset_query: { ...byCategory(), query: { ...byCategory().query, limit: 2 } } })).body;
    assert.deepEqual(changed.result_metadata.map((m: any) => m.name), ['CATEGORY', 'count'], 'recomputed when the query changes');
  });

  test("editing a model's query keeps the user's metadata edits, column by column", async () => {
    const model = await card({ type: 'model', dataset_query: byCategory() });
    const edited = model.result_metadata.map((m: any) =>
      m.name === 'CATEGORY' ? { ...m, display_name: 'Kind', description: 'what it is', semantic_type: 'type/Category' } : { ...m, display_name: 'How many' },
    );
    assert.equal((await admin.put(`/api/card/${model.id}`, { result_metadata: edited })).status, 200);
    const withVendor = {
      ...byCategory(),
      query: { ...byCategory().query, breakout: [...byCategory().query.breakout, ['field', sample.field('PRODUCTS', 'VENDOR'), null]] },
    };
    const changed = (await admin.put(`/api/card/${model.id}`, { dataset_query: withVendor })).body;
    const byName = Object.fromEntries(changed.result_metadata.map((m: any) => [m.name, m]));
    assert.deepEqual(Object.keys(byName).sort(), ['CATEGORY', 'VENDOR', 'count']);
    assert.equal(byName.CATEGORY.display_name, 'Kind');
    assert.equal(byName.CATEGORY.description, 'what it is');
    assert.equal(byName.CATEGORY.semantic_type, 'type/Category');
    assert.equal(byName.count.display_name, 'How many');
    assert.equal(byName.VENDOR.display_name, 'Vendor', 'a new column keeps what was computed');
    // a saved question's metadata is simply recomputed
    const question = await card({ dataset_query: byCategory() });
    await admin.put(`/api/card/${question.id}`, { result_metadata: question.result_metadata.map((m: any) => ({ ...m, display_name: 'X' })) });
    const recomputed = (await admin.put(`/api/card/${question.id}`, { dataset_query: withVendor })).body;
    assert.ok(recomputed.result_metadata.every((m: any) => m.display_name !== 'X'), 'recomputed');
  });

  test('POST /api/card/:id/query answers 202 with rows; last_used_at and average_query_time follow', async () => {
    const c = await card({ dataset_query: byCategory() });
    const result = await admin.post(`/api/card/${c.id}/query`);
    assert.equal(result.status, 202);
    assert.equal(result.body.status, 'completed');
    assert.deepEqual(result.body.data.rows.map((r: any[]) => r[0]), CATEGORIES);
    assert.equal(result.body.context, 'question');
    assert.equal(result.body.row_count, 4);
    const after = (await admin.get(`/api/card/${c.id}`, { query: { ignore_view: 'true' } })).body;
    assert.ok(after.last_used_at);
    assert.equal(typeof after.average_query_time, 'number');
    assert.ok(after.last_query_start);
    assert.equal((await admin.post('/api/card/987654/query')).status, 404);
  });

  test('native card with a variable: parameters sent, card defaults, required values', async () => {
    const tag = { id: 'cat-tag', name: 'category', 'display-name': 'Category', type: 'text' };
    const c = await card({
      dataset_query: {
        database: sample.id,
        type: 'native',
        native: { query: 'SELECT COUNT(*) AS n FROM PRODUCTS WHERE CATEGORY = {{category}}', 'template-tags': { category: tag } },
      },
      parameters: [{ id: 'cat-tag', type: 'category', target: ['variable', ['template-tag', 'category']], name: 'Category', slug: 'category', default: 'Gizmo' }],
    });
    assert.equal(c.query_type, 'native');
    const widgets = await admin.post(`/api/card/${c.id}/query`, { parameters: [{ id: 'cat-tag', type: 'category', value: 'Widget' }] });
    assert.equal(widgets.status, 202);
    const gizmos = await admin.post(`/api/card/${c.id}/query`);
    assert.equal(gizmos.body.status, 'completed');
    const total = await admin.post(`/api/card/${c.id}/query`, { parameters: [{ id: 'cat-tag', type: 'category', target: ['variable', ['template-tag', 'category']], value: ['Widget'] }] });
    assert.equal(total.body.data.rows[0][0], widgets.body.data.rows[0][0]);
    assert.notEqual(widgets.body.data.rows[0][0], gizmos.body.data.rows[0][0], 'the default applies when nothing is sent');
    // a parameter sent by target alone (no id) replaces the default of the card's parameter with that target
    const byTarget = await admin.post(`/api/card/${c.id}/query`, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 'category']], value: 'Widget' }] });
    assert.equal(byTarget.body.status, 'completed', JSON.stringify(byTarget.body.error));
    assert.equal(byTarget.body.data.rows[0][0], widgets.body.data.rows[0][0]);
    const bad = await admin.post(`/api/card/${c.id}/query`, { parameters: 'x' });
    assert.equal(bad.status, 400);
  });

  test('exports: csv, json, xlsx and api files named after the card', async () => {
    const c = await card({ name: 'Products by Category!', dataset_query: byCategory() });
    const csv = await admin.post(`/api/card/${c.id}/query/csv`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    assert.match(csv.headers.get('content-disposition') ?? '', /attachment; filename="products_by_category_.*\.csv"/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines.length, 5);
    assert.match(lines[1], /^Doohickey,\d+$/);
    const json = await admin.post(`/api/card/${c.id}/query/json`);
    assert.equal(json.status, 200);
    const parsed = JSON.parse(json.text);
    assert.equal(parsed.length, 4);
    assert.equal(Object.keys(parsed[0]).length, 2);
    const xlsx = await admin.post(`/api/card/${c.id}/query/xlsx`);
    assert.equal(xlsx.status, 200);
    assert.match(xlsx.headers.get('content-type') ?? '', /spreadsheetml/);
    const api = await admin.post(`/api/card/${c.id}/query/api`);
    assert.equal(api.status, 200);
    assert.equal(JSON.parse(api.text).data.rows.length, 4);
    assert.equal((await admin.post(`/api/card/${c.id}/query/pdf`)).status, 400);
    const form = await admin.post(`/api/card/${c.id}/query/csv`, undefined, {
      raw: `parameters=${encodeURIComponent('[]')}&format_rows=false`,
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(form.status, 200);
    const badParams = await admin.post(`/api/card/${c.id}/query/csv`, undefined, { raw: 'parameters=nope', contentType: 'application/x-www-form-urlencoded' });
    assert.equal(badParams.status, 400);
  });

  test('pivot query adds the pivot-grouping rows', async () => {
    const c = await card({
      display: 'pivot',
      dataset_query: {
        database: sample.id,
        type: 'query',
        query: {
          'source-table': sample.table('PRODUCTS'),
          aggregation: [['count']],
          breakout: [['field', sample.field('PRODUCTS', 'CATEGORY'), null], ['field', sample.field('PRODUCTS', 'VENDOR'), null]],
        },
      },
    });
    const result = await admin.post(`/api/card/pivot/${c.id}/query`);
    assert.equal(result.status, 202);
    assert.equal(result.body.status, 'completed');
    assert.ok(result.body.data.cols.some((col: any) => col.name === 'pivot-grouping'));
  });

  test('parameter values: static list with search, field values, card source, unknown key', async () => {
    const c = await card({
      dataset_query: byCategory(),
      parameters: [
        { id: 'fruit', name: 'Fruit', slug: 'fruit', type: 'category', values_source_type: 'static-list', values_source_config: { values: ['apple', 'banana', 'cherry'] } },
        { id: 'cat', name: 'Category', slug: 'cat', type: 'category', target: ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), null]] },
      ],
    });
    const fruit = (await admin.get(`/api/card/${c.id}/params/fruit/values`)).body;
    assert.deepEqual(fruit, { values: [['apple'], ['banana'], ['cherry']], has_more_values: false });
    const an = (await admin.get(`/api/card/${c.id}/params/fruit/search/an`)).body;
    assert.deepEqual(an.values, [['banana']]);
    const categories = (await admin.get(`/api/card/${c.id}/params/cat/values`)).body;
    assert.deepEqual(categories.values.map((v: any[]) => v[0]).sort(), CATEGORIES);
    assert.equal(categories.has_more_values, false);
    const giz = (await admin.get(`/api/card/${c.id}/params/cat/search/giz`)).body;
    assert.deepEqual(giz.values.map((v: any[]) => v[0]), ['Gizmo']);
    const source = await card({ dataset_query: byCategory() });
    const fromCard = await card({
      dataset_query: byCategory(),
      parameters: [{ id: 'src', name: 'Src', slug: 'src', type: 'category', values_source_type: 'card', values_source_config: { card_id: source.id, value_field: ['field', 'CATEGORY', { 'base-type': 'type/Text' }] } }],
    });
    const viaCard = (await admin.get(`/api/card/${fromCard.id}/params/src/values`)).body;
    assert.deepEqual(viaCard.values.map((v: any[]) => v[0]).sort(), CATEGORIES);
    const unknown = await admin.get(`/api/card/${c.id}/params/nope/values`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.text, 'Card does not have a parameter with the ID "nope"');
  });

  test('parameter values stop at 1,000 with has_more_values (a field, a card source); fewer say false', async () => {
    const email = ['field', sample.field('PEOPLE', 'EMAIL'), null];
    const people = await card({ type: 'model', dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PEOPLE') } } });
    const c = await card({
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PEOPLE') } },
      parameters: [
        { id: 'email', name: 'Email', slug: 'email', type: 'string/=', target: ['dimension', email] },
        { id: 'src', name: 'Src', slug: 'src', type: 'string/=', values_source_type: 'card', values_source_config: { card_id: people.id, value_field: ['field', 'EMAIL', { 'base-type': 'type/Text' }] } },
      ],
    });
    for (const key of ['email', 'src']) {
      const all = (await admin.get(`/api/card/${c.id}/params/${key}/values`)).body;
      assert.equal(all.values.length, 1000, key);
      assert.equal(all.has_more_values, true, key);
      const some = (await admin.get(`/api/card/${c.id}/params/${key}/search/${encodeURIComponent('hotmail')}`)).body;
      assert.ok(some.values.length > 0 && some.values.length < 1000, `${key}: ${some.values.length}`);
      assert.equal(some.has_more_values, false, key);
      assert.ok(some.values.every((v: any[]) => String(v[0]).includes('hotmail')), key);
    }
  });

  test('series: compatible cards judged on the metadata computed at save time', async () => {
    const byMonth = (aggregation: unknown[]) => ({
      database: sample.id,
      type: 'query',
      query: { 'source-table': sample.table('ORDERS'), aggregation: [aggregation], breakout: [['field', sample.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]] },
    });
    const tag = uniqueName('computed series');
    const base = await card({ name: `${tag} base`, display: 'line', dataset_query: byMonth(['count']) });
    assert.deepEqual(base.result_metadata.map((m: any) => m.field_ref[0]), ['field', 'aggregation'], 'computed (no source key, as Metabase saves it)');
    const revenue = await card({ name: `${tag} revenue`, display: 'bar', dataset_query: byMonth(['sum', ['field', sample.field('ORDERS', 'TOTAL'), null]]) });
    const byCategoryBar = await card({ name: `${tag} by category`, display: 'bar', dataset_query: byCategory() });
    const scalar = await card({ name: `${tag} scalar`, display: 'scalar', dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), aggregation: [['count']] } } });
    // the same in MBQL 5, as the web app saves it
    const u = (n: number) => ({ 'lib/uuid': `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` });
    const quantity = await card({
      name: `${tag} quantity`,
      display: 'area',
      dataset_query: {
        'lib/type': 'mbql/query',
        database: sample.id,
        stages: [
          {
            'lib/type': 'mbql.stage/mbql',
            'source-table': sample.table('ORDERS'),
            aggregation: [['sum', u(1), ['field', u(2), sample.field('ORDERS', 'QUANTITY')]]],
            breakout: [['field', { ...u(3), 'temporal-unit': 'month' }, sample.field('ORDERS', 'CREATED_AT')]],
          },
        ],
      },
    });
    assert.equal(quantity.query_type, 'query');
    const found = (await admin.get(`/api/card/${base.id}/series`, { query: { query: tag } })).body.map((x: any) => x.id);
    assert.deepEqual(found, [quantity.id, revenue.id], 'a temporal breakout and a numeric metric match; a text breakout and a scalar do not');
    assert.ok(!found.includes(byCategoryBar.id) && !found.includes(scalar.id), 'incompatible ones are left out');
  });

  test('query_metadata lists the database, tables and fields', async () => {
    const c = await card({ dataset_query: byCategory() });
    const md = (await admin.get(`/api/card/${c.id}/query_metadata`)).body;
    assert.ok(md.databases.some((d: any) => d.id === sample.id));
    assert.ok(md.tables.some((t: any) => t.id === sample.table('PRODUCTS')));
    assert.ok(Array.isArray(md.fields));
    const model = await card({ dataset_query: byCategory(), type: 'model' });
    const modelMd = (await admin.get(`/api/card/${model.id}/query_metadata`)).body;
    assert.ok(modelMd.tables.some((t: any) => t.id === `card__${model.id}`), 'a model is also described as a table');
  });

  test('nested questions: on a saved question, on a model, {{#N}} and snippets in native queries', async () => {
    const model = await card({
      type: 'model',
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS') } },
    });
    const onModel = await card({
      dataset_query: {
        database: -1337,
        type: 'query',
        query: { 'source-table': `card__${model.id}`, aggregation: [['count']] },
      },
    });
    assert.equal(onModel.database_id, sample.id);
    const counted = await admin.post(`/api/card/${onModel.id}/query`);
    assert.equal(counted.body.status, 'completed');
    assert.equal(counted.body.data.rows[0][0], 200);
    const onQuestion = await card({
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': `card__${onModel.id}` } },
    });
    assert.deepEqual((await admin.post(`/api/card/${onQuestion.id}/query`)).body.data.rows, [[200]]);

    const snippet = (await admin.post('/api/native-query-snippet', { name: uniqueName('gizmos').replace(/\s/g, '_'), content: "CATEGORY = 'Gizmo'" })).body;
    const tagName = `snippet: ${snippet.name}`;
    const cardTag = `#${model.id}`;
    const nativeCard = await card({
      dataset_query: {
        database: sample.id,
        type: 'native',
        native: {
          query: `SELECT COUNT(*) FROM {{${cardTag}}} AS m WHERE {{${tagName}}}`,
          'template-tags': {
            [cardTag]: { id: 'c1', name: cardTag, 'display-name': 'Model', type: 'card', 'card-id': model.id },
            [tagName]: { id: 's1', name: tagName, 'display-name': 'Snippet', type: 'snippet', 'snippet-name': snippet.name, 'snippet-id': snippet.id },
          },
        },
      },
    });
    const result = await admin.post(`/api/card/${nativeCard.id}/query`);
    assert.equal(result.body.status, 'completed', JSON.stringify(result.body.error));
    assert.ok(result.body.data.rows[0][0] > 0 && result.body.data.rows[0][0] < 200);
  });

  test('a user without read access to the card gets 403 on queries, exports and values', async () => {
    const c = await createCollection(admin);
    const secret = await card({ dataset_query: byCategory(), collection_id: c.id });
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [c.id]: 'none' } } });
    const { client } = await createUserClient(server(), admin);
    assert.equal((await client.post(`/api/card/${secret.id}/query`)).status, 403);
    assert.equal((await client.post(`/api/card/${secret.id}/query/csv`)).status, 403);
    assert.equal((await client.get(`/api/card/${secret.id}/query_metadata`)).status, 403);
    assert.equal((await client.get(`/api/card/${secret.id}/params/x/values`)).status, 403);
  });

  test('popular items: the cards run most, at most 5', async () => {
    const cards = [];
    for (let i = 0; i < 6; i++) cards.push(await card({ dataset_query: byCategory() }));
    for (let i = 0; i < 3; i++) await admin.post(`/api/card/${cards[0].id}/query`);
    for (const c of cards.slice(1)) await admin.post(`/api/card/${c.id}/query`);
    const { client } = await createUserClient(server(), admin);
    const body = (await client.get('/api/activity/popular_items')).body;
    assert.equal(body.popular_items.length, 5);
    assert.equal(body.popular_items[0].id, cards[0].id, 'run most often');
    assert.ok(body.popular_items.every((i: any) => i.model === 'card' && typeof i.name === 'string' && i.parent_collection));
  });
});
