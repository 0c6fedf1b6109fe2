// Data-source security: connection details built only from allow-listed typed fields, secrets masked on read and
// encrypted at rest, native statements that could reach the server's files refused (SQLite guard, DuckDB locked
// down, MySQL without LOCAL INFILE), the sample opened read-only, and unreachable databases failing fast with 400s.

import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, setupAdmin, createUserClient, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { connectionFor } from '../../src/databases/connections.js';
import { collectRows } from '../../src/drivers/shared/row-stream.js';
import { driverFor } from '../../src/drivers/registry.js';
import { checkSqliteStatement } from '../../src/drivers/sqlite/guard.js';
import { REFUSED_CODE } from '../../src/drivers/sqlite/protocol.js';
import { SqliteStatementError, SqliteWorker } from '../../src/drivers/sqlite/workers.js';
import { decryptText, encryptText } from '../../src/databases/encryption.js';
import { installSample, loadSamplesEverywhere, waitForSync, type LoadedSamples } from './helpers.js';

let samples: LoadedSamples;
let server: TestServer;
let admin: Client;
let user: Client;
const SECRET = 'a-long-and-random-encryption-secret-key';

before(async () => {
  samples = await loadSamplesEverywhere();
  server = await startServer('sqlite', { MB_ENCRYPTION_SECRET_KEY: SECRET, MB_DB_CONNECTION_TIMEOUT_MS: '1500' });
  admin = await setupAdmin(server);
  user = (await createUserClient(server, admin)).client;
});
after(async () => {
  await server?.close();
  await samples?.cleanup();
});

async function run(databaseId: number, sql: string, params: unknown[] = []): Promise<unknown[][]> {
  const { connection } = await connectionFor(server.ctx, databaseId);
  return collectRows(await connection.execute(sql, params));
}

async function addDatabase(engine: string, details: Record<string, unknown>): Promise<number> {
  const created = await admin.post('/api/database', { engine, name: `${engine} ${Date.now()}`, details });
  assert.equal(created.status, 200, created.text);
  await waitForSync(admin, created.body.id);
  return created.body.id;
}

describe('connection details', () => {
  test('are reduced to the engine\'s typed, allow-listed fields', async () => {
    const created = await admin.post('/api/database', {
      engine: 'postgres',
      name: 'Allow-listed',
      details: { ...samples.details.postgres, port: String(samples.details.postgres.port), ssl: 'false', 'additional-options': 'sslfactory=evil', options: '-c log_statement=all', url: 'postgres://elsewhere/db', 'tunnel-host': 'x' },
    });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(Object.keys(created.body.details).sort(), ['dbname', 'host', 'port', 'ssl', 'user']);
    assert.equal(created.body.details.port, samples.details.postgres.port);
    await waitForSync(admin, created.body.id);
    const badHost = await admin.post('/api/database', { engine: 'postgres', name: 'x', details: { ...samples.details.postgres, host: 'db.example.com;sslmode=disable' } });
    assert.equal(badHost.status, 400);
    assert.ok(badHost.body.errors.host);
    const badPort = await admin.post('/api/database', { engine: 'mysql', name: 'x', details: { ...samples.details.mysql, port: 'three' } });
    assert.equal(badPort.status, 400);
    assert.ok(badPort.body.errors.port);
    const noDbname = await admin.post('/api/database', { engine: 'mysql', name: 'x', details: { host: '127.0.0.1' } });
    assert.equal(noDbname.status, 400);
    assert.ok(noDbname.body.errors.dbname);
  });

  test('passwords are masked on read, kept when the mask is sent back, and encrypted at rest', async () => {
    const details = { ...samples.details.mysql, password: 'Sup3r-Secret' };
    // MariaDB's root has no password, so a wrong one is refused: use a user with this password.
    const { createConnection } = await import('mysql2/promise');
    const root = await createConnection({ host: '127.0.0.1', user: 'root', password: '' });
    const account = `quarry_sec_${Date.now().toString(36)}`;
    await root.query(`CREATE USER '${account}'@'%' IDENTIFIED BY 'Sup3r-Secret'`);
    await root.query(`GRANT SELECT ON \`${samples.details.mysql.dbname}\`.* TO '${account}'@'%'`);
    try {
      const created = await admin.post('/api/database', { engine: 'mysql', name: 'Secret', details: { ...details, user: account } });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.body.details.password, '**MetabasePass**');
      const row = await server.ctx.db.selectFrom('metabase_database').select('details').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.match(row.details, /^quarry:v1:/);
      assert.ok(!row.details.includes('Sup3r-Secret') && !row.details.includes(account));
      assert.equal((await user.get(`/api/database/${created.body.id}`)).body.details, undefined);
      assert.equal((await user.get('/api/database')).body.data.every((d: any) => d.details === undefined), true);
      const kept = await admin.put(`/api/database/${created.body.id}`, { details: { ...created.body.details, dbname: samples.details.mysql.dbname } });
      assert.equal(kept.status, 200, kept.text);
      const wrong = await admin.put(`/api/database/${created.body.id}`, { details: { ...created.body.details, password: 'wrong', host: '127.0.0.1' } });
      assert.equal(wrong.status, 400);
      assert.match(wrong.body.message, /denied/i);
      await waitForSync(admin, created.body.id);
      assert.deepEqual(await run(created.body.id, 'select count(*) from `PRODUCTS`'), [[200]]);
      const validate = await admin.post('/api/database/validate', { details: { engine: 'mysql', details: { ...details, user: account, password: 'nope' } } });
      assert.equal(validate.status, 400);
      assert.equal(validate.body.valid, false);
    } finally {
      await root.query(`DROP USER '${account}'@'%'`);
      await root.end();
    }
  });
});

