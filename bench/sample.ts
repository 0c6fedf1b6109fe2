// Sample-database generation: time to generate the rows, to write the SQLite file the server installs, and to load
// the same rows into DuckDB, PostgreSQL and MariaDB; peak RSS. Figures are printed, never asserted.
//   node --import tsx bench/sample.ts

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { generateSample } from '../src/sample/generate.js';
import { loadSampleInto, writeSqliteSample } from '../src/sample/load.js';

const ms = (since: number) => `${Math.round(performance.now() - since)} ms`;
const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-sample-'));
const name = `quarry_bench_${Date.now().toString(36)}`;
const PG = { host: process.env.QUARRY_TEST_PG_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_PG_PORT ?? 5432), user: process.env.QUARRY_TEST_PG_USER ?? 'postgres' };
const MYSQL = { host: process.env.QUARRY_TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_MYSQL_PORT ?? 3306), user: process.env.QUARRY_TEST_MYSQL_USER ?? 'root', password: process.env.QUARRY_TEST_MYSQL_PASSWORD ?? '' };

try {
  let t = performance.now();
  const rows = generateSample(undefined, { cache: false });
  const total = Object.values(rows).reduce((n, r) => n + r.length, 0);
  console.log(`generate rows (${total.toLocaleString('en')} rows, 8 tables): ${ms(t)}`);

  t = performance.now();
  const file = join(dir, 'sample-database.sqlite');
  writeSqliteSample(file, rows);
  console.log(`write SQLite file (${(statSync(file).size / 1e6).toFixed(1)} MB): ${ms(t)}`);

  t = performance.now();
  writeSqliteSample(join(dir, 'cold.sqlite'), generateSample(undefined, { cache: false }));
  console.log(`generate + write, as on first start: ${ms(t)}`);

  t = performance.now();
  await loadSampleInto('duckdb', { db: join(dir, 'sample.duckdb') });
  console.log(`load into DuckDB: ${ms(t)}`);

  const admin = new pg.Client({ ...PG, database: 'postgres' });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  t = performance.now();
  await loadSampleInto('postgres', { ...PG, dbname: name });
  console.log(`load into PostgreSQL: ${ms(t)}`);
  await admin.query(`drop database "${name}" with (force)`);
  await admin.end();

  const my = await mysql.createConnection(MYSQL);
  await my.query(`create database \`${name}\``);
  t = performance.now();
  await loadSampleInto('mysql', { ...MYSQL, dbname: name });
  console.log(`load into MariaDB/MySQL: ${ms(t)}`);
  await my.query(`drop database \`${name}\``);
  await my.end();

  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
