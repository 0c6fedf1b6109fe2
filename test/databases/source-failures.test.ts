// Reading a data source directly from the metadata endpoints (field values, rescans, summary, search, remapping,
// syncable schemas, sync_schema): a database that became unreachable, or a table or column that no longer exists,
// answers a 400 with the driver's message (remapping: nothing), never a 500; nested JSON fields (nfc_path) are read
// by path on PostgreSQL; sensitive fields' values are for admins only; and PostgreSQL's ssl-mode is honoured.

import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startServer, setupAdmin, createUserClient, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { tableOf, waitForSync } from './helpers.js';
import { sslOption } from '../../src/drivers/postgres/client-config.js';
import { mysqlSsl } from '../../src/drivers/mysql/connection.js';

let server: TestServer;
let admin: Client;
let user: Client;
const drops: Array<() => Promise<void>> = [];

before(async () => {
  server = await startServer('sqlite', { MB_DB_CONNECTION_TIMEOUT_MS: '3000' });
  admin = await setupAdmin(server);
  user = (await createUserClient(server, admin)).client;
});
after(async () => {
  await server?.close();
  for (const drop of drops) await drop().catch(() => {});
});

/** A fresh PostgreSQL database with `ddl` run in it, registered and synced; returns its id, metadata and a client. */
async function warehouse(ddl: string[]): Promise<{ id: number; md: any; sql: pg.Client; name: string; drop(): Promise<void> }> {
  const database = await createPgDatabase('quarry_srcfail');
  const sql = new pg.Client({ ...PG, database: database.name });
  await sql.connect();
  for (const statement of ddl) await sql.query(statement);
  const created = await admin.post('/api/database', { engine: 'postgres', name: database.name, details: { host: PG.host, port: PG.port, dbname: database.name, user: PG.user } });
  assert.equal(created.status, 200, created.text);
  await waitForSync(admin, created.body.id);
  const md = (await admin.get(`/api/database/${created.body.id}/metadata`, { query: { include_hidden: 'true' } })).body;
  const drop = async () => {
    await sql.end().catch(() => {});
    await database.drop();
  };
  drops.push(drop);
  return { id: created.body.id, md, sql, name: database.name, drop };
}

const field = (md: any, table: string, name: string) => {
  const found = tableOf(md, table).fields.find((f: any) => f.name === name);
  assert.ok(found, `${table}.${name}`);
  return found.id as number;
};

const ITEMS = [
  'create table items (id serial primary key, category text, doc jsonb, secret text)',
  'create table owners (id serial primary key, item_id int references items(id), name text)',
  `insert into items (category, doc, secret)
     select (array['a','b','c'])[1 + i % 3], jsonb_build_object('b', jsonb_build_object('c', i % 4, 'd', 'v' || (i % 2)), 'n', i), 's' || i
     from generate_series(1, 30) as i`,
  "insert into owners (item_id, name) select i, 'owner ' || i from generate_series(1, 30) as i",
];

describe('a table or column that is gone', () => {
  test('summary, search, values, rescans: 400 with the driver\'s message; remapping: nothing', async () => {
    const w = await warehouse(ITEMS);
    const name = field(w.md, 'OWNERS', 'name');
    const ownerId = field(w.md, 'OWNERS', 'id');
    const category = field(w.md, 'ITEMS', 'category');
    assert.equal((await user.get(`/api/field/${name}/summary`)).status, 200);
    await w.sql.query('alter table owners drop column name');
    const summary = await user.get(`/api/field/${name}/summary`);
    assert.equal(summary.status, 400, summary.text);
    assert.match(summary.body.message, /column .*name.* does not exist/);
    const search = await user.get(`/api/field/${name}/search/${name}`, { query: { value: 'own' } });
    assert.equal(search.status, 400, search.text);
    assert.match(search.body.message, /does not exist/);
    const remap = await user.get(`/api/field/${ownerId}/remapping/${name}`, { query: { value: '1' } });
    assert.equal(remap.status, 204, remap.text);

    // A list field whose values must be fetched again once its column is gone.
    assert.equal((await admin.put(`/api/field/${category}`, { has_field_values: 'list' })).status, 200);
    assert.equal((await admin.post(`/api/field/${category}/discard_values`)).status, 200);
    await w.sql.query('alter table items rename column category to kind');
    const values = await user.get(`/api/field/${category}/values`);
    assert.equal(values.status, 400, values.text);
    assert.match(values.body.message, /column .*category.* does not exist/);
    const rescan = await admin.post(`/api/field/${category}/rescan_values`);
    assert.equal(rescan.status, 400, rescan.text);
    assert.match(rescan.body.message, /does not exist/);

    await w.sql.query('drop table owners');
    const gone = await user.get(`/api/field/${ownerId}/summary`);
    assert.equal(gone.status, 400);
    assert.match(gone.body.message, /relation .*owners.* does not exist/);
  });
});

