// The assistant's endpoints on the Sample Database with no model configured (the offline engine): Metabase's card
// and SQL shapes, the card running through the normal query path, a clear 400 for a question it can't answer,
// validation, 404s, Metabase's 403 without native-query permission (and for a model in an unreadable collection),
// questions about a model, and feedback stored and listed for admins only.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';

forEachAppDb('assistant API (offline engine)', (server) => {
  let admin: Client;
  let native: Client;
  let builder: Client;
  let sample: Sample;
  let model: any;
  let hiddenModel: any;

  async function putGraph(groups: Record<string, unknown>) {
    const { revision } = (await admin.get('/api/permissions/graph')).body;
    const response = await admin.put('/api/permissions/graph', { revision, groups }, { query: { 'skip-graph': 'true' } });
    assert.equal(response.status, 200, response.text);
  }

  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
    const group = (await admin.post('/api/permissions/group', { name: uniqueName('SQL writers') })).body;
    const nativeUser = await createUserClient(server(), admin);
    assert.equal((await admin.post('/api/permissions/membership', { group_id: group.id, user_id: nativeUser.user.id })).status, 200);
    native = nativeUser.client;
    builder = (await createUserClient(server(), admin)).client;
    // All Users: the query builder only; the SQL writers: native SQL too
    await putGraph({ 1: { [sample.id]: { 'create-queries': 'query-builder' } }, [group.id]: { [sample.id]: { 'create-queries': 'query-builder-and-native' } } });

    const ordersQuery = { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS') } };
    const created = await admin.post('/api/card', { name: uniqueName('Orders model'), type: 'model', display: 'table', visualization_settings: {}, dataset_query: ordersQuery });
    assert.equal(created.status, 200, created.text);
    model = created.body;
    const privateCollection = (await admin.post('/api/collection', { name: uniqueName('Private') })).body;
    const cg = (await admin.get('/api/collection/graph')).body;
    assert.equal((await admin.put('/api/collection/graph', { revision: cg.revision, groups: { 1: { [privateCollection.id]: 'none' }, [group.id]: { [privateCollection.id]: 'none' } } })).status, 200);
    hiddenModel = (await admin.post('/api/card', { name: uniqueName('Hidden model'), type: 'model', display: 'table', visualization_settings: {}, dataset_query: ordersQuery, collection_id: privateCollection.id })).body;
  });

  const run = async (client: Client, datasetQuery: unknown) => {
    const r = await client.post('/api/dataset', datasetQuery);
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.status, 'completed', r.body.error);
    return r.body.data.rows as unknown[][];
  };

  test('a question about the database comes back as a native card that runs', async () => {
    const r = await native.post(`/api/assistant/database/${sample.id}`, { question: 'How many orders per category?' });
    assert.equal(r.status, 200, r.text);
    const { card } = r.body;
    assert.equal(card.dataset_query.type, 'native');
    assert.equal(card.dataset_query.database, sample.id);
    assert.deepEqual(card.dataset_query.native['template-tags'], {});
    assert.match(card.dataset_query.native.query, /GROUP BY/i);
    assert.equal(card.display, 'bar');
    assert.equal(typeof card.name, 'string');
    assert.deepEqual(card.visualization_settings['graph.dimensions'], ['CATEGORY']);
    assert.deepEqual(r.body.prompt_template_versions, ['quarry_offline:0001']);
    assert.equal(r.body['bot-sql'], card.dataset_query.native.query);
    const rows = await run(native, card.dataset_query);
    assert.deepEqual(rows.map((x) => x[0]), ['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    assert.equal(rows.reduce((sum, x) => sum + Number(x[1]), 0), 18760);
  });

  test('/query answers raw SQL for the native editor', async () => {
    const r = await native.post(`/api/assistant/database/${sample.id}/query`, { question: 'total revenue by month' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body).sort(), ['prompt_template_versions', 'sql']);
    assert.match(r.body.sql, /SUM\(/);
    const rows = await run(native, { database: sample.id, type: 'native', native: { query: r.body.sql } });
    assert.ok(rows.length >= 40, `${rows.length} months`);
  });

  test('a question it cannot answer is a clear 400, not a guess', async () => {
    for (const question of ['What is the weather in Paris tomorrow?', 'Show revenue by planet']) {
      const r = await native.post(`/api/assistant/database/${sample.id}`, { question });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.message, `Query '${question}' didn't find a good match to your data. Perhaps try a query that mentions the model name or columns more specifically.`);
      assert.match(r.body.reason, /No language model is configured/);
    }
    assert.match((await native.post(`/api/assistant/database/${sample.id}`, { question: 'Show revenue by planet' })).body.reason, /"planet"/);
  });

  test('validation, missing things and permissions', async () => {
    for (const body of [{}, { question: '' }, { question: '   ' }, { question: 42 }]) {
      const r = await native.post(`/api/assistant/database/${sample.id}`, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.errors.question, 'value must be a non-blank string.');
    }
    assert.equal((await native.post('/api/assistant/database/abc', { question: 'how many orders' })).status, 404);
    assert.equal((await native.post('/api/assistant/database/999999', { question: 'how many orders' })).status, 404);
    assert.equal((await native.post('/api/assistant/model/999999', { question: 'how many orders' })).status, 404);
    // a table is not a model
    assert.equal((await native.post(`/api/assistant/model/${sample.table('ORDERS')}`, { question: 'how many orders' })).status, 404);
    const plain = (await admin.post('/api/card', { name: uniqueName('Plain question'), display: 'table', visualization_settings: {}, dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS') } } })).body;
    assert.equal((await native.post(`/api/assistant/model/${plain.id}`, { question: 'how many orders' })).status, 404);
    // without native-query permission: Metabase's 403
    for (const path of [`/api/assistant/database/${sample.id}`, `/api/assistant/database/${sample.id}/query`, `/api/assistant/model/${model.id}`]) {
      const r = await builder.post(path, { question: 'how many orders' });
      assert.equal(r.status, 403, path);
      assert.equal(r.text, "You don't have permissions to do that.");
    }
    assert.equal((await native.post(`/api/assistant/model/${hiddenModel.id}`, { question: 'how many orders' })).status, 403);
    assert.equal((await new (admin.constructor as any)(admin.baseUrl).post(`/api/assistant/database/${sample.id}`, { question: 'how many orders' })).status, 401);
  });

  test('a question about a model reads the model', async () => {
    const r = await native.post(`/api/assistant/model/${model.id}`, { question: 'total by year' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.card.display, 'line');
    const rows = await run(native, r.body.card.dataset_query);
    const expected = await run(admin, { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), aggregation: [['sum', ['field', sample.field('ORDERS', 'TOTAL'), null]]], breakout: [['field', sample.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'year' }]] } });
    assert.deepEqual(rows.map((x) => Math.round(Number(x[1]))), expected.map((x) => Math.round(Number(x[1]))));
    const count = await native.post(`/api/assistant/model/${model.id}`, { question: 'how many rows have a discount?' });
    assert.equal(count.status, 200, count.text);
    assert.deepEqual(await run(native, count.body.card.dataset_query), [[1935]]);
  });

  test('feedback is stored and admins read it', async () => {
    const body = { entity_type: 'database', prompt: 'how many orders', sql: 'SELECT COUNT(*) FROM ORDERS', feedback_type: 'great', prompt_template_versions: ['quarry_offline:0001'], message: 'spot on' };
    const r = await native.post('/api/assistant/feedback', body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.message, 'Thanks for your feedback');
    assert.equal(r.body.feedback.feedback_type, 'great');
    assert.equal(r.body.feedback.body.message, 'spot on');
    assert.equal((await native.post('/api/assistant/feedback', { feedback_type: 5 })).status, 400);
    assert.equal((await native.post('/api/assistant/feedback', { prompt_template_versions: 'x' })).status, 400);
    assert.equal((await native.post('/api/assistant/feedback', [1, 2])).status, 400);
    assert.equal((await native.get('/api/assistant/feedback')).status, 403);
    const list = await admin.get('/api/assistant/feedback');
    assert.equal(list.status, 200);
    const mine = list.body.data.find((f: any) => f.id === r.body.feedback.id);
    assert.equal(mine.prompt, 'how many orders');
    assert.equal(mine.sql, 'SELECT COUNT(*) FROM ORDERS');
    assert.deepEqual(mine.prompt_template_versions, ['quarry_offline:0001']);
    assert.ok(list.body.total >= 1);
  });
});
