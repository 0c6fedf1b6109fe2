// POST /api/card/from-csv: a realistic CSV becomes a table with inferred types and a model over it; bad files are
// refused with a clear 400 and leave nothing behind.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCollection } from '../cards/fixtures.js';
import { postCsv } from '../endpoints/helpers.js';
import { createMysqlDatabase, createPgDatabase, MYSQL, PG } from '../helpers/databases.js';
import { createConnection } from 'mysql2/promise';

function upload(client: Client, filename: string, content: string | Buffer, collectionId?: number | string) {
  return postCsv(client, '/api/card/from-csv', filename, content, collectionId === undefined ? {} : { collection_id: String(collectionId) });
}

const REALISTIC = [
  'Order ID,Customer,Ordered On,Shipped At,Amount,Paid,Notes,Discount',
  '1,"Smith, John",2024-01-15,2024-01-16 10:30:00,1234.50,true,"Said ""hi""",',
  '2,Ana Müller,2024-02-01,2024-02-03T08:00:00,99.99,false,,0.1',
  '3,"O\'Brien, Pat",2024-03-10,,12,yes,"multi',
  'line note",0.25',
  '4,Li Wei,2024-04-22,2024-04-23 17:45:10,0.5,no,,',
].join('\n');

forEachAppDb('csv uploads', (server) => {
  let admin: Client;

  before(async () => {
    admin = await setupAdmin(server());
  });

  async function tablesNamed(prefix: string) {
    return server().ctx.db.selectFrom('metabase_table').select(['id', 'name']).where('name', 'like', `${prefix}%`).execute();
  }

  test('a rejected first upload makes nothing, not even the embedded uploads database', async () => {
    const bad = await upload(admin, 'first.csv', 'a,b\n1,"unclosed\n2,3\n');
    assert.equal(bad.status, 400);
    const databases = (await admin.get('/api/database')).body.data.map((d: any) => d.name);
    assert.ok(!databases.includes('Uploads'), `no uploads database yet: ${databases}`);
  });

  test('garbage and broken quoting are refused with clear messages', async () => {
    const nul = await upload(admin, 'binary.csv', Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0x00, 0x01, 0x2c, 0x00, 0x0a]));
    assert.equal(nul.status, 400);
    assert.match(nul.text, /NUL|binary/i);
    const unclosed = await upload(admin, 'quotes.csv', 'name,note\nA,"never closed\nB,fine\n');
    assert.equal(unclosed.status, 400);
    assert.doesNotMatch(unclosed.text, /separator/i);
    assert.match(unclosed.text, /quote/i);
    assert.match(unclosed.text, /line 2/);
  });

  test('integers beyond 64 bits keep every digit', async () => {
    const response = await upload(admin, 'big numbers.csv', 'id,big,mixed\n1,123456789012345678901234567890,5\n2,7,98765432109876543210\n');
    assert.equal(response.status, 200, response.text);
    const model = (await admin.get(`/api/card/${response.body}`)).body;
    const fields = Object.fromEntries((await admin.get(`/api/table/${model.table_id}/query_metadata`)).body.fields.map((f: any) => [f.name, f]));
    assert.match(fields.id.base_type, /Integer/);
    const result = await admin.post(`/api/card/${model.id}/query`);
    assert.equal(result.body.status, 'completed', JSON.stringify(result.body.error));
    const cols = result.body.data.cols.map((c: any) => c.name);
    const rows = result.body.data.rows.map((r: unknown[]) => Object.fromEntries(cols.map((n: string, i: number) => [n, r[i]])));
    const byId = new Map(rows.map((r: any) => [r.id, r]));
    assert.equal(String((byId.get(1) as any).big), '123456789012345678901234567890');
    assert.equal(String((byId.get(2) as any).mixed), '98765432109876543210');
    assert.equal(String((byId.get(2) as any).big), '7');
  });

  test('a realistic CSV becomes a typed, synced table and a model in the chosen collection', async () => {
    const c = await createCollection(admin);
    const response = await upload(admin, 'Q1 orders.csv', REALISTIC, c.id);
    assert.equal(response.status, 200, response.text);
    const modelId = response.body;
    assert.equal(typeof modelId, 'number');
    const tableId = Number(response.headers.get('metabase-table-id'));
    assert.ok(tableId > 0);

    const model = (await admin.get(`/api/card/${modelId}`)).body;
    assert.equal(model.type, 'model');
    assert.equal(model.name, 'Q1 Orders');
    assert.equal(model.collection_id, c.id);
    assert.equal(model.table_id, tableId);
    assert.equal(model.based_on_upload, tableId);
    assert.deepEqual(model.dataset_query.query, { 'source-table': tableId });

    const table = (await admin.get(`/api/table/${tableId}/query_metadata`)).body;
    assert.equal(table.display_name, 'Q1 Orders');
    assert.match(table.name, /^q1_orders_\d{14}$/);
    assert.equal(table.is_upload, true);
    const fields = Object.fromEntries(table.fields.map((f: any) => [f.name, f]));
    assert.deepEqual(Object.keys(fields).sort(), ['_mb_row_id', 'amount', 'customer', 'discount', 'notes', 'order_id', 'ordered_on', 'paid', 'shipped_at'].sort());
    assert.equal(fields.order_id.display_name, 'Order ID');
    assert.equal(fields.ordered_on.display_name, 'Ordered On');
    assert.match(fields.order_id.base_type, /Integer/);
    assert.match(fields.amount.base_type, /Float|Decimal/);
    assert.match(fields.discount.base_type, /Float|Decimal/);
    assert.equal(fields.ordered_on.base_type, 'type/Date');
    assert.match(fields.shipped_at.base_type, /DateTime/);
    assert.equal(fields.paid.base_type, 'type/Boolean');
    assert.equal(fields.customer.base_type, 'type/Text');

    const result = await admin.post(`/api/card/${modelId}/query`);
    assert.equal(result.status, 202);
    assert.equal(result.body.status, 'completed', JSON.stringify(result.body.error));
    assert.equal(result.body.row_count, 4);
    const cols = result.body.data.cols.map((col: any) => col.name);
    const rows = result.body.data.rows.map((r: unknown[]) => Object.fromEntries(cols.map((n: string, i: number) => [n, r[i]])));
    const first = rows.find((r: any) => r.order_id === 1);
    assert.equal(first.customer, 'Smith, John');
    assert.equal(first.amount, 1234.5);
    assert.equal(first.paid, true);
    assert.equal(first.notes, 'Said "hi"');
    assert.equal(first.discount, null);
    assert.match(first.ordered_on, /^2024-01-15/);
    const third = rows.find((r: any) => r.order_id === 3);
    assert.equal(third.shipped_at, null);
    assert.equal(third.notes, 'multi\nline note');
    assert.equal(third.paid, true);
    assert.equal(rows.find((r: any) => r.order_id === 2).customer, 'Ana Müller');
  });

  test('semicolon and tab separated files, a BOM, blank and duplicate headers, the root collection', async () => {
    const semicolon = await upload(admin, 'semi.csv', '\ufeffname;value;value\nA;1,5;x\nB;2;y', 'root');
    assert.equal(semicolon.status, 200, semicolon.text);
    const model = (await admin.get(`/api/card/${semicolon.body}`)).body;
    assert.equal(model.collection_id, null);
    const fields = (await admin.get(`/api/table/${model.table_id}/query_metadata`)).body.fields.map((f: any) => f.name).sort();
    assert.deepEqual(fields, ['_mb_row_id', 'name', 'value', 'value_2']);
    const tsv = await upload(admin, 'tabs.tsv', 'a\t\tb\n1\t2\t3');
    assert.equal(tsv.status, 200, tsv.text);
    const tsvFields = (await admin.get(`/api/table/${(await admin.get(`/api/card/${tsv.body}`)).body.table_id}/query_metadata`)).body.fields.map((f: any) => f.name).sort();
    assert.deepEqual(tsvFields, ['_mb_row_id', 'a', 'b', 'unnamed_column']);
  });

  test('a long file name and long headers give names cut to their 254-character columns', async () => {
    const long = 'h'.repeat(300);
    const response = await upload(admin, `${'f'.repeat(300)}.csv`, `${long}a,${long}b\n1,2\n`);
    assert.equal(response.status, 200, response.text);
    const model = (await admin.get(`/api/card/${response.body}`)).body;
    assert.equal(model.name, `F${'f'.repeat(253)}`);
    const table = (await admin.get(`/api/table/${model.table_id}/query_metadata`)).body;
    assert.equal(table.display_name, model.name);
    const labels = table.fields.filter((f: any) => f.name !== '_mb_row_id').map((f: any) => f.display_name).sort();
    assert.deepEqual(labels, [`H${'h'.repeat(243)}`, `H${'h'.repeat(243)} 2`], 'cut, and still told apart');
  });

  test('bad files: non-UTF-8, empty, ragged rows, wrong type — 400 and nothing half-created', async () => {
    const before = (await tablesNamed('latin')).length;
    const latin1 = Buffer.from('name,city\nJos\xe9,S\xe3o Paulo\n', 'latin1');
    const notUtf8 = await upload(admin, 'latin.csv', latin1);
    assert.equal(notUtf8.status, 400);
    assert.match(notUtf8.text, /UTF-8/);
    assert.equal((await tablesNamed('latin')).length, before);

    const empty = await upload(admin, 'empty.csv', '');
    assert.equal(empty.status, 400);
    const ragged = await upload(admin, 'ragged.csv', 'a,b\n1,2\n3,4,5\n');
    assert.equal(ragged.status, 400);
    assert.match(ragged.text, /Row 3/);
    assert.equal((await tablesNamed('ragged')).length, 0);
    const pdf = await upload(admin, 'report.pdf', 'a,b\n1,2');
    assert.equal(pdf.status, 415);
    const models = (await admin.get('/api/card', { query: { f: 'all' } })).body.filter((c: any) => /^(Latin|Ragged|Empty|Report)$/.test(c.name));
    assert.deepEqual(models, []);
  });

  test('request errors and permissions', async () => {
    const noFile = await fetch(admin.url('/api/card/from-csv'), { method: 'POST', headers: { 'X-Metabase-Session': admin.session! }, body: new FormData() });
    assert.equal(noFile.status, 400);
    const notMultipart = await admin.post('/api/card/from-csv', { file: 'a,b' });
    assert.equal(notMultipart.status, 400);
    const badCollection = await upload(admin, 'x.csv', 'a\n1', 'abc');
    assert.equal(badCollection.status, 400);
    const missingCollection = await upload(admin, 'x.csv', 'a\n1', 987654);
    assert.equal(missingCollection.status, 404);
    assert.equal((await upload(server().anon, 'x.csv', 'a\n1')).status, 401);

    const c = await createCollection(admin);
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [c.id]: 'read' } } });
    const { client } = await createUserClient(server(), admin);
    const denied = await upload(client, 'denied.csv', 'a\n1', c.id);
    assert.equal(denied.status, 403);
    assert.equal((await tablesNamed('denied')).length, 0);
  });

  test('uploads-settings points uploads at a PostgreSQL database with a schema and table prefix', async () => {
    const warehouse = await createPgDatabase('quarry_uploads');
    try {
      const db = await admin.post('/api/database', {
        engine: 'postgres',
        name: 'Upload warehouse',
        details: { host: PG.host, port: PG.port, dbname: warehouse.name, user: PG.user, ...(PG.password ? { password: PG.password } : {}) },
      });
      assert.equal(db.status, 200, db.text);
      const set = await admin.put('/api/setting/uploads-settings', { value: { db_id: db.body.id, schema_name: 'public', table_prefix: 'up_' } });
      assert.equal(set.status, 204, set.text);
      assert.deepEqual((await admin.get('/api/setting/uploads-settings')).body, { db_id: db.body.id, schema_name: 'public', table_prefix: 'up_' });
      const response = await upload(admin, 'sales.csv', 'region,amount,day\nNorth,10.5,2024-01-01\nSouth,7,2024-01-02\n');
      assert.equal(response.status, 200, response.text);
      const model = (await admin.get(`/api/card/${response.body}`)).body;
      assert.equal(model.database_id, db.body.id);
      const table = (await admin.get(`/api/table/${model.table_id}/query_metadata`)).body;
      assert.equal(table.schema, 'public');
      assert.match(table.name, /^up_sales_\d{14}$/);
      const result = await admin.post(`/api/card/${model.id}/query`);
      assert.equal(result.body.status, 'completed', JSON.stringify(result.body.error));
      assert.equal(result.body.row_count, 2);
    } finally {
      await admin.put('/api/setting/uploads-settings', { value: null });
      await warehouse.drop();
    }
    const back = await upload(admin, 'back.csv', 'a\n1');
    assert.equal(back.status, 200, 'without a setting, uploads go to the embedded database again');
    const embedded = (await admin.get('/api/database')).body.data.filter((d: any) => d.name === 'Uploads');
    assert.equal(embedded.length, 1, 'the embedded uploads database is made once');
  });
  test('uploads to a MariaDB/MySQL database: typed table, model, and a failed upload leaves no table behind', async () => {
    const warehouse = await createMysqlDatabase('quarry_uploads');
    const direct = await createConnection({ ...MYSQL, database: warehouse.name });
    try {
      const db = await admin.post('/api/database', {
        engine: 'mysql',
        name: 'MariaDB uploads',
        details: { host: MYSQL.host, port: MYSQL.port, dbname: warehouse.name, user: MYSQL.user, ...(MYSQL.password ? { password: MYSQL.password } : {}) },
      });
      assert.equal(db.status, 200, db.text);
      assert.equal((await admin.put('/api/setting/uploads-settings', { value: { db_id: db.body.id, schema_name: null, table_prefix: 'my_' } })).status, 204);
      const response = await upload(admin, 'Q1 orders.csv', REALISTIC);
      assert.equal(response.status, 200, response.text);
      const model = (await admin.get(`/api/card/${response.body}`)).body;
      assert.equal(model.database_id, db.body.id);
      const table = (await admin.get(`/api/table/${model.table_id}/query_metadata`)).body;
      assert.match(table.name, /^my_q1_orders_\d{14}$/);
      const fields = Object.fromEntries(table.fields.map((f: any) => [f.name, f]));
      assert.match(fields.order_id.base_type, /Integer/);
      assert.equal(fields.ordered_on.base_type, 'type/Date');
      assert.match(fields.shipped_at.base_type, /DateTime/);
      assert.equal(fields.paid.base_type, 'type/Boolean');
      const result = await admin.post(`/api/card/${model.id}/query`);
      assert.equal(result.body.status, 'completed', JSON.stringify(result.body.error));
      assert.equal(result.body.row_count, 4);
      const cols = result.body.data.cols.map((col: any) => col.name);
      const first = Object.fromEntries(cols.map((n: string, i: number) => [n, result.body.data.rows.find((r: any[]) => r[cols.indexOf('order_id')] === 1)[i]]));
      assert.equal(first.customer, 'Smith, John');
      assert.equal(first.amount, 1234.5);
      assert.equal(first.paid, true);
      assert.match(String(first.shipped_at), /^2024-01-16T10:30:00/);

      // a value the column can't take (over 64 KB in a TEXT column: refused in strict mode) fails the upload after
      // the table was created, and the table is dropped
      const [before] = (await direct.query('show tables')) as any[];
      const tooLong = 'x'.repeat(70000);
      const failed = await upload(admin, 'failing.csv', `id,note\n1,short\n2,"${tooLong}"\n`);
      assert.equal(failed.status, 400, failed.text);
      const [after] = (await direct.query('show tables')) as any[];
      assert.equal(after.filter((t: any) => /failing/.test(String(Object.values(t)[0]))).length, 0, 'the failed upload left no table');
      assert.equal(after.length, before.length);
    } finally {
      await admin.put('/api/setting/uploads-settings', { value: null });
      await direct.end();
      await warehouse.drop();
    }
  });
});
