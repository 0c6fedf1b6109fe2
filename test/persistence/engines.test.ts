// Model persistence on each engine that can hold it — MariaDB (the schema is a database there; RENAME TABLE swaps)
// and DuckDB (a writable file) — and Metabase's clear refusals where it can't: SQLite, a read-only DuckDB file, a
// PostgreSQL login without the right to create a schema (nothing is written there).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createConnection, type Connection } from 'mysql2/promise';
import { DuckDBInstance } from '@duckdb/node-api';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createMysqlDatabase, createPgDatabase, MYSQL, PG, uniqueName } from '../helpers/databases.js';
import { installSample } from '../cards/sample.js';
import { idleSyncs } from '../../src/sync/runner.js';
import { refreshesDone } from '../../src/persistence/refresh.js';
import { pruneTables } from '../../src/persistence/prune.js';
import { connectionFor } from '../../src/databases/connections.js';

const ROWS = 500;

forEachAppDb('persisted models on every engine', (server) => {
  let admin: Client;
  const cleanups: Array<() => Promise<void>> = [];

  before(async () => {
    admin = await setupAdmin(server());
    assert.equal((await admin.post('/api/persist/enable')).status, 204);
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  async function register(engine: string, details: Record<string, unknown>) {
    const created = await admin.post('/api/database', { engine, name: uniqueName(engine), details });
    assert.equal(created.status, 200, created.text);
    await idleSyncs(server().ctx);
    const meta = (await admin.get(`/api/database/${created.body.id}/metadata`)).body;
    const table = meta.tables.find((t: any) => t.name.toLowerCase() === 'items');
    return { id: created.body.id as number, table: table.id as number, field: (name: string) => table.fields.find((x: any) => x.name.toLowerCase() === name).id as number };
  }

  /** Persists an MBQL model over `items`, checks a question on it reads the table, refreshes after a new row, prunes. */
  async function roundTrip(db: { id: number; table: number; field: (n: string) => number }, insert: () => Promise<void>, tableExists: (schema: string, table: string) => Promise<boolean>) {
    assert.equal((await admin.post(`/api/database/${db.id}/persist`)).status, 204);
    const model = (await admin.post('/api/card', {
      name: 'Items Model',
      type: 'model',
      display: 'table',
      visualization_settings: {},
      dataset_query: { database: db.id, type: 'query', query: { 'source-table': db.table } },
    })).body;
    assert.equal((await admin.post(`/api/card/${model.id}/persist`)).status, 204);
    await refreshesDone(server().ctx);
    const info = (await admin.get(`/api/persist/card/${model.id}`)).body;
    assert.equal(info.state, 'persisted', JSON.stringify(info));
    const count = { database: db.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['count'], ['sum', ['field', 'amount', { 'base-type': 'type/Integer' }]]] } };
    const first = (await admin.post('/api/dataset', count)).body;
    assert.equal(first.status, 'completed', JSON.stringify(first));
    assert.ok(first.data.native_form.query.includes(info.schema_name) && first.data.native_form.query.includes(info.table_name), first.data.native_form.query);
    assert.deepEqual(first.data.rows, [[ROWS, (ROWS * (ROWS + 1)) / 2]]);
    const own = (await admin.post(`/api/card/${model.id}/query`)).body;
    assert.ok(own.data.native_form.query.includes(info.table_name));
    assert.equal(own.row_count, ROWS);
    await insert();
    assert.equal((await admin.post(`/api/card/${model.id}/refresh`)).status, 204);
    await refreshesDone(server().ctx);
    const second = (await admin.post('/api/dataset', count)).body;
    assert.deepEqual(second.data.rows, [[ROWS + 1, (ROWS * (ROWS + 1)) / 2 + 1000]]);
    assert.ok(await tableExists(info.schema_name, info.table_name));
    assert.ok(!(await tableExists(info.schema_name, `${info.table_name}__new`)));
    assert.equal((await admin.post(`/api/card/${model.id}/unpersist`)).status, 204);
    await pruneTables(server().ctx, new Date(Date.now() + 2 * 3600_000));
    assert.ok(!(await tableExists(info.schema_name, info.table_name)));
    return info.schema_name as string;
  }

  test('MariaDB: a schema of its own, built, read, refreshed with an atomic RENAME TABLE, dropped', async () => {
    const db = await createMysqlDatabase('quarry_persist');
    const conn: Connection = await createConnection({ ...MYSQL, database: db.name });
    let schema: string | null = null;
    cleanups.push(async () => {
      if (schema) await conn.query(`DROP DATABASE IF EXISTS \`${schema}\``);
      await conn.end();
      await db.drop();
    });
    await conn.query('CREATE TABLE items (id integer PRIMARY KEY, amount integer NOT NULL)');
    await conn.query(`INSERT INTO items WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS}) SELECT n, n FROM s`);
    const registered = await register('mysql', { host: MYSQL.host, port: MYSQL.port, user: MYSQL.user, password: MYSQL.password, dbname: db.name });
    schema = await roundTrip(
      registered,
      async () => void (await conn.query('INSERT INTO items VALUES (100000, 1000)')),
      async (s, t) => ((await conn.query('SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [s, t]))[0] as unknown[]).length > 0,
    );
    const [schemas] = await conn.query('SELECT schema_name FROM information_schema.schemata WHERE schema_name = ?', [schema]);
    assert.equal((schemas as unknown[]).length, 1, 'a MariaDB database named after Quarry’s schema');
  });

  test('DuckDB: a writable file holds persisted models; a read-only one is refused before anything is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-persist-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'items.duckdb');
    const instance = await DuckDBInstance.create(file);
    const c = await instance.connect();
    await c.run(`CREATE TABLE items AS SELECT range::INTEGER + 1 AS id, range::INTEGER + 1 AS amount FROM range(${ROWS})`);
    c.closeSync();
    instance.closeSync();
    const registered = await register('duckdb', { db: file });
    const peek = async (sql: string, params: unknown[]) => {
      const { connection } = await connectionFor(server().ctx, registered.id);
      const stream = await connection.execute(sql, params);
      const rows: unknown[][] = [];
      for await (const row of stream) rows.push(row);
      return rows;
    };
    await roundTrip(
      registered,
      async () => {
        const { connection } = await connectionFor(server().ctx, registered.id);
        await connection.transaction!((s) => s.run('INSERT INTO items VALUES (100000, 1000)', []));
      },
      async (s, t) => (await peek('SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [s, t])).length > 0,
    );

    const readOnlyFile = join(dir, 'readonly.duckdb');
    const ro = await DuckDBInstance.create(readOnlyFile);
    const rc = await ro.connect();
    await rc.run('CREATE TABLE items AS SELECT 1 AS id, 1 AS amount');
    rc.closeSync();
    ro.closeSync();
    const readOnly = await register('duckdb', { db: readOnlyFile, read_only: true });
    const refused = await admin.post(`/api/database/${readOnly.id}/persist`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /^Lack permissions to create metabase_cache_[0-9a-f]{5}_\d+ schema$/);
    assert.ok(!(await admin.get(`/api/database/${readOnly.id}`)).body.features.includes('persist-models-enabled'));
  });

  test('PostgreSQL without the right to create a schema: a clear refusal, and nothing written', async () => {
    const db = await createPgDatabase('quarry_persist');
    const role = uniqueName('quarry_reader').toLowerCase();
    const owner = new pg.Client({ ...PG, database: db.name });
    await owner.connect();
    cleanups.push(async () => {
      await owner.end();
      await db.drop();
      const c = new pg.Client({ ...PG, database: 'postgres' });
      await c.connect();
      await c.query(`DROP ROLE IF EXISTS "${role}"`);
      await c.end();
    });
    await owner.query('CREATE TABLE items (id integer PRIMARY KEY, amount integer NOT NULL)');
    await owner.query(`CREATE ROLE "${role}" LOGIN PASSWORD 'reader-pass'`);
    await owner.query(`REVOKE CREATE ON DATABASE "${db.name}" FROM PUBLIC`);
    await owner.query(`GRANT SELECT ON items TO "${role}"`);
    const registered = await register('postgres', { host: PG.host, port: PG.port, user: role, password: 'reader-pass', dbname: db.name });
    const refused = await admin.post(`/api/database/${registered.id}/persist`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /^Lack permissions to create metabase_cache_[0-9a-f]{5}_\d+ schema$/);
    const schemas = await owner.query("SELECT 1 FROM information_schema.schemata WHERE schema_name LIKE 'metabase_cache_%'");
    assert.equal(schemas.rowCount, 0);
  });

  test('SQLite can’t hold persisted models: Metabase’s message, for the database and for a model on it', async () => {
    const sample = await installSample(admin);
    const refused = await admin.post(`/api/database/${sample.id}/persist`);
    assert.equal(refused.status, 400);
    assert.equal(refused.text, 'Database does not support persisting');
    const model = (await admin.post('/api/card', { name: 'Sample model', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS') } } })).body;
    const card = await admin.post(`/api/card/${model.id}/persist`);
    assert.equal(card.status, 400);
    assert.equal(card.body.message, 'Database does not support persisting');
  });
});