describe('a database that is gone', () => {
  test('field reads and syncable_schemas answer 400, sync_schema 422, with the driver\'s message', async () => {
    const w = await warehouse(ITEMS);
    const category = field(w.md, 'ITEMS', 'category');
    const secret = field(w.md, 'ITEMS', 'secret');
    const itemId = field(w.md, 'ITEMS', 'id');
    assert.deepEqual((await admin.get(`/api/database/${w.id}/syncable_schemas`)).body, ['public']);
    assert.equal((await admin.put(`/api/field/${category}`, { has_field_values: 'list' })).status, 200);
    assert.equal((await admin.post(`/api/field/${category}/discard_values`)).status, 200);
    await w.drop();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the pool notices its connections were terminated
    const checks: Array<[string, () => Promise<any>]> = [
      ['values', () => user.get(`/api/field/${category}/values`)],
      ['rescan', () => admin.post(`/api/field/${category}/rescan_values`)],
      ['summary', () => user.get(`/api/field/${category}/summary`)],
      ['search', () => user.get(`/api/field/${secret}/search/${secret}`, { query: { value: 's' } })],
      ['syncable_schemas', () => admin.get(`/api/database/${w.id}/syncable_schemas`)],
    ];
    for (const [what, call] of checks) {
      const response = await call();
      assert.equal(response.status, 400, `${what}: ${response.text}`);
      assert.match(response.body.message, /does not exist/, what);
    }
    assert.equal((await user.get(`/api/field/${itemId}/remapping/${secret}`, { query: { value: '1' } })).status, 204);
    const sync = await admin.post(`/api/database/${w.id}/sync_schema`);
    assert.equal(sync.status, 422, sync.text);
    assert.match(sync.text, /does not exist/);
  });
});

describe('nested JSON fields (nfc_path) are read by path', () => {
  test('summary, search, values, rescan and remapping of fields inside a jsonb column', async () => {
    const w = await warehouse(ITEMS);
    const nested = tableOf(w.md, 'ITEMS').fields.filter((f: any) => f.nfc_path);
    const byPath = Object.fromEntries(nested.map((f: any) => [f.nfc_path.join('.'), f]));
    const c = byPath['doc.b.c'];
    const d = byPath['doc.b.d'];
    assert.equal(c.base_type, 'type/BigInteger');
    assert.deepEqual((await user.get(`/api/field/${c.id}/summary`)).body, [['count', 30], ['distincts', 4]]);
    assert.deepEqual((await user.get(`/api/field/${d.id}/summary`)).body, [['count', 30], ['distincts', 2]]);
    assert.deepEqual((await user.get(`/api/field/${d.id}/search/${d.id}`, { query: { value: 'V' } })).body, [['v0'], ['v1']]);
    assert.equal((await admin.put(`/api/field/${c.id}`, { has_field_values: 'list' })).status, 200);
    assert.deepEqual((await admin.post(`/api/field/${c.id}/rescan_values`)).body, { status: 'success' });
    assert.deepEqual((await user.get(`/api/field/${c.id}/values`)).body, { field_id: c.id, values: [[0], [1], [2], [3]], has_more_values: false });
    const itemId = field(w.md, 'ITEMS', 'id');
    assert.deepEqual((await user.get(`/api/field/${itemId}/remapping/${d.id}`, { query: { value: '3' } })).body, [3, 'v1']);
    // The path is a bound parameter: a key with quotes in it is just a key.
    await w.sql.query(`update items set doc = jsonb_set(doc, '{b,"it''s"}', '"q"') where id = 1`);
    assert.equal((await admin.put(`/api/field/${d.id}`, { nfc_path: ['doc', 'b', "it's"] })).status, 200);
    assert.deepEqual((await user.get(`/api/field/${d.id}/search/${d.id}`, { query: { value: 'q' } })).body, [['q']]);
  });
});

