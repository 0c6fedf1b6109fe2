// The sample rows in all four engines — SQLite and DuckDB files in the temp dir, a PostgreSQL and a MariaDB
// database — created once and reused by every query test (and by later runs: names carry a hash of the sample
// generator, so a generator change makes fresh copies). Creation is safe when several test files start at once.

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createConnection } from 'mysql2/promise';
import { loadSampleInto } from '../../../src/sample/load.js';
import { PG, MYSQL } from '../../helpers/databases.js';
import { before, after } from 'node:test';
import type { Client } from '../../helpers/client.js';
import { startServer, setupAdmin, type TestServer } from '../../helpers/server.js';
import { idleSyncs } from '../../../src/sync/runner.js';

export type Engine = 'sqlite' | 'postgres' | 'mysql' | 'duckdb';
export const ENGINES: Engine[] = ['sqlite', 'postgres', 'mysql', 'duckdb'];

function sampleVersion(): string {
  const dir = new URL('../../../src/sample/', import.meta.url).pathname;
  const h = createHash('sha256');
  for (const name of readdirSync(dir).sort()) if (name.endsWith('.ts')) h.update(name).update(readFileSync(join(dir, name)));
  return h.digest('hex').slice(0, 10);
}

const VERSION = sampleVersion();
const NAME = `quarry_sample_${VERSION}`;

async function ensureFile(engine: 'sqlite' | 'duckdb'): Promise<string> {
  const file = join(tmpdir(), `${NAME}.${engine}`);
  if (existsSync(file)) return file;
  const temp = join(tmpdir(), `${NAME}.${randomBytes(4).toString('hex')}.tmp.${engine}`);
  await loadSampleInto(engine, { db: temp });
  if (existsSync(temp + '.wal')) rmSync(temp + '.wal');
  renameSync(temp, file);
  return file;
}

async function ensurePostgres(): Promise<void> {
  const admin = new pg.Client({ ...PG, database: 'postgres' });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [NAME]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [NAME]);
    let ready = false;
    if (exists.rowCount) {
      const c = new pg.Client({ ...PG, database: NAME });
      await c.connect();
      ready = (await c.query("SELECT 1 FROM pg_tables WHERE tablename = 'quarry_sample_ready'")).rowCount === 1;
      await c.end();
      if (!ready) await admin.query(`DROP DATABASE "${NAME}" WITH (FORCE)`);
    }
    if (!ready) {
      await admin.query(`CREATE DATABASE "${NAME}"`);
      await loadSampleInto('postgres', { host: PG.host, port: PG.port, user: PG.user, password: PG.password, dbname: NAME });
      const c = new pg.Client({ ...PG, database: NAME });
      await c.connect();
      await c.query('CREATE TABLE quarry_sample_ready (ok integer)');
      await c.end();
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [NAME]).catch(() => {});
    await admin.end();
  }
}

