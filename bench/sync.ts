// Full sync of the sample database (metadata, fingerprints, classification, field values) on each engine, through
// a real server context on a SQLite app DB: the first sync (the one adding a database starts) and a re-sync, and peak
// RSS — each beside the raw driver doing the data source's part of the same work directly: the same catalog queries
// (the driver's introspection SQL, run on the engine's own client: better-sqlite3, pg, mysql2, @duckdb/node-api),
// the same 10,000-row sample of each table and the same distinct-values query of each list field. What is left is
// Quarry's own: worker processes and pools, fingerprinting and classification, and the app-DB writes.
// Printed, never asserted.
//   node --import tsx bench/sync.ts

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../src/util/better-sqlite3.js';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { loadSampleInto } from '../src/sample/load.js';
import { createDatabase } from '../src/databases/databases.js';
import { idleSyncs, runSync } from '../src/sync/runner.js';
import { introspectSqlite } from '../src/drivers/sqlite/introspect.js';
import { introspectPostgres } from '../src/drivers/postgres/introspect.js';
import { introspectMysql } from '../src/drivers/mysql/introspect.js';
import { introspectDuckdb } from '../src/drivers/duckdb/introspect.js';

type Engine = 'sqlite' | 'duckdb' | 'postgres' | 'mysql';

const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-sync-'));
const name = `quarry_bench_${Date.now().toString(36)}`;
const PG = { host: process.env.QUARRY_TEST_PG_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_PG_PORT ?? 5432), user: process.env.QUARRY_TEST_PG_USER ?? 'postgres', password: process.env.QUARRY_TEST_PG_PASSWORD };
const MYSQL = { host: process.env.QUARRY_TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_MYSQL_PORT ?? 3306), user: process.env.QUARRY_TEST_MYSQL_USER ?? 'root', password: process.env.QUARRY_TEST_MYSQL_PASSWORD ?? '' };

/** What the sync asked of the data source: each table's sampled columns and its list fields. */
interface Work {
  tables: Array<{ schema: string | null; name: string; sampled: string[]; listFields: string[] }>;
}

/** One raw client per engine: run a statement and return its rows as arrays. */
interface RawClient {
  query(sql: string, params?: unknown[]): Promise<unknown[][]>;
  quote(identifier: string): string;
  introspect(): Promise<unknown>;
  close(): Promise<void>;
}