describe('sensitive fields', () => {
  test("their values can't be searched or remapped by ordinary users", async () => {
    const w = await warehouse(ITEMS);
    const secret = field(w.md, 'ITEMS', 'secret');
    const itemId = field(w.md, 'ITEMS', 'id');
    assert.equal((await user.get(`/api/field/${secret}/search/${secret}`, { query: { value: 's1' } })).status, 200);
    assert.equal((await admin.put(`/api/field/${secret}`, { visibility_type: 'sensitive' })).status, 200);
    const search = await user.get(`/api/field/${secret}/search/${secret}`, { query: { value: 's1' } });
    assert.equal(search.status, 403);
    assert.ok(!search.text.includes('s1'));
    assert.equal((await user.get(`/api/field/${itemId}/search/${secret}`, { query: { value: 's' } })).status, 403);
    const remap = await user.get(`/api/field/${itemId}/remapping/${secret}`, { query: { value: '1' } });
    assert.equal(remap.status, 403);
    assert.ok(!remap.text.includes('s1'));
    assert.equal((await admin.get(`/api/field/${itemId}/remapping/${secret}`, { query: { value: '1' } })).body[1], 's1');
    // A rescan stores nothing for it, even when asked.
    assert.equal((await admin.put(`/api/field/${secret}`, { has_field_values: 'list' })).status, 200);
    assert.deepEqual((await admin.post(`/api/field/${secret}/rescan_values`)).body, { status: 'success' });
    const stored = await server.ctx.db.selectFrom('metabase_fieldvalues').select('id').where('field_id', '=', secret).execute();
    assert.deepEqual(stored, []);
  });
});

describe('TLS settings', () => {
  test('PostgreSQL: an ssl-mode that demands encryption is honoured even without ssl: true', async () => {
    const response = await admin.post('/api/database', { engine: 'postgres', name: 'tls', details: { host: PG.host, port: PG.port, dbname: 'postgres', user: PG.user, 'ssl-mode': 'require' } });
    assert.equal(response.status, 400, 'the test server speaks no TLS, so requiring it must fail');
    assert.match(response.body.message, /SSL/i);
    assert.equal(sslOption({ ssl: false }), false);
    assert.deepEqual(sslOption({ ssl: true }), { rejectUnauthorized: false });
    assert.deepEqual(sslOption({ ssl: false, 'ssl-mode': 'require' }), { rejectUnauthorized: false });
    assert.equal((sslOption({ 'ssl-mode': 'verify-full' }) as any).rejectUnauthorized, true);
    const ca = sslOption({ ssl: true, 'ssl-mode': 'verify-ca' }) as any;
    assert.equal(ca.rejectUnauthorized, true);
    assert.equal(ca.checkServerIdentity(), undefined, 'verify-ca checks the chain, not the host name');
    assert.equal(sslOption({ ssl: false, 'ssl-mode': 'prefer' }), false);
  });

  test('MySQL: ssl-mode chooses how much of the certificate is checked', () => {
    assert.equal(mysqlSsl({ ssl: false }), undefined);
    assert.deepEqual(mysqlSsl({ ssl: true }), { rejectUnauthorized: false });
    assert.deepEqual(mysqlSsl({ ssl: true, 'ssl-mode': 'verify-ca' }), { rejectUnauthorized: true, verifyIdentity: false });
    assert.deepEqual(mysqlSsl({ ssl: false, 'ssl-mode': 'verify-full' }), { rejectUnauthorized: true, verifyIdentity: true });
  });
});
