// Sample-database generation: time to generate the rows, to write the SQLite file the server installs, and to load
// the same rows into DuckDB, PostgreSQL and MariaDB; peak RSS. Each load is printed beside the raw driver writing the
// same rows (already generated and converted) by the engine's fastest bulk path — better-sqlite3's prepared INSERT in
// one transaction, DuckDB's COPY from a CSV file, PostgreSQL's COPY FROM STDIN, MariaDB's LOAD DATA LOCAL INFILE —
// with the same tables and the same ANALYZE. Figures are printed, never asserted.
//   node --import tsx bench/sample.ts

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from '../src/util/better-sqlite3.js';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateSample, type SampleRows } from '../src/sample/generate.js';
import { bindRow, createTableSql, loadSampleInto, writeSqliteSample } from '../src/sample/load.js';
import { SAMPLE_TABLES, type SampleEngine } from '../src/sample/schema.js';

const ms = (since: number) => Math.round(performance.now() - since);
const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-sample-'));
const name = `quarry_bench_${Date.now().toString(36)}`;
const PG = { host: process.env.QUARRY_TEST_PG_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_PG_PORT ?? 5432), user: process.env.QUARRY_TEST_PG_USER ?? 'postgres', password: process.env.QUARRY_TEST_PG_PASSWORD };
const MYSQL = { host: process.env.QUARRY_TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_MYSQL_PORT ?? 3306), user: process.env.QUARRY_TEST_MYSQL_USER ?? 'root', password: process.env.QUARRY_TEST_MYSQL_PASSWORD ?? '' };

function line(what: string, quarry: number, raw: number, how: string, rawRows: number): void {
  console.log(`${what.padEnd(26)} quarry ${String(quarry).padStart(5)} ms | raw ${how.padEnd(36)} ${String(raw).padStart(5)} ms (${rawRows.toLocaleString('en')} rows) | ${(quarry / Math.max(raw, 1)).toFixed(2)}× raw`);
}

/** The rows as each engine's client binds them, converted before any timing starts. */
function boundRows(engine: SampleEngine, rows: SampleRows): Record<string, unknown[][]> {
  return Object.fromEntries(SAMPLE_TABLES.map((t) => [t.name, rows[t.name].map((r) => bindRow(engine, t, r))]));
}

/** PostgreSQL COPY text format / MariaDB LOAD DATA default format: tab-separated, \N for null, backslash escapes. */
function tsv(rows: unknown[][], booleanAs: (b: boolean) => string): Buffer {
  const escape = (v: unknown) => {
    if (v === null || v === undefined) return '\\N';
    if (typeof v === 'boolean') return booleanAs(v);
    return String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  };
  return Buffer.from(rows.map((r) => r.map(escape).join('\t')).join('\n') + '\n');
}

function csv(rows: unknown[][]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v));
  return rows.map((r) => r.map(cell).join(',')).join('\n') + '\n';
}

/** COPY … FROM STDIN through node-postgres's submittable interface (what pg-copy-streams does), one buffer. */
function copyFrom(client: pg.Client, text: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: Error | null = null;
    const submittable = {
      submit: (connection: any) => connection.query(text),
      handleCopyInResponse: (connection: any) => {
        for (let at = 0; at < data.length; at += 1 << 20) connection.sendCopyFromChunk(data.subarray(at, at + (1 << 20)));
        connection.endCopyFrom();
      },
      handleCommandComplete: () => {},
      handleReadyForQuery: () => (failure ? reject(failure) : resolve()),
      handleError: (error: Error) => {
        failure = error;
      },
      handleEmptyQuery: () => {},
      handleRowDescription: () => {},
      handleDataRow: () => {},
    };
    client.query(submittable as never);
  });
}

/** Rows the raw load left in the tables (printed, so a silently refused load shows). */
async function countRows(query: (sql: string) => Promise<unknown>, quote: (n: string) => string): Promise<number> {
  let n = 0;
  for (const table of SAMPLE_TABLES) n += Number(await query(`SELECT COUNT(*) FROM ${quote(table.name)}`));
  return n;
}
const dq = (n: string) => `"${n}"`;

function rawSqlite(file: string, rows: Record<string, unknown[][]>): number {
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = OFF');
  db.transaction(() => {
    for (const table of SAMPLE_TABLES) {
      db.exec(createTableSql('sqlite', table));
      const insert = db.prepare(`INSERT INTO "${table.name}" VALUES (${table.columns.map(() => '?').join(', ')})`);
      for (const row of rows[table.name]) insert.run(row);
    }
  })();
  db.exec('ANALYZE');
  let n = 0;
  for (const table of SAMPLE_TABLES) n += Number(db.prepare(`SELECT COUNT(*) FROM "${table.name}"`).pluck().get());
  db.close();
  return n;
}

async function rawDuckdb(file: string, csvFiles: Record<string, string>): Promise<number> {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  for (const table of SAMPLE_TABLES) {
    if (table.columns.some((col) => col.autoIncrement)) await c.run(`CREATE SEQUENCE ${table.name.toLowerCase()}_id_seq START 100000`);
    await c.run(createTableSql('duckdb', table));
    await c.run(`COPY "${table.name}" FROM '${csvFiles[table.name]}' (FORMAT csv, HEADER false)`);
  }
  await c.run('CHECKPOINT');
  const n = await countRows(async (q) => (await c.runAndReadAll(q)).getRows()[0][0], dq);
  c.closeSync();
  instance.closeSync();
  return n;
}