async function rawClient(engine: Engine, details: Record<string, any>): Promise<RawClient> {
  const dq = (n: string) => `"${n.replace(/"/g, '""')}"`;
  switch (engine) {
    case 'sqlite': {
      const db = new Database(details.db, { readonly: true });
      return {
        query: async (sql, params = []) => db.prepare(sql).raw().all(...params) as unknown[][],
        quote: dq,
        introspect: async () => introspectSqlite(db),
        close: async () => void db.close(),
      };
    }
    case 'postgres': {
      const client = new pg.Client({ host: details.host, port: details.port, database: details.dbname, user: details.user, password: details.password });
      await client.connect();
      const query = async (sql: string, params: unknown[] = []) => (await client.query({ text: sql, values: params, rowMode: 'array' })).rows as unknown[][];
      return { query, quote: dq, introspect: () => introspectPostgres({ query: query as never }, () => true), close: () => client.end() };
    }
    case 'mysql': {
      const c = await mysql.createConnection({ host: details.host, port: details.port, database: details.dbname, user: details.user, password: details.password });
      const query = async (sql: string, params: unknown[] = []) => (await c.query({ sql, rowsAsArray: true }, params))[0] as unknown[][];
      return { query, quote: (n) => '`' + n.replace(/`/g, '``') + '`', introspect: () => introspectMysql({ query: query as never }), close: () => c.end() };
    }
    case 'duckdb': {
      const instance = await DuckDBInstance.create(details.db, { access_mode: 'READ_ONLY' });
      const c = await instance.connect();
      const query = async (sql: string, params: unknown[] = []) => (await c.runAndReadAll(sql, params as never)).getRows() as unknown[][];
      return {
        query,
        quote: dq,
        introspect: () => introspectDuckdb({ query: query as never }, (schema) => schema === 'main'),
        close: async () => {
          c.closeSync();
          instance.closeSync();
        },
      };
    }
  }
}

/** The data source's part of a full sync, on the raw client: catalog, samples, distinct values. */
async function rawSync(engine: Engine, details: Record<string, any>, work: Work): Promise<{ catalog: number; samples: number; values: number }> {
  const client = await rawClient(engine, details);
  try {
    let t = performance.now();
    await client.introspect();
    const catalog = performance.now() - t;
    const table = (s: { schema: string | null; name: string }) => (s.schema && engine !== 'sqlite' && engine !== 'mysql' ? `${client.quote(s.schema)}.${client.quote(s.name)}` : client.quote(s.name));
    t = performance.now();
    for (const s of work.tables) {
      if (s.sampled.length) await client.query(`SELECT ${s.sampled.map(client.quote).join(', ')} FROM ${table(s)} LIMIT 10000`);
    }
    const samples = performance.now() - t;
    t = performance.now();
    for (const s of work.tables) {
      for (const f of s.listFields) {
        const c = client.quote(f);
        await client.query(`SELECT DISTINCT ${c} FROM ${table(s)} WHERE ${c} IS NOT NULL ORDER BY 1 LIMIT 1001`);
      }
    }
    return { catalog, samples, values: performance.now() - t };
  } finally {
    await client.close();
  }
}

const pgAdmin = new pg.Client({ ...PG, database: 'postgres' });
const myAdmin = await mysql.createConnection(MYSQL);
await pgAdmin.connect();
await pgAdmin.query(`create database "${name}"`);
await myAdmin.query(`create database \`${name}\``);
const details: Record<Engine, Record<string, unknown>> = {
  sqlite: { db: join(dir, 'sample.sqlite') },
  duckdb: { db: join(dir, 'sample.duckdb') },
  postgres: { ...PG, dbname: name },
  mysql: { ...MYSQL, dbname: name },
};
const quarry: Record<string, { first: number; firstStatus: string; again: number; againStatus: string; work: Work }> = {};
try {
  await Promise.all(Object.entries(details).map(([engine, d]) => loadSampleInto(engine as never, d as never)));
  const server = await createServer(loadConfig({ MB_DB_FILE: join(dir, 'app.db'), MB_LOAD_SAMPLE_CONTENT: 'false', QUARRY_LOG_LEVEL: 'fatal' }));
  try {
    for (const [engine, d] of Object.entries(details)) {
      // Adding a database starts its first full sync in the background: time that one sync, from the request until
      // it is done (a runSync here would queue a second full sync behind it and count both).
      let t = performance.now();
      const db = await createDatabase(server.ctx, null, { engine, name: `Sample on ${engine}`, details: d });
      const id = db.id as number;
      await idleSyncs(server.ctx);
      const first = performance.now() - t;
      const status = (await server.ctx.db.selectFrom('metabase_database').select('initial_sync_status').where('id', '=', id).executeTakeFirstOrThrow()).initial_sync_status;
      t = performance.now();
      const againStatus = await runSync(server.ctx, id, 'full');
      const again = performance.now() - t;
      // What that sync read: sampled (fingerprinted) columns and list fields, per table.
      const tables = await server.ctx.db.selectFrom('metabase_table').select(['id', 'schema', 'name']).where('db_id', '=', id).where('active', '=', true).execute();
      const fields = await server.ctx.db
        .selectFrom('metabase_field')
        .select(['id', 'table_id', 'name', 'fingerprint', 'has_field_values', 'nfc_path'])
        .where('table_id', 'in', tables.map((x) => x.id))
        .where('active', '=', true)
        .orderBy('database_position')
        .execute();
      const withValues = new Set((await server.ctx.db.selectFrom('metabase_fieldvalues').select('field_id').execute()).map((r) => r.field_id));
      const work: Work = {
        tables: tables.map((x) => {
          const own = fields.filter((f) => f.table_id === x.id && f.nfc_path === null);
          return {
            schema: x.schema,
            name: x.name,
            sampled: own.filter((f) => f.fingerprint !== null).map((f) => f.name),
            listFields: own.filter((f) => withValues.has(f.id)).map((f) => f.name),
          };
        }),
      };
      quarry[engine] = { first, firstStatus: status === 'complete' ? 'done' : status, again, againStatus, work };
    }
  } finally {
    await server.close();
  }
  // The raw runs come after the server closed its pools and DuckDB instance (a DuckDB file opens in one instance).
  const ms = (n: number) => `${Math.round(n)} ms`.padStart(7);
  for (const [engine, q] of Object.entries(quarry)) {
    const raw = await rawSync(engine as Engine, details[engine as Engine], q.work);
    const total = raw.catalog + raw.samples + raw.values;
    const listFields = q.work.tables.reduce((n, t) => n + t.listFields.length, 0);
    console.log(
      `full sync on ${engine.padEnd(8)}: quarry first ${ms(q.first)} (${q.firstStatus}), re-sync ${ms(q.again)} (${q.againStatus}) | ` +
        `raw driver: catalog ${ms(raw.catalog)} + ${q.work.tables.length} samples ${ms(raw.samples)} + ${listFields} distinct-value queries ${ms(raw.values)} = ${ms(total)} | first ${(q.first / Math.max(total, 1)).toFixed(1)}× raw`,
    );
  }
  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  await pgAdmin.query(`drop database "${name}" with (force)`);
  await pgAdmin.end();
  await myAdmin.query(`drop database \`${name}\``);
  await myAdmin.end();
  rmSync(dir, { recursive: true, force: true });
}