async function ensureMysql(): Promise<void> {
  const admin = await createConnection({ ...MYSQL });
  try {
    await admin.query('SELECT GET_LOCK(?, 600)', [NAME]);
    const [rows] = await admin.query('SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [NAME, 'quarry_sample_ready']);
    if ((rows as unknown[]).length === 0) {
      await admin.query(`DROP DATABASE IF EXISTS \`${NAME}\``);
      await admin.query(`CREATE DATABASE \`${NAME}\` CHARACTER SET utf8mb4`);
      await loadSampleInto('mysql', { host: MYSQL.host, port: MYSQL.port, user: MYSQL.user, password: MYSQL.password, dbname: NAME });
      await admin.query(`CREATE TABLE \`${NAME}\`.quarry_sample_ready (ok integer)`);
    }
  } finally {
    await admin.query('SELECT RELEASE_LOCK(?)', [NAME]).catch(() => {});
    await admin.end();
  }
}

/** Connection details of the shared sample copy of `engine` (created on first use). */
export async function sampleDetails(engine: Engine): Promise<Record<string, unknown>> {
  switch (engine) {
    case 'sqlite':
      return { db: await ensureFile('sqlite') };
    case 'duckdb':
      return { db: await ensureFile('duckdb'), read_only: true };
    case 'postgres':
      await ensurePostgres();
      return { host: PG.host, port: PG.port, user: PG.user, dbname: NAME, ...(PG.password ? { password: PG.password } : {}) };
    case 'mysql':
      await ensureMysql();
      return { host: MYSQL.host, port: MYSQL.port, user: MYSQL.user, password: MYSQL.password, dbname: NAME };
  }
}

/** Table and field ids of one registered sample database. */
export class Warehouse {
  constructor(
    readonly engine: Engine,
    readonly id: number,
    private readonly tables: Map<string, { id: number; fields: Map<string, number> }>,
  ) {}

  t(table: string): number {
    const t = this.tables.get(table);
    if (!t) throw new Error(`no table ${table} in ${this.engine}`);
    return t.id;
  }

  fid(table: string, field: string): number {
    const f = this.tables.get(table)?.fields.get(field);
    if (f === undefined) throw new Error(`no field ${table}.${field} in ${this.engine}`);
    return f;
  }

  /** `["field", id, opts]` for TABLE.FIELD. */
  f(table: string, field: string, opts: Record<string, unknown> | null = null): [string, number, Record<string, unknown> | null] {
    return ['field', this.fid(table, field), opts];
  }

  /** A field reached through an FK of `fromTable` (an implicit join). */
  via(fromTable: string, fk: string, table: string, field: string, opts: Record<string, unknown> = {}): [string, number, Record<string, unknown>] {
    return ['field', this.fid(table, field), { ...opts, 'source-field': this.fid(fromTable, fk) }];
  }

  mbql(query: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { database: this.id, type: 'query', query, ...extra };
  }

  native(sql: string, tags: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { database: this.id, type: 'native', native: { query: sql, 'template-tags': tags }, ...extra };
  }
}

/** Registers the sample copies of `engines` with the server (as admin), waits for their sync, returns their ids. */
export async function registerWarehouses(server: TestServer, admin: Client, engines: Engine[] = ENGINES): Promise<Record<Engine, Warehouse>> {
  const details = await Promise.all(engines.map((e) => sampleDetails(e)));
  const out = {} as Record<Engine, Warehouse>;
  for (let i = 0; i < engines.length; i++) {
    const engine = engines[i];
    const created = await admin.post('/api/database', { engine, name: `Sample ${engine}`, details: details[i] });
    if (created.status !== 200) throw new Error(`registering ${engine} failed: ${created.status} ${created.text}`);
    out[engine] = new Warehouse(engine, created.body.id, new Map());
  }
  await idleSyncs(server.ctx);
  for (const engine of engines) {
    const meta = await admin.get(`/api/database/${out[engine].id}/metadata`, { query: { include_hidden: true } });
    if (meta.status !== 200) throw new Error(`metadata of ${engine} failed: ${meta.status} ${meta.text}`);
    const tables = new Map<string, { id: number; fields: Map<string, number> }>();
    for (const t of meta.body.tables) {
      if (!String(t.name).toUpperCase().startsWith('QUARRY_SAMPLE')) {
        tables.set(String(t.name).toUpperCase(), { id: t.id, fields: new Map(t.fields.map((f: any) => [String(f.name).toUpperCase(), f.id])) });
      }
    }
    out[engine] = new Warehouse(engine, out[engine].id, tables);
  }
  return out;
}

export interface WarehouseServer {
  server: TestServer;
  admin: Client;
  wh: Record<Engine, Warehouse>;
}

/**
 * For the enclosing describe: a server on a SQLite app DB with the four samples registered, started before its tests
 * and closed after them. The fields are set once its `before` has run.
 */
export function sampleWarehouseServer(): WarehouseServer {
  const env = {} as WarehouseServer;
  before(async () => {
    env.server = await startServer('sqlite');
    env.admin = await setupAdmin(env.server);
    env.wh = await registerWarehouses(env.server, env.admin);
  });
  after(async () => {
    await env.server?.close();
  });
  return env;
}