test('AES-256-GCM at rest: round trip, tamper detection, wrong key, plain values before a key was set', () => {
  const stored = encryptText('{"password":"p"}', SECRET);
  assert.match(stored, /^quarry:v1:/);
  assert.notEqual(encryptText('{"password":"p"}', SECRET), stored, 'a fresh salt and IV each time');
  assert.equal(decryptText(stored, SECRET), '{"password":"p"}');
  assert.throws(() => decryptText(stored, 'another-key-entirely'), /not the key/);
  assert.throws(() => decryptText(stored, null), /MB_ENCRYPTION_SECRET_KEY/);
  const raw = Buffer.from(stored.slice('quarry:v1:'.length), 'base64');
  raw[raw.length - 1] ^= 1;
  assert.throws(() => decryptText('quarry:v1:' + raw.toString('base64'), SECRET));
  assert.equal(decryptText('{"db":"x"}', SECRET), '{"db":"x"}');
  assert.equal(encryptText('{"db":"x"}', null), '{"db":"x"}');
});

describe('unreachable databases fail fast with a clear 400', () => {
  test('refused port, unknown host, unroutable address, missing database, missing file', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['postgres', { host: '127.0.0.1', port: 1, dbname: 'x', user: 'postgres' }, /refused/i],
      ['mysql', { host: '127.0.0.1', port: 1, dbname: 'x', user: 'root' }, /refused/i],
      ['postgres', { host: 'no-such-host.invalid', port: 5432, dbname: 'x', user: 'postgres' }, /host/i],
      ['postgres', { host: '10.255.255.1', port: 5432, dbname: 'x', user: 'postgres' }, /./],
      ['mysql', { host: '10.255.255.1', port: 3306, dbname: 'x', user: 'root' }, /./],
      ['postgres', { ...samples.details.postgres, dbname: 'quarry_missing_db' }, /does not exist/],
      ['mysql', { ...samples.details.mysql, dbname: 'quarry_missing_db' }, /unknown database/i],
      ['duckdb', { db: join(samples.dir, 'missing.duckdb') }, /does not exist/],
    ];
    for (const [engine, details, message] of cases) {
      const started = Date.now();
      const response = await admin.post('/api/database', { engine, name: 'unreachable', details });
      assert.equal(response.status, 400, `${engine} ${JSON.stringify(details)}: ${response.text}`);
      assert.match(response.body.message, message);
      assert.ok(Date.now() - started < 5000, `${engine} answered in ${Date.now() - started} ms`);
    }
    assert.equal(existsSync(join(samples.dir, 'missing.duckdb')), false, 'a missing file is never created');
  });

  test("Quarry's own app database can't be added as a data source", async () => {
    const file = server.ctx.config.appDb.type === 'sqlite' ? server.ctx.config.appDb.file : '';
    const response = await admin.post('/api/database', { engine: 'sqlite', name: 'sneaky', details: { db: file } });
    assert.equal(response.status, 400);
    assert.match(response.body.message, /application database/);
  });

  test('a file that is not a database is a 400', async () => {
    const file = join(samples.dir, 'not-a-db.sqlite');
    writeFileSync(file, 'hello, world — definitely not SQLite '.repeat(200));
    const response = await admin.post('/api/database', { engine: 'sqlite', name: 'garbage', details: { db: file } });
    assert.equal(response.status, 400);
    assert.match(response.body.message, /not a readable SQLite database|not a database/);
  });
});

