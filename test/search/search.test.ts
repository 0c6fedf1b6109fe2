import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, native, uniqueName, type DataFixture } from '../cards/fixtures.js';

forEachAppDb('search', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server(), 'Warehouse Quokka');
  });

  test('finds cards, models, metrics, collections, tables and databases with Metabase’s envelope', async () => {
    const tag = uniqueName('quokka').replace(/\s/g, '');
    const c = await createCollection(admin, { name: `${tag} collection` });
    const card = await createCard(admin, data, { name: `${tag} question`, collection_id: c.id });
    const model = await createCard(admin, data, { name: `${tag} model`, type: 'model' });
    const metric = await createCard(admin, data, {
      name: `${tag} metric`,
      type: 'metric',
      display: 'scalar',
      dataset_query: { database: data.databaseId, type: 'query', query: { 'source-table': data.tableId, aggregation: [['count']] } },
    });
    const body = (await admin.get('/api/search', { query: { q: tag } })).body;
    for (const key of ['total', 'data', 'models', 'available_models', 'limit', 'offset', 'table_db_id', 'engine']) assert.ok(key in body, key);
    assert.equal(body.total, 4);
    assert.equal(body.models, null);
    assert.deepEqual(body.available_models, ['metric', 'card', 'dataset', 'collection']);
    const keys = body.data.map((r: any) => `${r.model}:${r.id}`).sort();
    assert.deepEqual(keys, [`card:${card.id}`, `collection:${c.id}`, `dataset:${model.id}`, `metric:${metric.id}`].sort());
    const hit = body.data.find((r: any) => r.id === card.id && r.model === 'card');
    assert.deepEqual(hit.collection, { id: c.id, name: c.name, authority_level: null, type: null });
    assert.equal(hit.creator_common_name, 'Ada Admin');
    assert.equal(hit.last_editor_common_name, 'Ada Admin');
    assert.equal(hit.display, 'table');
    assert.equal(hit.database_id, data.databaseId);
    assert.equal(hit.bookmark, false);
    assert.ok(Array.isArray(hit.scores));
    const tables = (await admin.get('/api/search', { query: { q: 'orders', models: 'table' } })).body;
    const table = tables.data.find((r: any) => r.id === data.tableId);
    assert.equal(table.model, 'table');
    assert.equal(table.name, 'Orders');
    assert.equal(table.table_name, 'ORDERS');
    assert.equal(table.database_id, data.databaseId);
    const dbs = (await admin.get('/api/search', { query: { q: 'quokka', models: 'database' } })).body;
    assert.deepEqual(dbs.data.map((r: any) => r.id), [data.databaseId]);
  });

  test('ranking: exact name before partial, pinned and bookmarked lift results', async () => {
    const tag = uniqueName('wombat').replace(/\s/g, '');
    const partial = await createCard(admin, data, { name: `my ${tag} report of things` });
    const exact = await createCard(admin, data, { name: tag });
    let body = (await admin.get('/api/search', { query: { q: tag, models: 'card' } })).body;
    assert.deepEqual(body.data.map((r: any) => r.id), [exact.id, partial.id]);
    const a = await createCard(admin, data, { name: `${tag} alpha` });
    const b = await createCard(admin, data, { name: `${tag} beta` });
    await admin.post(`/api/bookmark/card/${b.id}`);
    body = (await admin.get('/api/search', { query: { q: `${tag} `, models: 'card' } })).body;
    const order = body.data.map((r: any) => r.id);
    assert.ok(order.indexOf(b.id) < order.indexOf(a.id), 'bookmarked beta before alpha');
    assert.equal(body.data.find((r: any) => r.id === b.id).bookmark, true);
  });

  test('filters: models, archived, created_by, last_edited_by, dates, personal collections, native query, paging', async () => {
    const tag = uniqueName('numbat').replace(/\s/g, '');
    const { client: other, user } = await createUserClient(server(), admin);
    const personal = (await other.get('/api/user/current')).body.personal_collection_id;
    const mine = await createCard(admin, data, { name: `${tag} admin` });
    const theirs = await createCard(other, data, { name: `${tag} other`, collection_id: personal });
    const archived = await createCard(admin, data, { name: `${tag} old` });
    await admin.put(`/api/card/${archived.id}`, { archived: true });
    const sql = await createCard(admin, data, { name: 'plain name', dataset_query: native(data, `select '${tag}' from orders`) });

    const ids = async (query: Record<string, any>) => (await admin.get('/api/search', { query: { q: tag, ...query } })).body.data.map((r: any) => r.id).sort();
    assert.deepEqual(await ids({}), [mine.id, theirs.id].sort());
    assert.deepEqual(await ids({ archived: 'true' }), [archived.id]);
    assert.deepEqual(await ids({ created_by: user.id }), [theirs.id]);
    assert.deepEqual(await ids({ last_edited_by: 1 }), [mine.id]);
    assert.deepEqual(await ids({ filter_items_in_personal_collection: 'only' }), [theirs.id]);
    assert.deepEqual(await ids({ filter_items_in_personal_collection: 'exclude' }), [mine.id]);
    assert.deepEqual(await ids({ filter_items_in_personal_collection: 'only-mine' }), []);
    assert.deepEqual(await ids({ created_at: 'past1days~' }), [mine.id, theirs.id].sort());
    assert.deepEqual(await ids({ created_at: '2001-01-01~2001-12-31' }), []);
    assert.deepEqual(await ids({ search_native_query: 'true' }), [mine.id, theirs.id, sql.id].sort());
    assert.deepEqual(await ids({ models: 'dashboard' }), []);
    assert.deepEqual(await ids({ collection: personal }), [theirs.id], 'collection: things in that collection or below');
    assert.deepEqual(await ids({ verified: 'true' }), []);
    const page = (await admin.get('/api/search', { query: { q: tag, limit: 1, offset: 1 } })).body;
    assert.equal(page.total, 2);
    assert.equal(page.data.length, 1);
    assert.equal(page.limit, 1);
    assert.equal(page.offset, 1);
    assert.equal((await admin.get('/api/search', { query: { q: tag, created_at: 'whenever' } })).status, 400);
    assert.equal((await admin.get('/api/search', { query: { models: 'planet' } })).status, 400);
    // the other user never sees the admin's personal things
    const adminPersonal = (await admin.get('/api/user/current')).body.personal_collection_id;
    const hidden = await createCard(admin, data, { name: `${tag} hidden`, collection_id: adminPersonal });
    const seen = (await other.get('/api/search', { query: { q: tag } })).body.data.map((r: any) => r.id);
    assert.ok(!seen.includes(hidden.id));
    assert.ok(seen.includes(theirs.id) && seen.includes(mine.id));
  });
  test('archived items are found by those who may curate where they live, as in the Trash', async () => {
    const tag = uniqueName('bilby').replace(/\s/g, '');
    const c = await createCollection(admin, { name: `${tag} shelf` });
    const sub = await createCollection(admin, { name: `${tag} sub`, parent_id: c.id });
    const card = await createCard(admin, data, { name: `${tag} old`, collection_id: c.id });
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [c.id]: 'read', [sub.id]: 'read' } } });
    await admin.put(`/api/card/${card.id}`, { archived: true });
    await admin.put(`/api/collection/${sub.id}`, { archived: true });
    const { client: reader } = await createUserClient(server(), admin);
    const found = async (client: Client, archived: boolean) =>
      (await client.get('/api/search', { query: { q: tag, archived: String(archived) } })).body.data.map((r: any) => `${r.model}:${r.id}`).sort();
    assert.deepEqual(await found(reader, false), [`collection:${c.id}`], 'readers find what is not archived');
    assert.deepEqual(await found(reader, true), [], 'but not the archived things they could not restore');
    assert.deepEqual(await found(admin, true), [`card:${card.id}`, `collection:${sub.id}`].sort());
    const group = (await admin.post('/api/permissions/group', { name: uniqueName('Curators') })).body;
    const { client: curator, user } = await createUserClient(server(), admin);
    await admin.post('/api/permissions/membership', { group_id: group.id, user_id: user.id });
    const now = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: now.revision, groups: { [group.id]: { [c.id]: 'write' } } });
    assert.deepEqual(await found(curator, true), [`card:${card.id}`]);
  });
});
