// Data permissions, enforced on every path: an admin restricts a group to the query builder on one schema of a
// PostgreSQL warehouse and to nothing on the Sample Database, and ad-hoc queries (tables, joins, implicit joins,
// native SQL, saved questions as sources, {{#N}} cards), saved cards, metadata, search, autocomplete, field values,
// downloads (limited to 10,000 rows, or none) and blocked data all honour it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { waitForSync } from '../databases/helpers.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';

const DENIED = { status: 'failed', error: 'You do not have permissions to run this query.', error_type: 'missing-required-permissions' };

async function createWarehouse() {
  const db = await createPgDatabase('quarry_perm');
  const c = new pg.Client({ ...PG, database: db.name });
  await c.connect();
  await c.query(`
    CREATE SCHEMA sales;
    CREATE SCHEMA hr;
    CREATE TABLE sales.customers (id integer PRIMARY KEY, name text);
    CREATE TABLE sales.orders (id integer PRIMARY KEY, amount integer, customer_id integer REFERENCES sales.customers(id));
    CREATE TABLE hr.salaries (id integer PRIMARY KEY, amount integer, secret text, customer_id integer REFERENCES sales.customers(id));
    ALTER TABLE sales.customers ADD COLUMN salary_id integer REFERENCES hr.salaries(id);
    INSERT INTO sales.customers VALUES (1, 'Ada'), (2, 'Grace');
    INSERT INTO sales.orders VALUES (1, 10, 1), (2, 20, 2), (3, 30, 1);
    INSERT INTO hr.salaries VALUES (1, 100000, 'top secret', 1), (2, 90000, 'classified', 2);
  `);
  await c.end();
  return db;
}

