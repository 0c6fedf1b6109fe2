// Full sync of the sample database (metadata, fingerprints, classification, field values) on each engine, through
// a real server context on a SQLite app DB: first sync and re-sync times, and peak RSS. Printed, never asserted.
//   node --import tsx bench/sync.ts

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { loadSampleInto } from '../src/sample/load.js';
import { createDatabase } from '../src/databases/databases.js';
import { runSync } from '../src/sync/runner.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-sync-'));
const name = `quarry_bench_${Date.now().toString(36)}`;
const PG = { host: process.env.QUARRY_TEST_PG_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_PG_PORT ?? 5432), user: process.env.QUARRY_TEST_PG_USER ?? 'postgres' };
const MYSQL = { host: process.env.QUARRY_TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_MYSQL_PORT ?? 3306), user: process.env.QUARRY_TEST_MYSQL_USER ?? 'root', password: process.env.QUARRY_TEST_MYSQL_PASSWORD ?? '' };

const pgAdmin = new pg.Client({ ...PG, database: 'postgres' });
const myAdmin = await mysql.createConnection(MYSQL);
await pgAdmin.connect();
await pgAdmin.query(`create database "${name}"`);
await myAdmin.query(`create database \`${name}\``);
const details: Record<string, Record<string, unknown>> = {
  sqlite: { db: join(dir, 'sample.sqlite') },
  duckdb: { db: join(dir, 'sample.duckdb') },
  postgres: { ...PG, dbname: name },
  mysql: { ...MYSQL, dbname: name },
};
const server = await createServer(loadConfig({ MB_DB_FILE: join(dir, 'app.db'), MB_LOAD_SAMPLE_CONTENT: 'false', QUARRY_LOG_LEVEL: 'fatal' }));
try {
  await Promise.all(Object.entries(details).map(([engine, d]) => loadSampleInto(engine as never, d as never)));
  for (const [engine, d] of Object.entries(details)) {
    let t = performance.now();
    const db = await createDatabase(server.ctx, null, { engine, name: `Sample on ${engine}`, details: d });
    const first = await runSync(server.ctx, db.id as number, 'full');
    const firstMs = Math.round(performance.now() - t);
    t = performance.now();
    const again = await runSync(server.ctx, db.id as number, 'full');
    console.log(`full sync of the sample database on ${engine.padEnd(8)}: first ${firstMs} ms (${first}), re-sync ${Math.round(performance.now() - t)} ms (${again})`);
  }
  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  await server.close();
  await pgAdmin.query(`drop database "${name}" with (force)`);
  await pgAdmin.end();
  await myAdmin.query(`drop database \`${name}\``);
  await myAdmin.end();
  rmSync(dir, { recursive: true, force: true });
}
