// Model indexes: a model of a real PostgreSQL warehouse indexed by its primary key and a text column, its records
// found by search as `indexed-entity` (only by those who may read the model), refreshed after the database's
// field-values scan, and gone with the index.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import { waitFor } from '../databases/helpers.js';
import { addWarehouse, tableModel, type Warehouse } from '../actions/fixtures.js';
import { callers, ok, type Callers } from './helpers.js';

forEachAppDb('model indexes', (server) => {
  let c: Callers;
  let warehouse: Warehouse;
  let model: any;
  let idRef: unknown;
  let nameRef: unknown;
  let privateCollection: any;

  const search = async (client: any, q: string) => ok(await client.get('/api/search', { query: { q, models: 'indexed-entity' } }), 'search').data;

  before(async () => {
    c = await callers(server());
    warehouse = await addWarehouse(c.admin, 'postgres', { enableActions: false });
    model = await tableModel(c.admin, warehouse, 'customers');
    idRef = model.result_metadata.find((m: any) => m.name === 'id').field_ref;
    nameRef = model.result_metadata.find((m: any) => m.name === 'name').field_ref;
  });
  after(async () => warehouse?.drop());

  test('indexing a model makes its records searchable, for those who may read the model', async () => {
    const index = ok(await c.admin.post('/api/model-index', { model_id: model.id, pk_ref: idRef, value_ref: nameRef }), 'create');
    assert.equal(index.model_id, model.id);
    assert.equal(index.state, 'indexed');
    assert.deepEqual(index.pk_ref, idRef);
    assert.deepEqual(index.value_ref, nameRef);
    assert.ok(index.indexed_at);
    assert.deepEqual(ok(await c.user.get('/api/model-index', { query: { model_id: model.id } }), 'list').map((i: any) => i.id), [index.id]);
    assert.equal(ok(await c.user.get(`/api/model-index/${index.id}`), 'get').id, index.id);

    const found = await search(c.user, 'grace');
    assert.equal(found.length, 1);
    assert.equal(found[0].model, 'indexed-entity');
    assert.equal(found[0].name, 'Grace');
    assert.equal(found[0].id, 2);
    assert.equal(found[0].model_id, model.id);
    assert.equal(found[0].model_name, model.name);
    assert.equal(found[0].model_index_id, index.id);
    assert.deepEqual(found[0].pk_ref, idRef);
    assert.equal(found[0].collection.id, 'root');
    assert.ok(ok(await c.user.get('/api/search', { query: { q: 'grace' } }), 'all kinds').data.some((d: any) => d.model === 'indexed-entity'), 'searched by default');

    // only those who may read the model find its records
    const hidden = (privateCollection = ok(await c.admin.post('/api/collection', { name: `Private ${Date.now()}` }), 'collection'));
    const graph = ok(await c.admin.get('/api/collection/graph'), 'graph');
    ok(await c.admin.put('/api/collection/graph', { revision: graph.revision, groups: Object.fromEntries(Object.keys(graph.groups).filter((g) => g !== '2').map((g) => [g, { [hidden.id]: 'none' }])) }), 'graph');
    ok(await c.admin.put(`/api/card/${model.id}`, { collection_id: hidden.id }), 'move');
    assert.deepEqual(await search(c.user, 'grace'), []);
    assert.equal((await search(c.admin, 'grace')).length, 1);
    assert.equal((await c.user.get(`/api/model-index/${index.id}`)).status, 403);
    ok(await c.admin.put(`/api/card/${model.id}`, { collection_id: null }), 'move back');
  });

  test('the index follows the data after the database’s field values are scanned', async () => {
    await warehouse.query("INSERT INTO customers (name, email) VALUES ('Hopper', 'hopper@example.com')");
    await warehouse.query("UPDATE customers SET name = 'Ada Lovelace' WHERE name = 'Ada'");
    assert.deepEqual(await search(c.admin, 'hopper'), []);
    ok(await c.admin.post(`/api/database/${warehouse.id}/rescan_values`), 'scan');
    await waitFor('the refreshed index', async () => (await search(c.admin, 'hopper')).length === 1);
    assert.deepEqual((await search(c.admin, 'ada')).map((d: any) => d.name), ['Ada Lovelace']);
    const [index] = ok(await c.admin.get('/api/model-index', { query: { model_id: model.id } }), 'list');
    assert.ok(index.generation >= 2);
  });

  test('Metabase’s checks: a model, its own primary key and text columns, curators only; deleting ends it', async () => {
    const question = ok(
      await c.admin.post('/api/card', { name: 'Not a model', display: 'table', visualization_settings: {}, dataset_query: model.dataset_query }),
      'question',
    );
    const notModel = await c.admin.post('/api/model-index', { model_id: question.id, pk_ref: idRef, value_ref: nameRef });
    assert.equal(notModel.status, 400);
    assert.equal(notModel.text, `Question ${question.id} is not a model`);
    assert.equal((await c.admin.get('/api/model-index', { query: { model_id: question.id } })).status, 400);
    const wrongPk = await c.admin.post('/api/model-index', { model_id: model.id, pk_ref: nameRef, value_ref: nameRef });
    assert.equal(wrongPk.status, 400);
    assert.equal(wrongPk.text, 'Field is not of :semantic_type `:type/PK`');
    const notText = await c.admin.post('/api/model-index', { model_id: model.id, pk_ref: idRef, value_ref: idRef });
    assert.equal(notText.text, 'Field is not of :effective_type `:type/Text`');
    const unknown = await c.admin.post('/api/model-index', { model_id: model.id, pk_ref: ['field', 999999, null], value_ref: nameRef });
    assert.equal(unknown.status, 400);
    assert.match(unknown.text, /^Could not identify field by ref/);
    assert.equal((await c.admin.post('/api/model-index', { model_id: model.id, pk_ref: 'id' })).status, 400);
    assert.equal((await c.admin.post('/api/model-index', { model_id: 999999, pk_ref: idRef, value_ref: nameRef })).status, 404);
    assert.equal((await c.admin.get('/api/model-index')).status, 400);
    assert.equal((await c.admin.get('/api/model-index/999999')).status, 404);

    const [index] = ok(await c.admin.get('/api/model-index', { query: { model_id: model.id } }), 'list');
    ok(await c.admin.put(`/api/card/${model.id}`, { collection_id: privateCollection.id }), 'hide the model');
    assert.equal((await c.user.post('/api/model-index', { model_id: model.id, pk_ref: idRef, value_ref: nameRef })).status, 403, 'only its curators');
    assert.equal((await c.user.delete(`/api/model-index/${index.id}`)).status, 403);
    ok(await c.admin.put(`/api/card/${model.id}`, { collection_id: null }), 'back');
    assert.equal((await c.admin.delete(`/api/model-index/${index.id}`)).status, 204);
    assert.deepEqual(await search(c.admin, 'grace'), []);
    assert.equal((await c.admin.get(`/api/model-index/${index.id}`)).status, 404);
  });
});
