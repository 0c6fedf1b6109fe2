import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, mbql, native, uniqueName, type DataFixture } from './fixtures.js';

forEachAppDb('cards', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });

  test('create returns the full card with Metabase fields and hydrations', async () => {
    const name = uniqueName('Orders by month');
    const response = await admin.post('/api/card', {
      name,
      display: 'bar',
      visualization_settings: { 'graph.dimensions': ['x'] },
      dataset_query: mbql(data, { aggregation: [['count']] }),
      description: 'monthly orders',
      parameters: [{ id: 'p1', type: 'category', name: 'Cat', slug: 'cat' }],
    });
    assert.equal(response.status, 200);
    const card = response.body;
    assert.equal(typeof card.id, 'number');
    assert.equal(card.name, name);
    assert.equal(card.display, 'bar');
    assert.equal(card.type, 'question');
    assert.equal(card.query_type, 'query');
    assert.equal(card.database_id, data.databaseId);
    assert.equal(card.table_id, data.tableId);
    assert.equal(card.collection_id, null);
    assert.equal(card.collection, null);
    assert.equal(card.archived, false);
    assert.equal(card.archived_directly, false);
    assert.equal(card.description, 'monthly orders');
    assert.deepEqual(card.visualization_settings, { 'graph.dimensions': ['x'] });
    assert.deepEqual(card.parameters, [{ id: 'p1', type: 'category', name: 'Cat', slug: 'cat' }]);
    assert.deepEqual(card.parameter_mappings, []);
    assert.match(card.entity_id, /^[A-Za-z0-9_-]{21}$/);
    assert.equal(card.creator.email, 'admin@example.com');
    assert.equal(card.creator.common_name, 'Ada Admin');
    assert.equal(card.can_write, true);
    assert.equal(card.can_restore, false);
    assert.equal(card.can_delete, false);
    assert.equal(card.can_manage_db, true);
    assert.equal(card.can_run_adhoc_query, true);
    assert.equal(card.dashboard_count, 0);
    assert.equal(card.dashboard_id, null);
    assert.equal(card.enable_embedding, false);
    assert.equal(card.public_uuid, null);
    assert.equal(card.card_schema, 20);
    assert.deepEqual(card.moderation_reviews, []);
    assert.equal(card['last-edit-info'].email, 'admin@example.com');
    assert.equal(card['last-edit-info'].first_name, 'Ada');
    const got = (await admin.get(`/api/card/${card.id}`)).body;
    assert.deepEqual(Object.keys(got).sort(), Object.keys(card).sort(), 'POST and GET have the same shape');
  });

  test('create: Metabase validation errors', async () => {
    const bad = await admin.post('/api/card', { visualization_settings: 'ABC' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors, {
      name: 'value must be a non-blank string.',
      dataset_query: 'Value must be a map.',
      display: 'value must be a non-blank string.',
      visualization_settings: 'Value must be a map.',
    });
    assert.deepEqual(bad.body['specific-errors'].visualization_settings, ['Value must be a map., received: "ABC"']);
    assert.deepEqual(bad.body['specific-errors'].name, ['missing required key, received: nil']);
    const badParams = await admin.post('/api/card', { name: 'x', display: 'table', visualization_settings: {}, dataset_query: mbql(data), parameters: [{ name: 'no id' }] });
    assert.equal(badParams.status, 400);
    assert.match(badParams.body.errors.parameters, /parameter must be a map with :id and :type keys/);
    const badType = await admin.post('/api/card', { name: 'x', display: 'table', visualization_settings: {}, dataset_query: mbql(data), type: 'chart' });
    assert.equal(badType.status, 400);
    const missingDb = await admin.post('/api/card', { name: 'x', display: 'table', visualization_settings: {}, dataset_query: { database: 987654, type: 'native', native: { query: 'select 1' } } });
    assert.equal(missingDb.status, 404);
    const missingCollection = await admin.post('/api/card', { name: 'x', display: 'table', visualization_settings: {}, dataset_query: mbql(data), collection_id: 987654 });
    assert.equal(missingCollection.status, 404);
    assert.equal((await admin.get('/api/card/987654')).status, 404);
    assert.equal((await admin.get('/api/card/abc')).text, 'API endpoint does not exist.');
  });

  test('collection_position fits a smallint; entity_id is given by the server', async () => {
    const base = { name: 'x', display: 'table', visualization_settings: {}, dataset_query: mbql(data) };
    const tooFar = await admin.post('/api/card', { ...base, collection_position: 32768 });
    assert.equal(tooFar.status, 400);
    assert.match(tooFar.body.errors.collection_position, /32767/);
    const card = await createCard(admin, data, { collection_position: 32767 });
    assert.equal(card.collection_position, 32767);
    assert.equal((await admin.put(`/api/card/${card.id}`, { collection_position: 40000 })).status, 400);
    assert.equal((await admin.put(`/api/card/${card.id}`, { collection_position: 32767 })).status, 200);
    const pinnedFirst = await createCard(admin, data, { collection_position: 1 });
    assert.equal(pinnedFirst.collection_position, 1, 'a card already at 32767 stays there when others are pinned before it');
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.collection_position, 32767);

    // entity_id is the server's to give, as in Metabase: a client's (a copied card's) is ignored
    const entityId = 'Abc_def-ghi0123456789';
    const sent = await admin.post('/api/card', { ...base, entity_id: entityId });
    assert.equal(sent.status, 200, sent.text);
    assert.match(sent.body.entity_id, /^[A-Za-z0-9_-]{21}$/);
    assert.notEqual(sent.body.entity_id, entityId);
  });

  test('dataset_query is validated: malformed → 400 with what is wrong, a missing database, table or card → 404', async () => {
    const post = (dataset_query: unknown) => admin.post('/api/card', { name: 'v', display: 'table', visualization_settings: {}, dataset_query });
    const other = await registerDatabase(server(), 'Other DB');
    const cases: Array<[string, unknown, number, RegExp?]> = [
      ['empty', {}, 400, /query type/],
      ['database not an id', { database: 'abc', type: 'native', native: { query: 'select 1' } }, 400, /database/],
      ['source-table not an id', { database: data.databaseId, type: 'query', query: { 'source-table': 'card__abc' } }, 400, /source-table/],
      ['query not a map', { database: data.databaseId, type: 'query', query: 'zzz' }, 400, /query/],
      ['native not a map', { database: data.databaseId, type: 'native', native: 'zzz' }, 400, /native/],
      ['template-tags not a map', native(data, 'select 1', 'zzz' as any), 400, /template-tags/],
      ['a null template tag', native(data, 'select {{a}}', { a: null }), 400, /template tag "a"/],
      ['an unknown table', { database: data.databaseId, type: 'query', query: { 'source-table': 99999 } }, 404, /Table 99999/],
      ['a table of another database', { database: other.databaseId, type: 'query', query: { 'source-table': data.tableId } }, 400, /not in database/],
      ['an unknown database', { database: 987654, type: 'query', query: { 'source-table': data.tableId } }, 404],
      ['an unknown card', { database: data.databaseId, type: 'query', query: { 'source-table': 'card__987654' } }, 404, /Card 987654 does not exist/],
    ];
    for (const [what, query, status, message] of cases) {
      const response = await post(query);
      assert.equal(response.status, status, `${what}: ${response.text}`);
      if (message) assert.match(response.text, message, what);
    }
    const card = await createCard(admin, data);
    const put = await admin.put(`/api/card/${card.id}`, { dataset_query: native(data, 'select {{a}}', { a: null }) });
    assert.equal(put.status, 400, put.text);
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.query_type, 'query', 'nothing changed');
  });

  test('a card cannot read itself: as its source, through another card, a join or a {{#N}} tag', async () => {
    const a = await createCard(admin, data);
    const onA = { database: data.databaseId, type: 'query', query: { 'source-table': `card__${a.id}` } };
    const self = await admin.put(`/api/card/${a.id}`, { dataset_query: onA });
    assert.equal(self.status, 400);
    assert.equal(self.text, 'Cannot save card with cycles.');
    const b = await createCard(admin, data, { dataset_query: onA });
    const c = await createCard(admin, data, {
      dataset_query: native(data, `select * from {{#${b.id}}}`, { [`#${b.id}`]: { id: 't', name: `#${b.id}`, 'display-name': 'B', type: 'card', 'card-id': b.id } }),
    });
    for (const [how, query] of [
      ['via B', { database: data.databaseId, type: 'query', query: { 'source-table': `card__${b.id}` } }],
      ['via C (a {{#N}} tag on B)', { database: data.databaseId, type: 'query', query: { 'source-table': `card__${c.id}` } }],
      ['a join on B', mbql(data, { joins: [{ 'source-table': `card__${b.id}`, alias: 'B', condition: ['=', ['field', 1, null], ['field', 'ID', { 'base-type': 'type/Integer', 'join-alias': 'B' }]] }] })],
      ['a tag on C', native(data, `select * from {{#${c.id}}}`, { [`#${c.id}`]: { id: 'u', name: `#${c.id}`, 'display-name': 'C', type: 'card', 'card-id': c.id } })],
    ] as const) {
      const response = await admin.put(`/api/card/${a.id}`, { dataset_query: query });
      assert.equal(response.status, 400, `${how}: ${response.text}`);
      assert.equal(response.text, 'Cannot save card with cycles.', how);
    }
    // reading the same card twice without a cycle is fine
    const d = await createCard(admin, data);
    const twice = await admin.put(`/api/card/${d.id}`, { dataset_query: mbql(data, { 'source-table': `card__${b.id}`, joins: [{ 'source-table': `card__${c.id}`, alias: 'C', condition: ['=', ['field', 1, null], ['field', 'ID', { 'base-type': 'type/Integer', 'join-alias': 'C' }]] }] }) });
    assert.equal(twice.status, 200, twice.text);
  });

  test('MBQL 5 queries (what the web app saves since 0.57): stored as sent, read for type rules, table and query type', async () => {
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const mbql5 = (stage: Record<string, unknown>) => ({ 'lib/type': 'mbql/query', database: data.databaseId, stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': data.tableId, ...stage }] });
    const native5 = (sql: string, tags: Record<string, unknown> = {}) => ({ 'lib/type': 'mbql/query', database: data.databaseId, stages: [{ 'lib/type': 'mbql.stage/native', native: sql, 'template-tags': tags }] });

    const question = await createCard(admin, data, { dataset_query: mbql5({}) });
    assert.equal(question.query_type, 'query');
    assert.equal(question.table_id, data.tableId);
    assert.equal(question.database_id, data.databaseId);
    assert.deepEqual(question.dataset_query, mbql5({}), 'stored as the client sent it');
    assert.ok((await admin.get('/api/card', { query: { f: 'table', model_id: data.tableId } })).body.some((c: any) => c.id === question.id), 'f=table');

    const metric = await admin.post('/api/card', { name: uniqueName('m5'), type: 'metric', display: 'scalar', visualization_settings: {}, dataset_query: mbql5({ aggregation: [['count', { 'lib/uuid': uuid(1) }]] }) });
    assert.equal(metric.status, 200, metric.text);
    const twoAggregations = await admin.post('/api/card', {
      name: 'm', type: 'metric', display: 'scalar', visualization_settings: {},
      dataset_query: mbql5({ aggregation: [['count', { 'lib/uuid': uuid(2) }], ['count', { 'lib/uuid': uuid(3) }]] }),
    });
    assert.equal(twoAggregations.status, 400);
    assert.equal(twoAggregations.text, 'Card of type metric is invalid, cannot be saved.');

    const variableModel = await admin.post('/api/card', {
      name: 'nm', type: 'model', display: 'table', visualization_settings: {},
      dataset_query: native5('select * from orders where id = {{id}}', { id: { id: 'x', name: 'id', 'display-name': 'Id', type: 'number' } }),
    });
    assert.equal(variableModel.status, 400);
    assert.equal(variableModel.text, 'A model made from a native SQL question cannot have a variable or field filter.');

    const word = `mbql5native${Date.now()}`;
    const nativeQuestion = await createCard(admin, data, { name: uniqueName('n5'), dataset_query: native5(`select '${word}'`) });
    assert.equal(nativeQuestion.query_type, 'native');
    const found = (await admin.get('/api/search', { query: { q: word, search_native_query: 'true', models: 'card' } })).body.data;
    assert.deepEqual(found.map((x: any) => x.id), [nativeQuestion.id], 'found by its SQL');
    assert.equal(found[0].dataset_query?.native?.query ?? found[0].dataset_query?.stages?.[0]?.native, `select '${word}'`);

    const onIt = await createCard(admin, data, { dataset_query: { 'lib/type': 'mbql/query', database: data.databaseId, stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-card': question.id }] } });
    assert.equal(onIt.source_card_id, question.id);
    assert.ok((await admin.get('/api/card', { query: { f: 'using_model', model_id: question.id } })).body.some((c: any) => c.id === onIt.id), 'f=using_model');
  });

  test('models display as a table; native models cannot have variables', async () => {
    const model = await createCard(admin, data, { type: 'model', display: 'bar' });
    assert.equal(model.type, 'model');
    assert.equal(model.display, 'table');
    assert.equal(model.persisted, false);
    const bad = await admin.post('/api/card', {
      name: 'native model',
      type: 'model',
      display: 'table',
      visualization_settings: {},
      dataset_query: native(data, 'select * from orders where id = {{id}}', { id: { id: 'a', name: 'id', 'display-name': 'Id', type: 'number' } }),
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.text, 'A model made from a native SQL question cannot have a variable or field filter.');
    const nativeModel = await createCard(admin, data, { type: 'model', dataset_query: native(data, 'select 1') });
    assert.equal(nativeModel.query_type, 'native');
    const question = await createCard(admin, data, { display: 'line' });
    const turned = (await admin.put(`/api/card/${question.id}`, { type: 'model' })).body;
    assert.equal(turned.type, 'model');
    assert.equal(turned.display, 'table');
  });

  test('metrics must have exactly one aggregation', async () => {
    const metric = await createCard(admin, data, { type: 'metric', display: 'scalar', dataset_query: mbql(data, { aggregation: [['count']] }) });
    assert.equal(metric.type, 'metric');
    for (const query of [mbql(data), mbql(data, { aggregation: [['count'], ['sum', ['field', 1, null]]] }), native(data, 'select 1')]) {
      const bad = await admin.post('/api/card', { name: 'm', type: 'metric', display: 'scalar', visualization_settings: {}, dataset_query: query });
      assert.equal(bad.status, 400);
      assert.equal(bad.text, 'Card of type metric is invalid, cannot be saved.');
    }
  });

  test('update: partial changes, archive to the trash and back, hard delete', async () => {
    const c = await createCollection(admin);
    const card = await createCard(admin, data);
    const updated = await admin.put(`/api/card/${card.id}`, { name: 'Renamed', description: 'described', collection_id: c.id, collection_position: 1 });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'Renamed');
    assert.equal(updated.body.description, 'described');
    assert.equal(updated.body.collection_id, c.id);
    assert.equal(updated.body.collection.id, c.id);
    assert.equal(updated.body.collection.name, c.name);
    assert.equal(updated.body.collection_position, 1);
    assert.equal(updated.body.display, 'table', 'untouched fields stay');
    const cleared = (await admin.put(`/api/card/${card.id}`, { description: null })).body;
    assert.equal(cleared.description, null);

    const archived = (await admin.put(`/api/card/${card.id}`, { archived: true })).body;
    assert.equal(archived.archived, true);
    assert.equal(archived.archived_directly, true);
    assert.equal(archived.can_restore, true);
    assert.equal(archived.can_delete, true);
    assert.ok(!(await admin.get('/api/card')).body.some((x: any) => x.id === card.id));
    assert.ok((await admin.get('/api/card', { query: { f: 'archived' } })).body.some((x: any) => x.id === card.id));
    const restored = (await admin.put(`/api/card/${card.id}`, { archived: false })).body;
    assert.equal(restored.archived, false);

    const toTrash = await admin.put(`/api/card/${card.id}`, { collection_id: (await admin.get('/api/collection/trash')).body.id });
    assert.equal(toTrash.status, 400);

    assert.equal((await admin.delete(`/api/card/${card.id}`)).status, 204);
    assert.equal((await admin.get(`/api/card/${card.id}`)).status, 404);
    assert.equal((await admin.delete(`/api/card/${card.id}`)).status, 404);
  });

  test('list filters: all, mine, database, table, using_model, bookmarked, using_segment and model_id checks', async () => {
    const { client: other } = await createUserClient(server(), admin);
    const second = await registerDatabase(server(), 'Second DB');
    const mine = await createCard(admin, data, { name: uniqueName('aaa mine') });
    const theirs = await createCard(other, second, { name: uniqueName('bbb theirs') });
    const model = await createCard(admin, data, { type: 'model' });
    const onModel = await createCard(admin, data, { dataset_query: { database: data.databaseId, type: 'query', query: { 'source-table': `card__${model.id}` } } });
    const nativeOnModel = await createCard(admin, data, {
      dataset_query: native(data, `select * from {{#${model.id}}}`, { [`#${model.id}`]: { id: 'x', name: `#${model.id}`, 'display-name': 'M', type: 'card', 'card-id': model.id } }),
    });
    const segmented = await createCard(admin, data, { dataset_query: mbql(data, { filter: ['segment', 42] }) });

    const ids = (list: any[]) => list.map((c) => c.id);
    const all = (await admin.get('/api/card')).body;
    assert.ok(ids(all).includes(mine.id) && ids(all).includes(theirs.id));
    const names = all.map((c: any) => c.name.toLowerCase());
    assert.deepEqual(names, [...names].sort((a: string, b: string) => a.localeCompare(b)));
    assert.ok(all[0].creator && 'collection' in all[0]);
    const mineOnly = ids((await other.get('/api/card', { query: { f: 'mine' } })).body);
    assert.deepEqual(mineOnly, [theirs.id]);
    assert.deepEqual(ids((await admin.get('/api/card', { query: { f: 'database', model_id: second.databaseId } })).body), [theirs.id]);
    assert.ok(ids((await admin.get('/api/card', { query: { f: 'table', model_id: data.tableId } })).body).includes(mine.id));
    assert.ok(!ids((await admin.get('/api/card', { query: { f: 'table', model_id: data.tableId } })).body).includes(theirs.id));
    assert.deepEqual(ids((await admin.get('/api/card', { query: { f: 'using_model', model_id: model.id } })).body).sort(), [onModel.id, nativeOnModel.id].sort());
    assert.deepEqual(ids((await admin.get('/api/card', { query: { f: 'using_segment', model_id: 42 } })).body), [segmented.id]);
    await admin.post(`/api/bookmark/card/${mine.id}`);
    assert.deepEqual(ids((await admin.get('/api/card', { query: { f: 'bookmarked' } })).body), [mine.id]);
    for (const f of ['database', 'table', 'using_model', 'using_segment']) {
      const missing = await admin.get('/api/card', { query: { f } });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { errors: { model_id: `model_id is a required parameter when filter mode is '${f}'` } });
    }
    assert.equal((await admin.get('/api/card', { query: { f: 'everything' } })).status, 400);
    assert.equal(onModel.table_id, data.tableId, 'a question on a model takes the model’s table');
    assert.equal(onModel.source_card_id, model.id);
  });

  test('list filters: archived and using_metric', async () => {
    const tag = uniqueName('flt');
    const live = await createCard(admin, data, { name: `${tag} live` });
    const old = await createCard(admin, data, { name: `${tag} old` });
    await admin.put(`/api/card/${old.id}`, { archived: true });
    const hiddenCollection = await createCollection(admin);
    const hidden = await createCard(admin, data, { name: `${tag} hidden`, collection_id: hiddenCollection.id });
    await admin.put(`/api/card/${hidden.id}`, { archived: true });
    const mine = (list: any[]) => list.filter((c) => c.name.startsWith(tag)).map((c) => c.id).sort();
    assert.deepEqual(mine((await admin.get('/api/card', { query: { f: 'archived' } })).body), [old.id, hidden.id].sort());
    assert.deepEqual(mine((await admin.get('/api/card', { query: { f: 'all' } })).body), [live.id]);
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [hiddenCollection.id]: 'none' } } });
    const { client } = await createUserClient(server(), admin);
    assert.deepEqual(mine((await client.get('/api/card', { query: { f: 'archived' } })).body), [old.id], 'only what the caller can read');

    const metric = await createCard(admin, data, { name: `${tag} metric`, type: 'metric', display: 'scalar', dataset_query: mbql(data, { aggregation: [['count']] }) });
    const otherMetric = await createCard(admin, data, { name: `${tag} other metric`, type: 'metric', display: 'scalar', dataset_query: mbql(data, { aggregation: [['count']] }) });
    const aggregating = await createCard(admin, data, { name: `${tag} aggregating`, dataset_query: mbql(data, { aggregation: [['metric', metric.id]] }) });
    const onMetric = await createCard(admin, data, { name: `${tag} on metric`, dataset_query: { database: data.databaseId, type: 'query', query: { 'source-table': `card__${metric.id}` } } });
    await createCard(admin, data, { name: `${tag} other`, dataset_query: mbql(data, { aggregation: [['metric', otherMetric.id]] }) });
    assert.deepEqual(mine((await admin.get('/api/card', { query: { f: 'using_metric', model_id: metric.id } })).body), [aggregating.id, onMetric.id].sort());
  });

  test('copy is named "Copy of …"; move many; dashboards of a card', async () => {
    const original = await createCard(admin, data, { description: 'orig' });
    const copy = await admin.post(`/api/card/${original.id}/copy`);
    assert.equal(copy.status, 200);
    assert.notEqual(copy.body.id, original.id);
    assert.equal(copy.body.name, `Copy of ${original.name}`);
    assert.deepEqual(copy.body.dataset_query, original.dataset_query);
    assert.equal(copy.body.description, 'orig');
    assert.equal((await admin.post('/api/card/987654/copy')).status, 404);

    const target = await createCollection(admin);
    const moved = await admin.post('/api/card/collections', { card_ids: [original.id, copy.body.id], collection_id: target.id });
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.body, { status: 'ok' });
    assert.equal((await admin.get(`/api/card/${copy.body.id}`)).body.collection_id, target.id);
    const toRoot = await admin.post('/api/card/collections', { card_ids: [original.id], collection_id: null });
    assert.equal(toRoot.status, 200);
    assert.equal((await admin.get(`/api/card/${original.id}`)).body.collection_id, null);
    assert.equal((await admin.post('/api/card/collections', { card_ids: [987654], collection_id: null })).status, 404);
    assert.equal((await admin.post('/api/card/collections', { card_ids: 'x' })).status, 400);

    assert.deepEqual((await admin.get(`/api/card/${original.id}/dashboards`)).body, []);
  });

  test('dashboard questions live in their dashboard and its collection', async () => {
    const c = await createCollection(admin);
    const now = new Date().toISOString();
    const me = (await admin.get('/api/user/current')).body;
    await server().ctx.db
      .insertInto('report_dashboard')
      .values({ entity_id: 'dashfixture0000000001', name: 'Ops', collection_id: c.id, creator_id: me.id, created_at: now, updated_at: now } as any)
      .execute();
    const dash = await server().ctx.db.selectFrom('report_dashboard').select('id').where('name', '=', 'Ops').executeTakeFirstOrThrow();
    const card = await createCard(admin, data, { dashboard_id: dash.id });
    assert.equal(card.dashboard_id, dash.id);
    assert.equal(card.collection_id, c.id);
    assert.deepEqual(card.dashboard, { id: dash.id, name: 'Ops', moderation_status: null });
    assert.equal(card.dashboard_count, 1);
    assert.deepEqual((await admin.get(`/api/card/${card.id}/dashboards`)).body, [{ id: dash.id, name: 'Ops' }]);
    const items = (await admin.get(`/api/collection/${c.id}/items`)).body;
    assert.ok(!items.data.some((i: any) => i.id === card.id && i.model === 'card'), 'hidden unless show_dashboard_questions');
    const dashItem = items.data.find((i: any) => i.model === 'dashboard');
    assert.deepEqual(dashItem.here, ['card']);
    const shown = (await admin.get(`/api/collection/${c.id}/items`, { query: { show_dashboard_questions: 'true' } })).body;
    assert.ok(shown.data.some((i: any) => i.id === card.id));
    const model = await admin.post('/api/card', { name: 'm', type: 'model', display: 'table', visualization_settings: {}, dataset_query: mbql(data), dashboard_id: dash.id });
    assert.equal(model.status, 400);
    const mismatch = await admin.post('/api/card', { name: 'x', display: 'table', visualization_settings: {}, dataset_query: mbql(data), dashboard_id: dash.id, collection_id: null });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.text, `Mismatch detected between Dashboard's \`collection_id\` (${c.id}) and \`collection_id\` (null)`);

    // a card shown on another dashboard becomes a question of this one, leaving the other with delete_old_dashcards
    await server().ctx.db
      .insertInto('report_dashboard')
      .values({ entity_id: 'dashfixture0000000002', name: 'Other', collection_id: c.id, creator_id: me.id, created_at: now, updated_at: now } as any)
      .execute();
    const other = await server().ctx.db.selectFrom('report_dashboard').select('id').where('name', '=', 'Other').executeTakeFirstOrThrow();
    const loose = await createCard(admin, data, { collection_id: c.id });
    await server().ctx.db
      .insertInto('report_dashboardcard')
      .values({ entity_id: 'dashcardfixture000001', dashboard_id: other.id, card_id: loose.id, row: 0, col: 0, size_x: 4, size_y: 4, created_at: now, updated_at: now } as any)
      .execute();
    assert.equal((await admin.get(`/api/card/${loose.id}`)).body.dashboard_count, 1);
    const moved = await admin.put(`/api/card/${loose.id}`, { dashboard_id: dash.id }, { query: { delete_old_dashcards: 'true' } });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.dashboard_id, dash.id);
    assert.deepEqual((await admin.get(`/api/card/${loose.id}/dashboards`)).body, [{ id: dash.id, name: 'Ops' }]);
  });

  test('views are recorded unless ignore_view; current user knows about models', async () => {
    const { client } = await createUserClient(server(), admin);
    const card = await createCard(client, data);
    assert.equal((await client.get(`/api/card/${card.id}`, { query: { ignore_view: 'true' } })).status, 200);
    let views = (await client.get('/api/activity/recent_views')).body.recent_views;
    assert.ok(!views.some((v: any) => v.id === card.id));
    await client.get(`/api/card/${card.id}`);
    views = (await client.get('/api/activity/recent_views')).body.recent_views;
    const hit = views.find((v: any) => v.model === 'card' && v.id === card.id);
    assert.equal(hit.name, card.name);
    assert.equal(hit.parent_collection.id, 'root');
    assert.equal((await admin.get(`/api/card/${card.id}`, { query: { ignore_view: 'true' } })).body.view_count, 1);
    await createCard(client, data, { type: 'model' });
    assert.equal((await client.get('/api/user/current')).body.has_model, true);
    assert.equal((await client.post('/api/dashboard', { name: 'Mine' })).status, 200);
    assert.equal((await client.get('/api/user/current')).body.has_question_and_dashboard, true);
  });

  test('revisions: history with descriptions, diff and revert round trip', async () => {
    const c1 = await createCollection(admin, { name: uniqueName('Sales') });
    const card = await createCard(admin, data, { name: 'Tips by State', display: 'table' });
    await admin.put(`/api/card/${card.id}`, { name: 'Spots by State' });
    await admin.put(`/api/card/${card.id}`, { display: 'bar', description: 'about spots' });
    await admin.put(`/api/card/${card.id}`, { collection_id: c1.id });
    await admin.put(`/api/card/${card.id}`, { dataset_query: mbql(data, { limit: 5 }), visualization_settings: { x: 1 }, type: 'model' });
    await admin.put(`/api/card/${card.id}`, { archived: true });
    await admin.put(`/api/card/${card.id}`, { archived: false });

    const history = await admin.get('/api/revision', { query: { entity: 'card', id: card.id } });
    assert.equal(history.status, 200);
    const descriptions = history.body.map((r: any) => r.description);
    assert.deepEqual(descriptions, [
      'untrashed this Card.',
      'trashed this Card.',
      'changed the display from bar to table, turned this to a model, modified the query and changed the visualization settings.',
      `moved this Card to ${c1.name}.`,
      'added a description and changed the display from table to bar.',
      'renamed this Card from "Tips by State" to "Spots by State".',
      'created this.',
    ]);
    const creation = history.body[history.body.length - 1];
    assert.equal(creation.is_creation, true);
    assert.equal(creation.diff, null);
    assert.deepEqual(creation.user, { id: 1, first_name: 'Ada', last_name: 'Admin', common_name: 'Ada Admin' });
    const rename = history.body[history.body.length - 2];
    assert.deepEqual(rename.diff, { before: { name: 'Tips by State' }, after: { name: 'Spots by State' } });
    assert.equal(rename.has_multiple_changes, false);
    assert.equal(history.body[2].has_multiple_changes, true);
    assert.equal((await admin.get(`/api/revision/card/${card.id}`)).body.length, 7);

    const reverted = await admin.post('/api/revision/revert', { entity: 'card', id: card.id, revision_id: rename.id });
    assert.equal(reverted.status, 200);
    assert.equal(reverted.body.is_reversion, true);
    assert.equal(reverted.body.description, 'reverted to an earlier version.');
    const after = (await admin.get(`/api/card/${card.id}`)).body;
    assert.equal(after.name, 'Spots by State');
    assert.equal(after.display, 'table');
    assert.equal(after.type, 'question');
    assert.equal(after.description, null);
    assert.equal(after.collection_id, null);
    assert.deepEqual(after.dataset_query, mbql(data));
    const again = (await admin.get('/api/revision', { query: { entity: 'card', id: card.id } })).body;
    assert.equal(again[0].description, 'reverted to an earlier version.');
    const forward = await admin.post('/api/revision/revert', { entity: 'card', id: card.id, revision_id: history.body[0].id });
    assert.equal(forward.status, 200);
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.type, 'model');

    assert.equal((await admin.post('/api/revision/revert', { entity: 'card', id: card.id, revision_id: 987654 })).status, 404);
    assert.equal((await admin.post('/api/revision/revert', { entity: 'planet', id: card.id, revision_id: 1 })).status, 400);
    assert.equal((await admin.get('/api/revision', { query: { entity: 'card' } })).status, 400);
    assert.equal((await admin.get('/api/revision', { query: { entity: 'card', id: 987654 } })).status, 404);
  });

  test('only the 15 newest revisions are kept', async () => {
    const card = await createCard(admin, data);
    for (let i = 0; i < 17; i++) await admin.put(`/api/card/${card.id}`, { description: `v${i}` });
    const history = (await admin.get('/api/revision', { query: { entity: 'card', id: card.id } })).body;
    assert.equal(history.length, 15);
    assert.equal(history[history.length - 1].description, 'modified this.');
  });

  test('card timelines: the timelines of its collection, with events between start and end', async () => {
    const c = await createCollection(admin);
    const card = await createCard(admin, data, { collection_id: c.id });
    const timeline = (await admin.post('/api/timeline', { name: 'Launches', collection_id: c.id })).body;
    for (const ts of ['2024-01-10T00:00:00Z', '2024-03-10T00:00:00Z']) {
      await admin.post('/api/timeline-event', { name: ts, timeline_id: timeline.id, timestamp: ts, timezone: 'UTC' });
    }
    const all = (await admin.get(`/api/card/${card.id}/timelines`, { query: { include: 'events' } })).body;
    assert.equal(all.length, 1);
    assert.equal(all[0].events.length, 2);
    const some = (await admin.get(`/api/card/${card.id}/timelines`, { query: { include: 'events', start: '2024-02-01', end: '2024-12-31' } })).body;
    assert.deepEqual(some[0].events.map((e: any) => e.timestamp), ['2024-03-10T00:00:00Z']);
    assert.equal((await admin.get(`/api/card/${card.id}/timelines`, { query: { start: 'yesterday-ish' } })).status, 400);
  });

  test('series: compatible cards, newest first, by name, with a cursor', async () => {
    const metadata = [
      { name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime', source: 'breakout' },
      { name: 'count', display_name: 'Count', base_type: 'type/BigInteger', source: 'aggregation' },
    ];
    const base = await createCard(admin, data, { display: 'line', result_metadata: metadata, dataset_query: mbql(data, { aggregation: [['count']] }) });
    const tag = uniqueName('series');
    const s1 = await createCard(admin, data, { name: `${tag} one`, display: 'bar', result_metadata: metadata });
    const s2 = await createCard(admin, data, { name: `${tag} two`, display: 'line', result_metadata: metadata });
    await createCard(admin, data, { name: `${tag} table`, display: 'table', result_metadata: metadata });
    await createCard(admin, data, {
      name: `${tag} text dims`,
      display: 'bar',
      result_metadata: [{ name: 'CAT', base_type: 'type/Text', source: 'breakout' }, metadata[1]],
    });
    const found = (await admin.get(`/api/card/${base.id}/series`, { query: { query: tag } })).body;
    assert.deepEqual(found.map((c: any) => c.id), [s2.id, s1.id]);
    const next = (await admin.get(`/api/card/${base.id}/series`, { query: { query: tag, last_cursor: s2.id } })).body;
    assert.deepEqual(next.map((c: any) => c.id), [s1.id]);
    const excluded = (await admin.get(`/api/card/${base.id}/series`, { query: { query: tag, exclude_ids: [s1.id] } })).body;
    assert.deepEqual(excluded.map((c: any) => c.id), [s2.id]);
    const table = await createCard(admin, data, { display: 'table' });
    const refused = await admin.get(`/api/card/${table.id}/series`);
    assert.equal(refused.status, 400);
    assert.equal(refused.text, 'Card with type table is not compatible to have series');
  });
});
