// Actions (spec §4.1): creating, reading, changing and deleting query, implicit and HTTP actions on models; running
// them against real PostgreSQL and MariaDB warehouses and checking the rows they wrote; Metabase's validation and
// constraint messages; who may see, change and run them; action buttons on dashboards.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { addWarehouse, renameAction, tableModel, type Warehouse, type WarehouseEngine } from './fixtures.js';

forEachAppDb('actions', (server) => {
  let admin: Client;
  const warehouses: Warehouse[] = [];

  before(async () => {
    admin = await setupAdmin(server());
  });
  after(async () => {
    for (const w of warehouses) await w.drop().catch(() => {});
  });

  async function warehouse(engine: WarehouseEngine, options: { enableActions?: boolean } = {}) {
    const w = await addWarehouse(admin, engine, options);
    warehouses.push(w);
    return w;
  }

  async function createAction(body: Record<string, unknown>, client: Client = admin) {
    const response = await client.post('/api/action', body);
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  for (const engine of ['postgres', 'mysql'] as WarehouseEngine[]) {
    describe(`running actions on ${engine}`, () => {
      let w: Warehouse;
      let model: any;

      before(async () => {
        w = await warehouse(engine);
        model = await tableModel(admin, w, 'customers');
      });

      test('a query action fills its tags with bound values and reports the rows it changed', async () => {
        const action = await createAction(renameAction(w, model.id));
        assert.equal(action.type, 'query');
        assert.equal(action.database_id, w.id);
        const run = await admin.post(`/api/action/${action.id}/execute`, { parameters: { 'tag-id': 1, name: 'Ada Lovelace' } });
        assert.equal(run.status, 200, run.text);
        assert.deepEqual(run.body, { 'rows-affected': 1 });
        assert.deepEqual(await w.query('SELECT name FROM customers WHERE id = 1'), [{ name: 'Ada Lovelace' }]);
        // a value that looks like SQL is stored as text, nothing more
        const hostile = "x'; DELETE FROM customers; --";
        assert.deepEqual((await admin.post(`/api/action/${action.id}/execute`, { parameters: { id: 2, name: hostile } })).body, { 'rows-affected': 1 });
        assert.deepEqual(await w.query('SELECT id, name FROM customers ORDER BY id'), [{ id: 1, name: 'Ada Lovelace' }, { id: 2, name: hostile }]);
        // nothing matches: nothing changes
        assert.deepEqual((await admin.post(`/api/action/${action.id}/execute`, { parameters: { id: 999, name: 'nobody' } })).body, { 'rows-affected': 0 });
      });

      test('a query action refuses unknown parameters and asks for missing ones', async () => {
        const action = await createAction(renameAction(w, model.id));
        const unknown = await admin.post(`/api/action/${action.id}/execute`, { parameters: { id: 1, name: 'x', colour: 'red' } });
        assert.equal(unknown.status, 400);
        assert.match(unknown.body.message, /^No destination parameter found for id "colour"\. Found: #\{"tag-id" "tag-name"\}$/);
        const missing = await admin.post(`/api/action/${action.id}/execute`, { parameters: { id: 1 } });
        assert.equal(missing.status, 400);
        assert.equal(missing.body.message, "You'll need to pick a value for 'Name' before this query can run.");
        const failing = await createAction(renameAction(w, model.id, {
          dataset_query: { database: w.id, type: 'native', native: { query: 'UPDATE no_such_table SET x = 1', 'template-tags': {} } },
          parameters: [],
        }));
        const broken = await admin.post(`/api/action/${failing.id}/execute`, { parameters: {} });
        assert.equal(broken.status, 400);
        assert.match(broken.body.message, /no_such_table/);
      });

      test('implicit actions create, update and delete one row of the model table', async () => {
        const create = await createAction({ name: 'Create customer', type: 'implicit', kind: 'row/create', model_id: model.id });
        assert.equal(create.kind, 'row/create');
        assert.deepEqual(create.parameters.map((p: any) => p.id), ['name', 'email', 'score', 'joined'], 'the auto-increment key is not asked for');
        assert.deepEqual(create.parameters.find((p: any) => p.id === 'name'), {
          id: 'name', target: ['dimension', ['field', w.fields['customers.name'], null]], type: 'type/Text', 'display-name': 'Name', slug: 'name', required: true, 'is-auto-increment': false,
        });
        const created = await admin.post(`/api/action/${create.id}/execute`, { parameters: { name: 'Linus', email: 'linus@example.com', score: 7, joined: '2024-03-04' } });
        assert.equal(created.status, 200, created.text);
        const row = created.body['created-row'];
        assert.equal(row.name, 'Linus');
        assert.equal(row.score, 7);
        assert.equal(row.joined, '2024-03-04');
        assert.ok(Number.isInteger(row.id));
        assert.equal((await w.query(`SELECT name FROM customers WHERE id = ${Number(row.id)}`))[0].name, 'Linus');

        const update = await createAction({ name: 'Update customer', type: 'implicit', kind: 'row/update', model_id: model.id });
        assert.ok(update.parameters.find((p: any) => p.id === 'id').required, 'the key picks the row');
        const prefill = await admin.get(`/api/action/${update.id}/execute`, { query: { parameters: JSON.stringify({ id: row.id }) } });
        assert.equal(prefill.status, 200, prefill.text);
        assert.deepEqual(prefill.body, { id: row.id, name: 'Linus', email: 'linus@example.com', score: 7, joined: '2024-03-04' });
        const updated = await admin.post(`/api/action/${update.id}/execute`, { parameters: { id: row.id, score: 9, email: null } });
        assert.deepEqual(updated.body, { 'rows-updated': [1] });
        assert.deepEqual(await w.query(`SELECT score, email FROM customers WHERE id = ${Number(row.id)}`), [{ score: 9, email: 'linus@example.com' }], 'a null value leaves the column alone');
        const gone = await admin.post(`/api/action/${update.id}/execute`, { parameters: { id: 424242, score: 1 } });
        assert.equal(gone.status, 404);
        assert.equal(gone.text, "Sorry, the row you're trying to update doesn't exist");
        const noKey = await admin.post(`/api/action/${update.id}/execute`, { parameters: { score: 1 } });
        assert.equal(noKey.status, 400);
        assert.equal(noKey.text, 'Missing primary key parameter: "id"');

        const remove = await createAction({ name: 'Delete customer', type: 'implicit', kind: 'row/delete', model_id: model.id });
        assert.deepEqual(remove.parameters.map((p: any) => p.id), ['id']);
        assert.deepEqual((await admin.post(`/api/action/${remove.id}/execute`, { parameters: { id: row.id } })).body, { 'rows-deleted': [1] });
        assert.deepEqual(await w.query(`SELECT id FROM customers WHERE id = ${Number(row.id)}`), []);
        const again = await admin.post(`/api/action/${remove.id}/execute`, { parameters: { id: row.id } });
        assert.equal(again.status, 404);
        assert.equal(again.text, "Sorry, the row you're trying to delete doesn't exist");
        const extra = await admin.post(`/api/action/${remove.id}/execute`, { parameters: { id: 1, name: 'x' } });
        assert.equal(extra.status, 400);
        assert.match(extra.body.message, /^No destination parameter found for #\{"name"\}\. Found: #\{"id"\}$/);
      });

      test('constraint violations come back in words, per column, and change nothing', async () => {
        const create = await createAction({ name: 'Create', type: 'implicit', kind: 'row/create', model_id: model.id });
        const noName = await admin.post(`/api/action/${create.id}/execute`, { parameters: { email: 'nameless@example.com' } });
        assert.equal(noName.status, 400, noName.text);
        assert.deepEqual(noName.body, { message: 'Name must have values.', errors: { name: 'You must provide a value.' } });
        const duplicate = await admin.post(`/api/action/${create.id}/execute`, { parameters: { name: 'Twin', email: 'grace@example.com' } });
        assert.equal(duplicate.status, 400);
        assert.deepEqual(duplicate.body, { message: 'Email already exists.', errors: { email: 'This Email value already exists.' } });
        const badType = await admin.post(`/api/action/${create.id}/execute`, { parameters: { name: 'Typo', score: 'lots' } });
        assert.equal(badType.status, 400);
        assert.equal(badType.body.message, 'Some of your values aren’t of the correct type for the database.');
        const remove = await createAction({ name: 'Delete', type: 'implicit', kind: 'row/delete', model_id: model.id });
        const referenced = await admin.post(`/api/action/${remove.id}/execute`, { parameters: { id: 1 } });
        assert.equal(referenced.status, 400);
        assert.deepEqual(referenced.body, { message: 'Other tables rely on this row so it cannot be deleted.', errors: {} });
        assert.equal((await w.query("SELECT count(*) AS n FROM customers WHERE email = 'nameless@example.com' OR name IN ('Twin', 'Typo')"))[0].n, engine === 'postgres' ? '0' : 0);
        assert.equal((await w.query('SELECT count(*) AS n FROM customers WHERE id = 1'))[0].n, engine === 'postgres' ? '1' : 1);
      });

      test('bulk implicit actions write every row in one transaction', async () => {
        const create = await createAction({ name: 'Bulk create', type: 'implicit', kind: 'bulk/create', model_id: model.id });
        const created = await admin.post(`/api/action/${create.id}/execute`, { parameters: { rows: [{ name: 'B1' }, { name: 'B2', score: 2 }] } });
        assert.equal(created.status, 200, created.text);
        assert.deepEqual(created.body['created-rows'].map((r: any) => r.name), ['B1', 'B2']);
        const half = await admin.post(`/api/action/${create.id}/execute`, { parameters: { rows: [{ name: 'B3' }, { score: 3 }] } });
        assert.equal(half.status, 400);
        assert.deepEqual(await w.query("SELECT id FROM customers WHERE name = 'B3'"), [], 'the first row was rolled back with the second');
        const ids = created.body['created-rows'].map((r: any) => ({ id: r.id }));
        const update = await createAction({ name: 'Bulk update', type: 'implicit', kind: 'bulk/update', model_id: model.id });
        assert.deepEqual((await admin.post(`/api/action/${update.id}/execute`, { parameters: { rows: ids.map((r: any) => ({ ...r, score: 50 })) } })).body, { 'rows-updated': 2 });
        assert.deepEqual(await w.query("SELECT score FROM customers WHERE name IN ('B1', 'B2')"), [{ score: 50 }, { score: 50 }]);
        const remove = await createAction({ name: 'Bulk delete', type: 'implicit', kind: 'bulk/delete', model_id: model.id });
        assert.deepEqual((await admin.post(`/api/action/${remove.id}/execute`, { parameters: { rows: ids } })).body, { success: true });
        assert.deepEqual(await w.query("SELECT id FROM customers WHERE name IN ('B1', 'B2')"), []);
      });
    });
  }

  describe('defining actions', () => {
    let w: Warehouse;
    let model: any;

    before(async () => {
      w = await warehouse('postgres');
      model = await tableModel(admin, w, 'customers');
    });

    test('create, read, list, update, archive and delete', async () => {
      const action = await createAction(renameAction(w, model.id, { description: 'Renames' }));
      assert.equal(typeof action.entity_id, 'string');
      assert.equal(action.creator.email, 'admin@example.com');
      assert.equal(action.database_enabled_actions, true);
      const fetched = (await admin.get(`/api/action/${action.id}`)).body;
      assert.deepEqual({ ...fetched, updated_at: null }, { ...action, updated_at: null });
      assert.ok((await admin.get('/api/action')).body.some((a: any) => a.id === action.id));
      const ofModel = (await admin.get('/api/action', { query: { 'model-id': model.id } })).body;
      assert.ok(ofModel.some((a: any) => a.id === action.id));
      assert.ok(ofModel.every((a: any) => a.model_id === model.id), 'only the actions of that model');
      const renamed = await admin.put(`/api/action/${action.id}`, { name: 'Renamed', description: 'desc' });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.name, 'Renamed');
      assert.equal(renamed.body.description, 'desc');
      assert.deepEqual(renamed.body.dataset_query, action.dataset_query, 'what the update did not name stays');
      assert.equal((await admin.put(`/api/action/${action.id}`, { archived: true })).body.archived, true);
      assert.equal((await admin.get(`/api/action/${action.id}`)).status, 404);
      assert.equal((await admin.post(`/api/action/${action.id}/execute`, { parameters: {} })).status, 404);
      assert.ok(!(await admin.get('/api/action')).body.some((a: any) => a.id === action.id));
      assert.equal((await admin.put(`/api/action/${action.id}`, { archived: false })).body.archived, false);
      assert.equal((await admin.delete(`/api/action/${action.id}`)).status, 204);
      assert.equal((await admin.get(`/api/action/${action.id}`)).status, 404);
      assert.equal((await admin.delete(`/api/action/${action.id}`)).status, 404);
    });

    test('bad definitions are refused with Metabase messages', async () => {
      const type = await admin.post('/api/action', { name: 'x', type: 'teleport', model_id: model.id });
      assert.equal(type.status, 400);
      assert.equal(type.body.errors.type, 'nullable Unsupported action type');
      const kind = await admin.post('/api/action', { name: 'x', type: 'implicit', kind: 'row/teleport', model_id: model.id });
      assert.equal(kind.body.errors.kind, 'nullable Unsupported implicit action kind');
      const noDb = await admin.post('/api/action', { ...renameAction(w, model.id), database_id: undefined });
      assert.equal(noDb.status, 400);
      assert.equal(noDb.body.message, 'Must provide a database_id for query actions');
      const noName = await admin.post('/api/action', { model_id: model.id, type: 'implicit', kind: 'row/create' });
      assert.deepEqual(noName.body.errors, { name: 'value must be a non-blank string.' });
      const handle = await admin.post('/api/action', { name: 'x', type: 'http', model_id: model.id, template: { method: 'GET', url: 'https://example.com' }, response_handle: 'not a path' });
      assert.equal(handle.status, 400);
      assert.equal(handle.body.errors.response_handle, "nullable must be a valid json-query, something like '.item.title'");
      const extraKey = await admin.post('/api/action', { name: 'x', type: 'http', model_id: model.id, template: { method: 'GET', url: 'https://example.com', cookies: 'x' } });
      assert.equal(extraKey.status, 400);
      assert.ok(extraKey.body.errors.template);
      const filtered = (await admin.post('/api/card', {
        name: 'Big scores', type: 'model', display: 'table', visualization_settings: {},
        dataset_query: { database: w.id, type: 'query', query: { 'source-table': w.tables.customers, filter: ['>', ['field', w.fields['customers.score'], null], 10] } },
      })).body;
      const clauses = await admin.post('/api/action', { name: 'x', type: 'implicit', kind: 'row/create', model_id: filtered.id });
      assert.equal(clauses.status, 400);
      assert.equal(clauses.text, 'Implicit actions are not supported for models with clauses.');
      const question = (await admin.post('/api/card', { name: 'Q', display: 'table', visualization_settings: {}, dataset_query: { database: w.id, type: 'query', query: { 'source-table': w.tables.customers } } })).body;
      assert.equal((await admin.post('/api/action', { name: 'x', type: 'implicit', kind: 'row/create', model_id: question.id })).status, 400);
      assert.equal((await admin.post('/api/action', { name: 'x', type: 'implicit', kind: 'row/create', model_id: 987654 })).status, 404);
    });

    test('actions need a database that supports them and has them switched on', async () => {
      const off = await warehouse('postgres', { enableActions: false });
      const offModel = await tableModel(admin, off, 'customers');
      const refused = await admin.post('/api/action', { name: 'x', type: 'implicit', kind: 'row/create', model_id: offModel.id });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body, { message: 'Actions are not enabled.', 'database-id': off.id });
      // switched off after the action was made: it stays, but doesn't run
      const enabled = await admin.put(`/api/database/${off.id}`, { settings: { 'database-enable-actions': true } });
      assert.equal(enabled.status, 200);
      const action = await createAction({ name: 'x', type: 'implicit', kind: 'row/create', model_id: offModel.id });
      await admin.put(`/api/database/${off.id}`, { settings: { 'database-enable-actions': false } });
      const run = await admin.post(`/api/action/${action.id}/execute`, { parameters: { name: 'n' } });
      assert.equal(run.status, 400);
      assert.equal(run.body.message, 'Actions are not enabled.');
      assert.equal((await admin.get(`/api/action/${action.id}`)).body.database_enabled_actions, false);
      // SQLite (the Sample Database's engine) has no actions
      const sample = await admin.post('/api/database/sample_database');
      const sampleModel = (await admin.post('/api/card', { name: 'P', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: sample.body.id, type: 'query', query: { 'source-table': (await admin.get(`/api/database/${sample.body.id}/metadata`)).body.tables[0].id } } })).body;
      await admin.put(`/api/database/${sample.body.id}`, { settings: { 'database-enable-actions': true } });
      const unsupported = await admin.post('/api/action', { name: 'x', type: 'implicit', kind: 'row/create', model_id: sampleModel.id });
      assert.equal(unsupported.status, 400);
      assert.equal(unsupported.body.message, `sqlite Database ${sample.body.id} "Sample Database" does not support actions.`);
    });

    test('who may see, change and run an action', async () => {
      const collection = (await admin.post('/api/collection', { name: `Ops ${Date.now()}` })).body;
      const opsModel = await tableModel(admin, w, 'customers', collection.id);
      const readers = (await admin.post('/api/permissions/group', { name: `Readers ${Date.now()}` })).body;
      const { revision } = (await admin.get('/api/collection/graph')).body;
      const graph = await admin.put('/api/collection/graph', { revision, groups: { 1: { [collection.id]: 'none' }, [readers.id]: { [collection.id]: 'read' } } });
      assert.equal(graph.status, 200, graph.text);
      const { client: reader, user } = await createUserClient(server(), admin);
      await admin.post('/api/permissions/membership', { group_id: readers.id, user_id: user.id });
      const { client: outsider } = await createUserClient(server(), admin);
      const action = await createAction(renameAction(w, opsModel.id));

      assert.equal((await outsider.get(`/api/action/${action.id}`)).status, 403);
      assert.equal((await outsider.post(`/api/action/${action.id}/execute`, { parameters: { id: 2, name: 'x' } })).status, 403);
      assert.ok(!(await outsider.get('/api/action')).body.some((a: any) => a.id === action.id));
      assert.equal((await outsider.get('/api/action', { query: { 'model-id': opsModel.id } })).status, 403);

      const searchFor = async (client: Client) =>
        (await client.get('/api/search', { query: { q: action.name, models: 'action' } })).body.data.filter((r: any) => r.id === action.id).map((r: any) => [r.model, r.model_id, r.collection?.id]);
      assert.deepEqual(await searchFor(reader), [['action', opsModel.id, collection.id]]);
      assert.deepEqual(await searchFor(outsider), []);
      assert.equal((await reader.get(`/api/action/${action.id}`)).status, 200);
      assert.ok((await reader.get('/api/action')).body.some((a: any) => a.id === action.id));
      const run = await reader.post(`/api/action/${action.id}/execute`, { parameters: { id: 2, name: 'Read-only Grace' } });
      assert.equal(run.status, 200, run.text);
      // data blocked for them: the model doesn't run for them, and neither do its actions
      const update = await createAction({ name: 'Update', type: 'implicit', kind: 'row/update', model_id: opsModel.id });
      const before = (await admin.get('/api/permissions/graph')).body;
      const blocked = await admin.put('/api/permissions/graph', { revision: before.revision, groups: { 1: { [w.id]: { 'view-data': 'blocked' } }, [readers.id]: { [w.id]: { 'view-data': 'blocked' } } } });
      assert.equal(blocked.status, 200, blocked.text);
      assert.equal((await reader.post(`/api/action/${update.id}/execute`, { parameters: { id: 2, score: 1 } })).status, 403);
      assert.equal((await reader.get(`/api/action/${update.id}/execute`, { query: { parameters: JSON.stringify({ id: 2 }) } })).status, 403, 'nor can they read a row through its form');
      assert.equal((await reader.post(`/api/action/${action.id}/execute`, { parameters: { id: 2, name: 'x' } })).status, 403);
      const after = (await admin.get('/api/permissions/graph')).body;
      await admin.put('/api/permissions/graph', { revision: after.revision, groups: { 1: { [w.id]: { 'view-data': 'unrestricted' } }, [readers.id]: { [w.id]: { 'view-data': 'unrestricted' } } } });
      assert.equal((await reader.put(`/api/action/${action.id}`, { name: 'mine now' })).status, 403);
      assert.equal((await reader.delete(`/api/action/${action.id}`)).status, 403);
      assert.equal((await reader.post('/api/action', renameAction(w, opsModel.id))).status, 403);

      // curating the collection isn't enough to write SQL that changes data: that needs native query permission
      const curators = (await admin.post('/api/permissions/group', { name: `Curators ${Date.now()}` })).body;
      const g2 = (await admin.get('/api/collection/graph')).body;
      await admin.put('/api/collection/graph', { revision: g2.revision, groups: { [curators.id]: { [collection.id]: 'write' } } });
      const { client: curator, user: curatorUser } = await createUserClient(server(), admin);
      await admin.post('/api/permissions/membership', { group_id: curators.id, user_id: curatorUser.id });
      const perms = (await admin.get('/api/permissions/graph')).body;
      await admin.put('/api/permissions/graph', { revision: perms.revision, groups: { 1: { [w.id]: { 'create-queries': 'query-builder' } }, [curators.id]: { [w.id]: { 'create-queries': 'query-builder' } } } });
      assert.equal((await curator.post('/api/action', renameAction(w, opsModel.id))).status, 403);
      const implicit = await curator.post('/api/action', { name: 'Create', type: 'implicit', kind: 'row/create', model_id: opsModel.id });
      assert.equal(implicit.status, 200, implicit.text);
      assert.equal((await curator.put(`/api/action/${action.id}`, { name: 'Curated' })).status, 200, 'renaming doesn\'t touch the SQL');
      assert.equal((await curator.put(`/api/action/${action.id}`, { dataset_query: { database: w.id, type: 'native', native: { query: 'DELETE FROM customers' } } })).status, 403);
      assert.equal((await admin.get(`/api/action/${action.id}`)).body.dataset_query.native.query, 'UPDATE customers SET name = {{name}} WHERE id = {{id}}');

      // moving an action needs write access to the model it leaves too
      const locked = (await admin.post('/api/collection', { name: `Locked ${Date.now()}` })).body;
      const g3 = (await admin.get('/api/collection/graph')).body;
      await admin.put('/api/collection/graph', { revision: g3.revision, groups: { 1: { [locked.id]: 'none' } } });
      const lockedModel = await tableModel(admin, w, 'customers', locked.id);
      const lockedAction = await createAction({ name: 'Locked', type: 'implicit', kind: 'row/create', model_id: lockedModel.id });
      assert.equal((await curator.put(`/api/action/${lockedAction.id}`, { model_id: opsModel.id })).status, 403);
      assert.equal((await admin.get(`/api/action/${lockedAction.id}`)).body.model_id, lockedModel.id);
      assert.equal((await curator.put(`/api/action/${implicit.body.id}`, { model_id: lockedModel.id })).status, 403, 'nor into a model they may not change');
    });
  });

  describe('action buttons and public actions', () => {
    let w: Warehouse;
    let model: any;

    before(async () => {
      w = await warehouse('postgres');
      model = await tableModel(admin, w, 'customers');
    });

    test('a dashboard button shows and runs its action; deleting the action removes the button', async () => {
      const action = await createAction(renameAction(w, model.id));
      const dashboard = (await admin.post('/api/dashboard', { name: `Buttons ${Date.now()}` })).body;
      const put = await admin.put(`/api/dashboard/${dashboard.id}`, {
        dashcards: [{ id: -1, card_id: null, action_id: action.id, row: 0, col: 0, size_x: 4, size_y: 1, visualization_settings: { 'button.label': 'Rename' }, parameter_mappings: [] }],
      });
      assert.equal(put.status, 200, put.text);
      const loaded = (await admin.get(`/api/dashboard/${dashboard.id}`)).body;
      const button = loaded.dashcards[0];
      assert.equal(button.action_id, action.id);
      assert.equal(button.action.id, action.id);
      assert.equal(button.action.dataset_query.native.query, action.dataset_query.native.query);
      const run = await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${button.id}/execute`, { parameters: { id: 1, name: 'From the button' } });
      assert.equal(run.status, 200, run.text);
      assert.deepEqual(run.body, { 'rows-affected': 1 });
      assert.equal((await w.query('SELECT name FROM customers WHERE id = 1'))[0].name, 'From the button');
      assert.deepEqual((await admin.get(`/api/dashboard/${dashboard.id}/dashcard/${button.id}/execute`, { query: { parameters: '{}' } })).body, {}, 'a query action has no row to prefill');
      const unknownAction = await admin.put(`/api/dashboard/${dashboard.id}`, { dashcards: [{ id: -1, card_id: null, action_id: 987654, row: 0, col: 0, size_x: 4, size_y: 1 }] });
      assert.equal(unknownAction.status, 404);
      assert.equal((await admin.delete(`/api/action/${action.id}`)).status, 204);
      assert.deepEqual((await admin.get(`/api/dashboard/${dashboard.id}`)).body.dashcards, []);
      assert.equal((await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${button.id}/execute`, { parameters: {} })).status, 404);
    });

    test('a public action form: shared by link, run anonymously, revoked', async () => {
      await admin.put('/api/setting/enable-public-sharing', { value: true });
      const update = await createAction({ name: 'Update customer', type: 'implicit', kind: 'row/update', model_id: model.id });
      const link = await admin.post(`/api/action/${update.id}/public_link`);
      assert.equal(link.status, 200, link.text);
      assert.match(link.body.uuid, /^[0-9a-f-]{36}$/);
      assert.deepEqual((await admin.post(`/api/action/${update.id}/public_link`)).body, link.body, 'the same link when shared already');
      const listed = (await admin.get('/api/action/public')).body.find((a: any) => a.id === update.id);
      assert.deepEqual(listed, { id: update.id, name: 'Update customer', public_uuid: link.body.uuid, model_id: model.id });

      const anon = server().anon;
      const form = await anon.get(`/api/public/action/${link.body.uuid}`);
      assert.equal(form.status, 200, form.text);
      assert.deepEqual(Object.keys(form.body).sort(), ['description', 'id', 'name', 'parameters', 'type', 'visualization_settings']);
      assert.ok(form.body.parameters.some((p: any) => p.id === 'score'));
      const run = await anon.post(`/api/public/action/${link.body.uuid}/execute`, { parameters: { id: 2, score: 99 } });
      assert.equal(run.status, 200, run.text);
      assert.deepEqual(run.body, { 'rows-updated': [1] });
      assert.equal((await w.query('SELECT score FROM customers WHERE id = 2'))[0].score, 99);
      const failure = await anon.post(`/api/public/action/${link.body.uuid}/execute`, { parameters: { id: 2, score: 'lots' } });
      assert.deepEqual([failure.status, failure.text], [400, 'An error occurred.'], 'public errors say nothing about the database');

      const loggedIn = (await createUserClient(server(), admin)).client;
      assert.equal((await loggedIn.post(`/api/action/${update.id}/public_link`)).status, 403);
      assert.equal((await admin.delete(`/api/action/${update.id}/public_link`)).status, 204);
      assert.equal((await admin.delete(`/api/action/${update.id}/public_link`)).status, 404);
      assert.equal((await anon.get(`/api/public/action/${link.body.uuid}`)).status, 404);
      assert.equal((await anon.post(`/api/public/action/${link.body.uuid}/execute`, { parameters: {} })).status, 404);
    });

    test('hidden form fields: not shown in a prefill, not settable from a public form, filled with their defaults', async () => {
      await admin.put('/api/setting/enable-public-sharing', { value: true });
      const hidden = { fields: { score: { id: 'score', hidden: true, defaultValue: 7 }, email: { id: 'email', hidden: true } } };
      const update = await createAction({ name: 'Rename only', type: 'implicit', kind: 'row/update', model_id: model.id, visualization_settings: hidden });
      const uuid = (await admin.post(`/api/action/${update.id}/public_link`)).body.uuid;
      const anon = server().anon;
      const prefill = await admin.get(`/api/action/${update.id}/execute`, { query: { parameters: JSON.stringify({ id: 2 }) } });
      assert.deepEqual(Object.keys(prefill.body).sort(), ['id', 'joined', 'name']);
      const sneaky = await anon.post(`/api/public/action/${uuid}/execute`, { parameters: { id: 2, name: 'Grace', score: 1000 } });
      assert.equal(sneaky.status, 400);
      assert.notEqual((await w.query('SELECT score FROM customers WHERE id = 2'))[0].score, 1000);
      const fair = await anon.post(`/api/public/action/${uuid}/execute`, { parameters: { id: 2, name: 'Grace H.' } });
      assert.equal(fair.status, 200, fair.text);
      assert.deepEqual(await w.query('SELECT name, score FROM customers WHERE id = 2'), [{ name: 'Grace H.', score: 7 }], "the hidden field's default");
      const create = await createAction({ name: 'Create', type: 'implicit', kind: 'row/create', model_id: model.id });
      const noKey = await admin.get(`/api/action/${create.id}/execute`, { query: { parameters: '{}' } });
      assert.equal(noKey.status, 400);
      assert.equal(noKey.text, 'Values can only be fetched for actions that require a Primary Key.');
    });

    test('buttons of a public dashboard run their actions', async () => {
      await admin.put('/api/setting/enable-public-sharing', { value: true });
      const update = await createAction({ name: 'Update customer', type: 'implicit', kind: 'row/update', model_id: model.id });
      const dashboard = (await admin.post('/api/dashboard', { name: `Public buttons ${Date.now()}` })).body;
      await admin.put(`/api/dashboard/${dashboard.id}`, { dashcards: [{ id: -1, card_id: null, action_id: update.id, row: 0, col: 0, size_x: 4, size_y: 1 }] });
      const uuid = (await admin.post(`/api/dashboard/${dashboard.id}/public_link`)).body.uuid;
      const shared = (await server().anon.get(`/api/public/dashboard/${uuid}`)).body;
      const button = shared.dashcards[0];
      assert.equal(button.action.id, update.id);
      assert.equal(button.action.dataset_query, undefined);
      const prefill = await server().anon.get(`/api/public/dashboard/${uuid}/dashcard/${button.id}/execute`, { query: { parameters: JSON.stringify({ id: 1 }) } });
      assert.equal(prefill.status, 200, prefill.text);
      assert.equal(prefill.body.id, 1);
      const run = await server().anon.post(`/api/public/dashboard/${uuid}/dashcard/${button.id}/execute`, { parameters: { id: 1, score: 5 } });
      assert.equal(run.status, 200, run.text);
      assert.equal((await w.query('SELECT score FROM customers WHERE id = 1'))[0].score, 5);
    });
  });
});