forEachAppDb('data permissions enforcement', (server) => {
  let admin: Client;
  let analyst: Client;
  let nobody: Client;
  let native: Client;
  let downloader: Client;
  let warehouse: { name: string; drop(): Promise<void> };
  let wh: number;
  let sample: Sample;
  const t: Record<string, number> = {};
  const f: Record<string, number> = {};
  const groups: Record<string, number> = {};
  let hrCard: any;
  let salesCard: any;
  let secretCard: any;

  const mbql = (table: number, inner: Record<string, unknown> = {}) => ({ database: wh, type: 'query', query: { 'source-table': table, ...inner } });

  async function putGraph(groupsPart: Record<string, unknown>) {
    const { revision } = (await admin.get('/api/permissions/graph')).body;
    const response = await admin.put('/api/permissions/graph', { revision, groups: groupsPart }, { query: { 'skip-graph': 'true' } });
    assert.equal(response.status, 200, response.text);
  }

  async function groupUser(name: string): Promise<Client> {
    const group = (await admin.post('/api/permissions/group', { name: uniqueName(name) })).body;
    groups[name] = group.id;
    const { client, user } = await createUserClient(server(), admin);
    assert.equal((await admin.post('/api/permissions/membership', { group_id: group.id, user_id: user.id })).status, 200);
    return client;
  }

  async function card(name: string, datasetQuery: unknown, collectionId: number | null = null) {
    const response = await admin.post('/api/card', { name: uniqueName(name), display: 'table', visualization_settings: {}, dataset_query: datasetQuery, collection_id: collectionId });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  before(async () => {
    admin = await setupAdmin(server());
    warehouse = await createWarehouse();
    const created = await admin.post('/api/database', { engine: 'postgres', name: 'Warehouse', details: { host: PG.host, port: PG.port, dbname: warehouse.name, user: PG.user, ...(PG.password ? { password: PG.password } : {}) } });
    assert.equal(created.status, 200, created.text);
    wh = created.body.id;
    await waitForSync(admin, wh);
    sample = await installSample(admin);
    const metadata = (await admin.get(`/api/database/${wh}/metadata`)).body;
    for (const table of metadata.tables) {
      t[table.name] = table.id;
      for (const field of table.fields) f[`${table.name}.${field.name}`] = field.id;
    }
    analyst = await groupUser('Analysts');
    native = await groupUser('Natives');
    downloader = await groupUser('Downloaders');
    nobody = (await createUserClient(server(), admin)).client;

    // All Users: no queries anywhere. Analysts: the query builder on the sales schema only (limited downloads).
    await putGraph({
      1: { [wh]: { 'create-queries': 'no', download: { schemas: 'none' } }, [sample.id]: { 'create-queries': 'no', download: { schemas: 'none' } } },
      [groups.Analysts]: { [wh]: { 'create-queries': { sales: 'query-builder' }, download: { schemas: { sales: 'limited' } } } },
      [groups.Natives]: { [wh]: { 'create-queries': 'query-builder-and-native', download: { schemas: 'full' } } },
      [groups.Downloaders]: { [sample.id]: { 'create-queries': 'query-builder', download: { schemas: 'limited' } } },
    });

    const privateCollection = (await admin.post('/api/collection', { name: uniqueName('Private') })).body;
    const cg = (await admin.get('/api/collection/graph')).body;
    assert.equal((await admin.put('/api/collection/graph', { revision: cg.revision, groups: { 1: { [privateCollection.id]: 'none' } } })).status, 200);
    hrCard = await card('Salaries', mbql(t.salaries, { aggregation: [['sum', ['field', f['salaries.amount'], null]]] }));
    salesCard = await card('Orders', mbql(t.orders));
    secretCard = await card('Secret orders', mbql(t.orders), privateCollection.id);
  });

  after(async () => {
    await warehouse?.drop();
  });

  test('the graph shows the restriction sparsely', async () => {
    const g = (await admin.get(`/api/permissions/graph/group/${groups.Analysts}`)).body.groups[String(groups.Analysts)];
    assert.deepEqual(g[String(wh)], { 'view-data': 'unrestricted', 'create-queries': { sales: 'query-builder' }, download: { schemas: { sales: 'limited' } } });
    assert.deepEqual(g[String(sample.id)], { 'view-data': 'unrestricted' });
  });

  test('metadata: only the sales schema of the warehouse, nothing of the other database', async () => {
    const list = (await analyst.get('/api/database')).body.data.map((d: any) => d.id);
    assert.ok(list.includes(wh) && !list.includes(sample.id));
    const db = (await analyst.get(`/api/database/${wh}`)).body;
    assert.equal(db.native_permissions, 'none');
    assert.equal(db['can-manage'], false);
    assert.equal(db.details, undefined);
    assert.equal((await analyst.get(`/api/database/${sample.id}`)).status, 403);
    assert.equal((await analyst.get(`/api/database/${sample.id}/metadata`)).status, 403);
    const md = (await analyst.get(`/api/database/${wh}/metadata`)).body;
    assert.deepEqual(md.tables.map((x: any) => x.name).sort(), ['customers', 'orders']);
    assert.deepEqual((await analyst.get(`/api/database/${wh}/schemas`)).body, ['sales']);
    assert.equal((await analyst.get(`/api/database/${wh}/schema/hr`)).status, 403);
    assert.equal((await analyst.get(`/api/database/${wh}/schema/sales`)).body.length, 2);
    const tables = (await analyst.get('/api/table')).body.map((x: any) => x.id);
    assert.ok(tables.includes(t.orders) && !tables.includes(t.salaries) && !tables.includes(sample.table('ORDERS')));
    for (const path of [`/api/table/${t.salaries}`, `/api/table/${t.salaries}/query_metadata`, `/api/table/${t.salaries}/fks`, `/api/field/${f['salaries.secret']}`, `/api/field/${f['salaries.secret']}/values`, `/api/field/${f['salaries.secret']}/summary`]) {
      const response = await analyst.get(path);
      assert.equal(response.status, 403, path);
      assert.ok(!response.text.includes('secret'), path);
    }
    assert.equal((await analyst.get(`/api/table/${t.orders}/query_metadata`)).status, 200);
    // keys from and into tables they can't query don't show those tables
    const fromHr = (list: any[]) => list.filter((fk) => fk.origin.table_id === t.salaries).length;
    assert.equal(fromHr((await admin.get(`/api/table/${t.customers}/fks`)).body), 1);
    assert.equal(fromHr((await analyst.get(`/api/table/${t.customers}/fks`)).body), 0);
    const customers = (await analyst.get(`/api/table/${t.customers}/query_metadata`)).body;
    assert.equal(fromHr(customers.fks), 0);
    assert.equal(customers.fields.find((x: any) => x.id === f['customers.salary_id']).target, null);
    assert.ok(!JSON.stringify(customers).includes('"salaries"'));
    const adminCustomers = (await admin.get(`/api/table/${t.customers}/query_metadata`)).body;
    assert.equal(adminCustomers.fields.find((x: any) => x.id === f['customers.salary_id']).target.table.name, 'salaries');
    // fields of such tables named in a query aren't described either
    const described = (await analyst.post('/api/dataset/query_metadata', mbql(t.orders, { fields: [['field', f['salaries.secret'], null]] }))).body;
    assert.ok(!described.fields.some((x: any) => x.id === f['salaries.secret']), JSON.stringify(described.fields));
    assert.ok((await admin.post('/api/dataset/query_metadata', mbql(t.orders, { fields: [['field', f['salaries.secret'], null]] }))).body.fields.some((x: any) => x.id === f['salaries.secret']));
    const search = (await analyst.get('/api/search', { query: { q: 'salaries' } })).body.data;
    assert.ok(!search.some((r: any) => r.model === 'table'), 'no hr tables in search');
    assert.ok((await analyst.get('/api/search', { query: { q: 'orders', models: 'table' } })).body.data.some((r: any) => r.id === t.orders));
    const suggestions = (await analyst.get(`/api/database/${wh}/autocomplete_suggestions`, { query: { prefix: 's' } })).body;
    assert.ok(!suggestions.some((s: string[]) => s[0] === 'salaries' || s[0] === 'secret'), JSON.stringify(suggestions));
    assert.equal((await analyst.get(`/api/database/${sample.id}/autocomplete_suggestions`, { query: { prefix: 'o' } })).status, 403);
    const values = await analyst.post('/api/dataset/parameter/values', { parameter: { id: 'p', type: 'category' }, field_ids: [f['salaries.secret']] });
    assert.equal(values.status, 403);
    // tables others viewed don't show up among the popular items of someone who can't query them
    await admin.get(`/api/table/${t.salaries}`);
    const popular = (await analyst.get('/api/activity/popular_items')).body.popular_items;
    assert.ok(!popular.some((i: any) => i.model === 'table' && i.id === t.salaries), JSON.stringify(popular));
    assert.equal((await analyst.post('/api/activity/recents', { model: 'table', model_id: t.salaries, context: 'selection' })).status, 403);
    // the user whose groups have no data access sees no database at all
    assert.deepEqual((await nobody.get('/api/database')).body.data, []);
    assert.deepEqual((await nobody.get('/api/table')).body, []);
  });

  test('ad-hoc queries: the allowed schema runs; other tables, joins into them, SQL and the other database do not', async () => {
    const run = (client: Client, query: unknown) => client.post('/api/dataset', query);
    const ok = await run(analyst, mbql(t.orders, { aggregation: [['count']] }));
    assert.equal(ok.body.status, 'completed', ok.text);
    assert.equal(ok.body.data.rows[0][0], 3);
    const implicit = await run(analyst, mbql(t.orders, { breakout: [['field', f['customers.name'], { 'source-field': f['orders.customer_id'] }]], aggregation: [['count']] }));
    assert.equal(implicit.body.status, 'completed', implicit.text);
    for (const query of [
      mbql(t.salaries),
      mbql(t.orders, { joins: [{ 'source-table': t.salaries, alias: 'S', condition: ['=', ['field', f['orders.id'], null], ['field', f['salaries.id'], { 'join-alias': 'S' }]] }] }),
      mbql(t.orders, { filter: ['=', ['field', f['salaries.secret'], { 'source-field': f['orders.customer_id'] }], 'x'] }),
      { database: wh, type: 'native', native: { query: 'SELECT * FROM hr.salaries' } },
      // a field of a table the query doesn't read: refused before any message could name it
      mbql(t.orders, { fields: [['field', f['salaries.secret'], null]] }),
    ]) {
      const denied = await run(analyst, query);
      assert.equal(denied.status, 202);
      assert.equal(denied.body.status, 'failed');
      assert.equal(denied.body.error_type, 'missing-required-permissions', denied.text);
      assert.equal(denied.body.error, DENIED.error);
      assert.ok(!denied.text.includes('top secret') && !denied.text.includes('100000') && !denied.text.includes('secret'), denied.text);
    }
    const otherDb = await run(analyst, { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS') } });
    assert.equal(otherDb.status, 403);
    assert.equal((await run(nobody, mbql(t.orders))).status, 403);
    const compiled = await analyst.post('/api/dataset/native', mbql(t.salaries));
    assert.equal(compiled.status, 400, 'no SQL of a table the caller may not query');
    assert.equal(compiled.body.error_type, 'missing-required-permissions');
    const sql = await native.post('/api/dataset', { database: wh, type: 'native', native: { query: 'SELECT count(*) FROM hr.salaries' } });
    assert.equal(sql.body.status, 'completed', sql.text);
  });

  test('saved questions: run for anyone who can read them; ad-hoc use needs their collection; parameters stay in the card', async () => {
    for (const client of [analyst, nobody]) {
      const result = await client.post(`/api/card/${hrCard.id}/query`);
      assert.equal(result.body.status, 'completed', result.text);
      assert.equal(result.body.data.rows[0][0], 190000);
    }
    assert.equal((await analyst.get(`/api/card/${hrCard.id}`)).body.can_run_adhoc_query, false);
    assert.equal((await analyst.get(`/api/card/${salesCard.id}`)).body.can_run_adhoc_query, true);
    assert.equal((await analyst.get(`/api/card/${secretCard.id}`)).status, 403);
    // a saved question as a source: its collection decides
    const viaCard = await analyst.post('/api/dataset', { database: -1337, type: 'query', query: { 'source-table': `card__${hrCard.id}`, aggregation: [['count']] } });
    assert.equal(viaCard.body.status, 'completed', viaCard.text);
    const viaSecret = await analyst.post('/api/dataset', { database: -1337, type: 'query', query: { 'source-table': `card__${secretCard.id}` } });
    assert.equal(viaSecret.status, 403);
    // …but a saved question built on it runs for whoever may read the saved question itself
    const onSecret = await card('On the secret one', { database: wh, type: 'query', query: { 'source-table': `card__${secretCard.id}`, aggregation: [['count']] } });
    const runOnSecret = await analyst.post(`/api/card/${onSecret.id}/query`);
    assert.equal(runOnSecret.body.status, 'completed', runOnSecret.text);
    assert.equal(runOnSecret.body.data.rows[0][0], 3);
    const tag = (id: number) => ({ database: wh, type: 'native', native: { query: `SELECT count(*) FROM {{#${id}}} c`, 'template-tags': { [`#${id}`]: { id: `t${id}`, name: `#${id}`, 'display-name': `#${id}`, type: 'card', 'card-id': id } } } });
    assert.equal((await native.post('/api/dataset', tag(secretCard.id))).status, 403, '{{#N}} of an unreadable card');
    assert.equal((await native.post('/api/dataset', tag(salesCard.id))).body.status, 'completed');
    // a parameter aimed at a table outside the card is refused, not run
    const oracle = await analyst.post(`/api/card/${salesCard.id}/query`, {
      parameters: [{ id: 'x', type: 'category', value: 'top secret', target: ['dimension', ['field', f['salaries.secret'], { 'source-field': f['orders.customer_id'] }]] }],
    });
    assert.equal(oracle.body.error_type, 'missing-required-permissions', oracle.text);
    // saving a query needs permission to run it ad hoc
    assert.equal((await analyst.post('/api/card', { name: 'x', display: 'table', visualization_settings: {}, dataset_query: mbql(t.salaries) })).status, 403);
  });

  test('dashboard filters wired by the dashboard run for whoever may view the card, through joins too; blocked tables stay out', async () => {
    const dashboard = (await admin.post('/api/dashboard', { name: uniqueName('dash'), parameters: [{ id: 'who', name: 'Who', slug: 'who', type: 'string/=' }] })).body;
    const target = ['dimension', ['field', f['customers.name'], { 'source-field': f['orders.customer_id'] }]];
    const put = await admin.put(`/api/dashboard/${dashboard.id}`, {
      dashcards: [{ id: -1, card_id: salesCard.id, row: 0, col: 0, size_x: 4, size_y: 4, parameter_mappings: [{ parameter_id: 'who', card_id: salesCard.id, target }] }],
    });
    assert.equal(put.status, 200, put.text);
    const dashcard = put.body.dashcards[0].id;
    // `nobody` may view the warehouse's data but not query it (create-queries: no)
    const filtered = await nobody.post(`/api/dashboard/${dashboard.id}/dashcard/${dashcard}/card/${salesCard.id}/query`, { parameters: [{ id: 'who', value: ['Ada'] }] });
    assert.equal(filtered.body.status, 'completed', filtered.text);
    assert.deepEqual(filtered.body.data.rows.map((r: unknown[]) => r[0]).sort(), [1, 3], "Ada's orders");
    // the same target sent by the caller on the card itself is their own filter: refused
    const own = await nobody.post(`/api/card/${salesCard.id}/query`, { parameters: [{ id: 'who', type: 'string/=', value: ['Ada'], target }] });
    assert.equal(own.body.error_type, 'missing-required-permissions', own.text);
    // a mapping into a table whose data is blocked for them stays refused
    await putGraph({ 1: { [wh]: { 'view-data': { sales: { [t.customers]: 'blocked', [t.orders]: 'unrestricted' } } } } });
    const blocked = await nobody.post(`/api/dashboard/${dashboard.id}/dashcard/${dashcard}/card/${salesCard.id}/query`, { parameters: [{ id: 'who', value: ['Ada'] }] });
    assert.equal(blocked.body.error_type, 'missing-required-permissions', blocked.text);
    await putGraph({ 1: { [wh]: { 'view-data': 'unrestricted' } } });
    assert.equal((await nobody.post(`/api/dashboard/${dashboard.id}/dashcard/${dashcard}/card/${salesCard.id}/query`, { parameters: [] })).body.status, 'completed');
  });

  test('snippets are for those who may write SQL somewhere', async () => {
    const snippet = await admin.post('/api/native-query-snippet', { name: uniqueName('snip'), content: 'hr.salaries' });
    assert.equal(snippet.status, 200, snippet.text);
    assert.deepEqual((await analyst.get('/api/native-query-snippet')).body, []);
    assert.equal((await analyst.get(`/api/native-query-snippet/${snippet.body.id}`)).status, 403);
    assert.equal((await analyst.post('/api/native-query-snippet', { name: uniqueName('mine'), content: 'x' })).status, 403);
    assert.ok((await native.get('/api/native-query-snippet')).body.some((x: any) => x.id === snippet.body.id));
  });

  test('downloads: limited stops at 10,000 rows, none is refused', async () => {
    const orders = { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), fields: [['field', sample.field('ORDERS', 'ID'), null]] } };
    const csv = await downloader.post('/api/dataset/csv', { query: JSON.stringify(orders) });
    assert.equal(csv.status, 200, csv.text.slice(0, 200));
    assert.equal(csv.text.trim().split('\n').length, 10_001);
    const adminCsv = await admin.post('/api/dataset/csv', { query: JSON.stringify(orders) });
    assert.equal(adminCsv.text.trim().split('\n').length, 18_761);
    const salesCsv = await analyst.post('/api/dataset/csv', { query: JSON.stringify(mbql(t.orders)) });
    assert.equal(salesCsv.status, 200);
    // The UI decides whether to offer a download button from data.download_perms.
    assert.equal((await downloader.post('/api/dataset', orders)).body.data.download_perms, 'limited');
    assert.equal((await admin.post('/api/dataset', orders)).body.data.download_perms, 'full');
    await putGraph({ [groups.Downloaders]: { [sample.id]: { download: { schemas: 'none' } } } });
    const refused = await downloader.post('/api/dataset/csv', { query: JSON.stringify(orders) });
    assert.equal(refused.status, 403);
    assert.equal(refused.text, 'You do not have permissions to download the results of this query.');
    const viewed = await downloader.post('/api/dataset', orders);
    assert.equal(viewed.body.status, 'completed', 'viewing is still allowed');
    assert.equal(viewed.body.data.download_perms, 'none');
  });

  test('filter values are no way around permissions: sources, wiring and blocked data', async () => {
    // a filter whose values come from a saved question the caller can't read
    const own = (await analyst.get('/api/user/current')).body.personal_collection_id;
    const viaCard = (await analyst.post('/api/dashboard', {
      name: uniqueName('Sourced'), collection_id: own,
      parameters: [{ id: 's', name: 'S', slug: 's', type: 'category', values_source_type: 'card', values_source_config: { card_id: secretCard.id, value_field: ['field', f['orders.amount'], null] } }],
    })).body;
    assert.equal((await analyst.get(`/api/dashboard/${viaCard.id}/params/s/values`)).status, 403);
    const cardFilter = await analyst.post('/api/card', {
      name: uniqueName('Sourced card'), display: 'table', visualization_settings: {}, collection_id: own, dataset_query: mbql(t.orders),
      parameters: [{ id: 'x', name: 'X', slug: 'x', type: 'category', values_source_type: 'card', values_source_config: { card_id: secretCard.id, value_field: ['field', f['orders.amount'], null] } }],
    });
    assert.equal(cardFilter.status, 200, cardFilter.text);
    assert.equal((await analyst.get(`/api/card/${cardFilter.body.id}/params/x/values`)).status, 403);
    assert.equal((await admin.get(`/api/card/${cardFilter.body.id}/params/x/values`)).status, 200);

    // wiring a filter to a field of a table the caller can't query is refused, even on a card they may query
    const mine = (await analyst.post('/api/dashboard', { name: uniqueName('Wired'), collection_id: own, parameters: [{ id: 'p', name: 'P', slug: 'p', type: 'category' }] })).body;
    const wire = (target: unknown) => analyst.put(`/api/dashboard/${mine.id}`, {
      dashcards: [{ id: -1, card_id: salesCard.id, row: 0, col: 0, size_x: 4, size_y: 4, parameter_mappings: [{ parameter_id: 'p', card_id: salesCard.id, target }] }],
    });
    const secret = await wire(['dimension', ['field', f['salaries.secret'], null]]);
    assert.equal(secret.status, 403, secret.text);
    assert.equal(secret.text, 'You must have data permissions to add a parameter referencing the Table "salaries".');
    assert.equal((await wire(['dimension', ['field', f['salaries.secret'], { 'source-field': f['orders.customer_id'] }]])).status, 403);
    assert.equal((await wire(['dimension', ['field', f['orders.amount'], null]])).status, 200, 'a field they may query');

    // an admin's dashboard wired into hr: once hr is blocked for them, its values are not offered
    const adminDash = (await admin.post('/api/dashboard', { name: uniqueName('HR filter'), parameters: [{ id: 'h', name: 'H', slug: 'h', type: 'category' }] })).body;
    const put = await admin.put(`/api/dashboard/${adminDash.id}`, {
      dashcards: [{ id: -1, card_id: hrCard.id, row: 0, col: 0, size_x: 4, size_y: 4, parameter_mappings: [{ parameter_id: 'h', card_id: hrCard.id, target: ['dimension', ['field', f['salaries.secret'], null]] }] }],
    });
    assert.equal(put.status, 200, put.text);
    const offered = async () => (await analyst.get(`/api/dashboard/${adminDash.id}/params/h/values`)).body.values.map((v: unknown[]) => v[0]).sort();
    assert.deepEqual(await offered(), ['classified', 'top secret'], 'viewable: the dashboard offers them');
    const blocked = { 'view-data': { sales: 'unrestricted', hr: 'blocked' } };
    await putGraph({ 1: { [wh]: blocked }, [groups.Analysts]: { [wh]: blocked } });
    assert.deepEqual(await offered(), []);
    const shown = (await analyst.get(`/api/dashboard/${adminDash.id}`)).body;
    assert.ok(!JSON.stringify(shown.param_values ?? {}).includes('secret'), JSON.stringify(shown.param_values));
    assert.deepEqual(shown.param_fields ?? {}, {});
    await putGraph({ 1: { [wh]: { 'view-data': 'unrestricted' } }, [groups.Analysts]: { [wh]: { 'view-data': 'unrestricted' } } });
  });

  test('blocked data stops even saved questions; details permission shows connection details', async () => {
    const blocked = { 'view-data': { sales: 'unrestricted', hr: 'blocked' } };
    await putGraph({ 1: { [wh]: blocked }, [groups.Analysts]: { [wh]: { ...blocked, details: 'yes' } } });
    const result = await analyst.post(`/api/card/${hrCard.id}/query`);
    assert.deepEqual({ status: result.body.status, error_type: result.body.error_type }, { status: 'failed', error_type: 'missing-required-permissions' });
    assert.equal((await analyst.post(`/api/card/${salesCard.id}/query`)).body.status, 'completed');
    assert.equal((await admin.post(`/api/card/${hrCard.id}/query`)).body.status, 'completed');
    const db = (await analyst.get(`/api/database/${wh}`)).body;
    assert.equal(db['can-manage'], true);
    assert.equal(db.details.dbname, warehouse.name);
    const g = (await admin.get(`/api/permissions/graph/db/${wh}`)).body.groups[String(groups.Analysts)][String(wh)];
    assert.deepEqual(g['view-data'], { hr: 'blocked', sales: 'unrestricted' });
    assert.equal(g.details, 'yes');
  });
});