describe('native statements cannot reach the server\'s files', () => {
  test('SQLite: ATTACH, DETACH, VACUUM and writing PRAGMAs are refused; load_extension is off', async () => {
    const id = await addDatabase('sqlite', samples.details.sqlite);
    const refused = [
      `ATTACH DATABASE '${join(samples.dir, 'other.db')}' AS other`,
      "  -- comment first\n attach 'x.db' as y",
      '/* c */ DETACH other',
      `VACUUM INTO '${join(samples.dir, 'copy.db')}'`,
      'vacuum',
      'PRAGMA writable_schema = ON',
      'pragma main.journal_mode=WAL',
      'PRAGMA journal_mode(WAL)',
      `EXPLAIN ATTACH '${join(samples.dir, 'x.db')}' AS x`,
      'EXPLAIN QUERY PLAN VACUUM',
    ];
    for (const sql of refused) await assert.rejects(run(id, sql), /not allowed/, sql);
    assert.equal(existsSync(join(samples.dir, 'other.db')), false);
    assert.equal(existsSync(join(samples.dir, 'copy.db')), false);
    await assert.rejects(run(id, "select load_extension('/tmp/evil')"), /not authorized/);
    assert.deepEqual((await run(id, 'select count(*) from "ORDERS"'))[0], [18760]);
    assert.ok((await run(id, "pragma table_info('ORDERS')")).length === 9);
    assert.doesNotThrow(() => checkSqliteStatement('select 1 as attach'));
    assert.doesNotThrow(() => checkSqliteStatement('WITH x AS (select 1) select * from x'));
  });

  test('SQLite through POST /api/dataset as an ordinary user: empty statements, comments and WITH never get past the guard, and the app DB stays out of reach', async () => {
    const appDb = server.ctx.config.appDb.type === 'sqlite' ? server.ctx.config.appDb.file : join(samples.dir, 'app.db');
    const sample = (await installSample(admin)).id;
    const writable = await addDatabase('sqlite', samples.details.sqlite);
    const native = (database: number, query: string) => user.post('/api/dataset', { database, type: 'native', native: { query } });
    const copy = join(samples.dir, 'stolen.db');
    const attacks = [
      `;ATTACH '${appDb}' AS app1`,
      `\n;ATTACH DATABASE '${appDb}' AS app1`,
      `/*x*/;VACUUM INTO '${copy}'`,
      '; ;PRAGMA writable_schema=1',
      ';;pragma journal_mode=delete',
      `-- c\n;\t;/* ; */ ATTACH '${appDb}' AS app1`,
      `select 1; ATTACH '${appDb}' AS app1`,
      `select 1;;\nATTACH '${appDb}' AS app1`,
      `EXPLAIN ;ATTACH '${appDb}' AS app1`,
      `EXPLAIN QUERY PLAN ;VACUUM INTO '${copy}'`,
      `WITH x AS (SELECT 1) SELECT * FROM x; VACUUM INTO '${copy}'`,
      'DETACH main',
      'BEGIN IMMEDIATE',
      'CREATE TRIGGER t AFTER INSERT ON "PRODUCTS" BEGIN SELECT 1; END',
      'ANALYZE',
    ];
    for (const database of [sample, writable]) {
      for (const sql of attacks) {
        const r = await native(database, sql);
        assert.equal(r.status, 202, `${sql}: ${r.text}`);
        assert.equal(r.body.status, 'failed', `${database} ran: ${JSON.stringify(sql)}`);
        assert.match(r.body.error, /not allowed|one statement/, sql);
      }
      // A write smuggled behind a WITH is a write: refused on the read-only sample.
      if (database === sample) {
        const r = await native(database, 'WITH x AS (SELECT 1) DELETE FROM "ORDERS" WHERE "ID" IN (SELECT * FROM x)');
        assert.equal(r.body.status, 'failed');
        assert.match(r.body.error, /read-only/);
        const quoted = await native(database, 'WITH "select" AS (SELECT 1), [x] AS MATERIALIZED (SELECT 2) UPDATE "ORDERS" SET "TAX" = 0');
        assert.equal(quoted.body.status, 'failed');
      }
      // Nothing was attached: only the data source's own file is open.
      const list = await native(database, 'select name from pragma_database_list');
      assert.equal(list.body.status, 'completed', list.body.error);
      assert.deepEqual(list.body.data.rows, [['main']]);
      const app = await native(database, 'select * from app1.core_user');
      assert.equal(app.body.status, 'failed');
      assert.match(app.body.error, /no such table/);
      // Legitimate statements still run.
      const ok = await native(database, ';  /* lead */ WITH x AS (SELECT count(*) AS n FROM "PRODUCTS") SELECT n FROM x;');
      assert.equal(ok.body.status, 'completed', ok.body.error);
      assert.deepEqual(ok.body.data.rows, [[200]]);
      const pragma = await native(database, "PRAGMA table_info('PRODUCTS')");
      assert.equal(pragma.body.status, 'completed', pragma.body.error);
    }
    assert.equal(existsSync(copy), false, 'VACUUM INTO wrote no file');
    assert.equal((await user.get('/api/user/current')).body.is_superuser, false);
    // On the writable file, data changes (also behind WITH) and the DDL of uploads are allowed, triggers are not.
    assert.deepEqual(await run(writable, 'WITH x AS (SELECT 1) UPDATE "PRODUCTS" SET "RATING" = "RATING" WHERE "ID" IN (SELECT * FROM x)'), []);
    await run(writable, 'CREATE TABLE IF NOT EXISTS "scratch" ("x" INTEGER)');
    await run(writable, 'INSERT INTO "scratch" VALUES (?)', [1]);
    await run(writable, 'DROP TABLE IF EXISTS "scratch"');
    await assert.rejects(run(writable, 'CREATE VIRTUAL TABLE v USING fts5(x)'), /not allowed/);
  });

  test('SQLite guard, second layer: compiled programs that attach, detach or vacuum are refused whatever the text looked like', async () => {
    // Compiled by a worker process, as every statement is before it runs (never in the server's process).
    const worker = new SqliteWorker(samples.details.sqlite.db as string, true);
    await worker.ready;
    try {
      // Each `run` carries the check: the worker compiles the text with EXPLAIN and judges the program before it runs.
      const run = (body: string, params: unknown[], writable: boolean) => worker.request({ type: 'run', sql: body, params, check: { body, writable } });
      const refusal = (error: any) => error instanceof SqliteStatementError && error.code === REFUSED_CODE;
      const refused = [`ATTACH '${join(samples.dir, 'a.db')}' AS a`, 'DETACH main', `VACUUM INTO '${join(samples.dir, 'v.db')}'`, 'VACUUM'];
      for (const body of refused) {
        await assert.rejects(run(body, [], true), (e: any) => refusal(e) && /not allowed/.test(e.message), body);
      }
      await assert.rejects(run('DELETE FROM "ORDERS"', [], false), (e: any) => refusal(e) && /read-only/.test(e.message));
      // Judged writable, the program passes; the read-only file itself then refuses the write (SQLite's own error).
      await assert.rejects(run('DELETE FROM "ORDERS"', [], true), (e: any) => !refusal(e) && /readonly/i.test(e.message));
      const plain = await run('select ? + ?', [1, 2], false);
      assert.equal(plain.type, 'columns');
      assert.deepEqual((await worker.request({ type: 'next' })).rows, [[3]]);
      // The worker's own SQL functions compile there too, so statements using them are judged rather than skipped.
      const regex = await run("select regexp_substr('abc', 'b')", [], false);
      assert.equal(regex.type, 'columns', 'a statement using regexp_substr compiles and runs in the worker');
      assert.deepEqual((await worker.request({ type: 'next' })).rows, [['b']]);
    } finally {
      worker.stop();
    }
    assert.equal(existsSync(join(samples.dir, 'v.db')), false);
  });

  test('the sample database is read-only', async () => {
    const { id } = await installSample(admin);
    await assert.rejects(run(id, 'DELETE FROM "ORDERS"'), /readonly|read-only/i);
    await assert.rejects(run(id, 'CREATE TABLE t (x int)'), /readonly|read-only/i);
    assert.deepEqual((await run(id, 'select count(*) from "ORDERS"'))[0], [18760]);
  });

  test('DuckDB: no file or network access, no extensions, configuration locked', async () => {
    const id = await addDatabase('duckdb', samples.details.duckdb);
    const secret = join(samples.dir, 'secret.csv');
    writeFileSync(secret, 'a,b\n1,2\n');
    const refused = [
      `select * from read_csv('${secret}')`,
      `select * from '${secret}'`,
      `copy (select 1) to '${join(samples.dir, 'out.csv')}'`,
      `attach '${join(samples.dir, 'other.duckdb')}' as other`,
      'set enable_external_access = true',
      "set allow_community_extensions = true",
      'install httpfs',
      "select * from read_text('/etc/passwd')",
    ];
    for (const sql of refused) await assert.rejects(run(id, sql), Error, sql);
    assert.equal(existsSync(join(samples.dir, 'out.csv')), false);
    assert.deepEqual(await run(id, 'select count(*) from "ORDERS"'), [[18760]]);
  });

  test('MySQL: LOAD DATA LOCAL INFILE cannot read Quarry\'s files', async () => {
    const id = await addDatabase('mysql', samples.details.mysql);
    const file = join(samples.dir, 'local.csv');
    writeFileSync(file, '1\n2\n');
    await assert.rejects(run(id, `LOAD DATA LOCAL INFILE '${file}' INTO TABLE \`PRODUCTS\``));
    await assert.rejects(run(id, 'select 1; select 2'));
  });

  test('PostgreSQL details cannot carry connection options', () => {
    const details = driverFor('postgres').normalizeDetails({ host: 'h', dbname: 'd', options: '-c statement_timeout=0', application_name: 'x', sslrootcert: '/etc/x' });
    assert.deepEqual(Object.keys(details).sort(), ['dbname', 'host', 'port', 'ssl']);
  });
});
