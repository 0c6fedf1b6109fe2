// Full sync of the sample database (metadata, fingerprints, classification, field values) on each engine, through
// a real server context on a SQLite app DB: the first sync (the one adding a database starts) and a re-sync, and peak
// RSS. Printed, never asserted.
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
import { idleSyncs, runSync } from '../src/sync/runner.js';

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
    // Adding a database starts its first full sync in the background: time that one sync, from the request until
    // it is done (a runSync here would queue a second full sync behind it and count both).
    let t = performance.now();
    const db = await createDatabase(server.ctx, null, { engine, name: `Sample on ${engine}`, details: d });
    await idleSyncs(server.ctx);
    const firstMs = Math.round(performance.now() - t);
    const status = (await server.ctx.db.selectFrom('metabase_database').select('initial_sync_status').where('id', '=', db.id as number).executeTakeFirstOrThrow()).initial_sync_status;
    const first = status === 'complete' ? 'done' : status;
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