async function rawPostgres(database: string, data: Record<string, Buffer>): Promise<number> {
  const client = new pg.Client({ ...PG, database });
  await client.connect();
  await client.query('BEGIN');
  for (const table of SAMPLE_TABLES) {
    await client.query(createTableSql('postgres', table));
    await copyFrom(client, `COPY "${table.name}" FROM STDIN`, data[table.name]);
  }
  await client.query('COMMIT');
  await client.query('ANALYZE');
  const n = await countRows(async (q) => (await client.query({ text: q, rowMode: 'array' })).rows[0][0], dq);
  await client.end();
  return n;
}

async function rawMysql(database: string, data: Record<string, Buffer>): Promise<[string, number]> {
  const c = await mysql.createConnection({ ...MYSQL, database, charset: 'utf8mb4', infileStreamFactory: (path: string) => Readable.from([data[path]]) } as never);
  let how = 'LOAD DATA LOCAL INFILE';
  try {
    await c.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const table of SAMPLE_TABLES) {
      await c.query(createTableSql('mysql', table));
      try {
        await c.query(`LOAD DATA LOCAL INFILE '${table.name}' INTO TABLE \`${table.name}\` CHARACTER SET utf8mb4`);
      } catch {
        // The server refuses local files (local_infile=0): the driver's multi-row INSERT instead.
        how = 'multi-row INSERT (no local_infile)';
        const rows = data[table.name].toString().trimEnd().split('\n').map((l) => l.split('\t').map((v) => (v === '\\N' ? null : v.replace(/\\t/g, '\t').replace(/\\n/g, '\n').replace(/\\\\/g, '\\'))));
        for (let at = 0; at < rows.length; at += 5000) await c.query(`INSERT INTO \`${table.name}\` VALUES ?`, [rows.slice(at, at + 5000)]);
      }
    }
    await c.query('SET FOREIGN_KEY_CHECKS = 1');
    await c.query(`ANALYZE TABLE ${SAMPLE_TABLES.map((t) => `\`${t.name}\``).join(', ')}`);
    return [how, await countRows(async (q) => ((await c.query({ sql: q, rowsAsArray: true })) as any)[0][0][0], (n) => `\`${n}\``)];
  } finally {
    await c.end();
  }
}

const pgAdmin = new pg.Client({ ...PG, database: 'postgres' });
const myAdmin = await mysql.createConnection(MYSQL);
await pgAdmin.connect();
try {
  let t = performance.now();
  const rows = generateSample(undefined, { cache: false });
  const total = Object.values(rows).reduce((n, r) => n + r.length, 0);
  console.log(`generate rows (${total.toLocaleString('en')} rows, 8 tables): ${ms(t)} ms (no database involved; the raw figures below start from these rows)`);

  // SQLite: the file the server installs.
  const sqliteRows = boundRows('sqlite', rows);
  t = performance.now();
  const file = join(dir, 'sample-database.sqlite');
  writeSqliteSample(file, rows);
  const quarrySqlite = ms(t);
  t = performance.now();
  const sqliteCount = rawSqlite(join(dir, 'raw.sqlite'), sqliteRows);
  line(`write SQLite (${(statSync(file).size / 1e6).toFixed(1)} MB)`, quarrySqlite, ms(t), 'better-sqlite3 prepared INSERT', sqliteCount);
  t = performance.now();
  writeSqliteSample(join(dir, 'cold.sqlite'), generateSample(undefined, { cache: false }));
  console.log(`generate + write, as on first start: ${ms(t)} ms`);

  // The loaders below take the process's generated rows (computed once, as the server does): compute them now, so
  // their figures are loading only, like the raw ones.
  generateSample();

  // DuckDB.
  const csvFiles: Record<string, string> = {};
  for (const [table, bound] of Object.entries(boundRows('duckdb', rows))) {
    csvFiles[table] = join(dir, `${table}.csv`);
    writeFileSync(csvFiles[table], csv(bound));
  }
  t = performance.now();
  await loadSampleInto('duckdb', { db: join(dir, 'sample.duckdb') });
  const quarryDuck = ms(t);
  t = performance.now();
  const duckCount = await rawDuckdb(join(dir, 'raw.duckdb'), csvFiles);
  line('load into DuckDB', quarryDuck, ms(t), 'COPY FROM csv', duckCount);

  // PostgreSQL.
  const pgData = Object.fromEntries(Object.entries(boundRows('postgres', rows)).map(([table, bound]) => [table, tsv(bound, (b) => (b ? 't' : 'f'))]));
  await pgAdmin.query(`create database "${name}"`);
  await pgAdmin.query(`create database "${name}_raw"`);
  t = performance.now();
  await loadSampleInto('postgres', { ...PG, dbname: name });
  const quarryPg = ms(t);
  t = performance.now();
  const pgCount = await rawPostgres(`${name}_raw`, pgData);
  line('load into PostgreSQL', quarryPg, ms(t), 'COPY FROM STDIN', pgCount);

  // MariaDB / MySQL.
  const myData = Object.fromEntries(Object.entries(boundRows('mysql', rows)).map(([table, bound]) => [table, tsv(bound, (b) => (b ? '1' : '0'))]));
  await myAdmin.query(`create database \`${name}\``);
  await myAdmin.query(`create database \`${name}_raw\``);
  t = performance.now();
  await loadSampleInto('mysql', { ...MYSQL, dbname: name });
  const quarryMy = ms(t);
  t = performance.now();
  const [how, myCount] = await rawMysql(`${name}_raw`, myData);
  line('load into MariaDB/MySQL', quarryMy, ms(t), how, myCount);

  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  for (const db of [name, `${name}_raw`]) {
    await pgAdmin.query(`drop database if exists "${db}" with (force)`).catch(() => {});
    await myAdmin.query(`drop database if exists \`${db}\``).catch(() => {});
  }
  await pgAdmin.end();
  await myAdmin.end();
  rmSync(dir, { recursive: true, force: true });
}
