// Query engine benchmarks, each beside the raw driver doing the same work (figures printed, never asserted):
//   1. a small card query end to end (HTTP, pipeline, JSON) vs the driver running the compiled SQL — added p50;
//   2. a 2,000-row result vs the driver fetching the same 2,000 rows;
//   3. a 1,000,000-row CSV download: rows/s vs the driver streaming the same rows, and the server's peak RSS;
//   4. 50 concurrent queries on one database vs the driver with the same pool.
//
//   npm run bench query        (builds first)      or: npm run build && npx tsx bench/query.ts
//
// Data: the sample rows and a million-row table in a throwaway PostgreSQL database on the machine.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPgDatabase, PG } from '../test/helpers/databases.js';
import { loadSampleInto } from '../src/sample/load.js';
import { findDriver } from '../src/drivers/registry.js';
import { waitFor } from './wait.js';

const ROOT = new URL('..', import.meta.url).pathname;
const PORT = 3921;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Pass-123', first_name: 'Bench', last_name: 'Admin' };
const BIG = 1_000_000;
const POOL = 15;

type Obj = Record<string, any>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f2 = (x: number) => x.toFixed(2);

async function call(session: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(BASE + path, { method, headers: { 'Content-Type': 'application/json', 'X-Metabase-Session': session }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (r.status >= 300 && r.status !== 202) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** Peak and current RSS of a process (Linux), in MB. */
function memory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-query-'));
  const data = await createPgDatabase('quarry_bench_query');
  let child: ChildProcess | null = null;
  try {
    await loadSampleInto('postgres', { host: PG.host, port: PG.port, user: PG.user, password: PG.password, dbname: data.name });
    const details = { host: PG.host, port: PG.port, user: PG.user, ...(PG.password ? { password: PG.password } : {}), dbname: data.name };
    child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
      env: { ...process.env, MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db'), MB_LOAD_SAMPLE_CONTENT: 'false', MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(PORT), QUARRY_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor('the server', async () => (await fetch(`${BASE}/api/health`)).ok);
    const props: any = await (await fetch(`${BASE}/api/session/properties`)).json();
    const setup: any = await (await fetch(`${BASE}/api/setup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: props['setup-token'], user: ADMIN, prefs: { site_name: 'Bench' } }) })).json();
    const session: string = setup.id;
    const database = await call(session, 'POST', '/api/database', { engine: 'postgres', name: 'Bench', details });
    const md = await waitFor('synced metadata', async () => {
      const m = await call(session, 'GET', `/api/database/${database.id}/metadata`);
      return m.tables.some((t: Obj) => t.name === 'ORDERS' && t.fields.length) && m;
    });
    // The big table is made after the sync: only native SQL reads it.
    const c = new pg.Client({ ...PG, database: data.name });
    await c.connect();
    await c.query(`CREATE TABLE big AS SELECT g AS id, md5(g::text) AS label, g * 1.5 AS amount, timestamp '2024-01-01' + g * interval '1 second' AS at FROM generate_series(1, ${BIG}) g`);
    await c.end();

    const table = (name: string) => md.tables.find((t: Obj) => t.name === name);
    const field = (t: string, n: string) => table(t).fields.find((f: Obj) => f.name === n).id;
    const driver = findDriver('postgres')!;
    const raw = driver.open(driver.normalizeDetails(details), { maxConnections: POOL, dataDir: dir });
    const drain = async (sql: string, params: unknown[] = [], limit = Infinity) => {
      const stream = await raw.execute(sql, params);
      let n = 0;
      for await (const _row of stream) if (++n >= limit) break;
      await stream.close();
      return n;
    };

    // 1. Small card query.
    const card = await call(session, 'POST', '/api/card', {
      name: 'Orders by category', display: 'bar', visualization_settings: {},
      dataset_query: { database: database.id, type: 'query', query: { 'source-table': table('ORDERS').id, aggregation: [['count']], breakout: [['field', field('PRODUCTS', 'CATEGORY'), { 'source-field': field('ORDERS', 'PRODUCT_ID') }]] } },
    });
    const cardSql = (await call(session, 'POST', `/api/card/${card.id}/query`, {})).data.native_form.query as string;
    const N = 300;
    const quarrySmall: number[] = [];
    const httpBaseline: number[] = [];
    const quarryAdhoc: number[] = [];
    const rawSmall: number[] = [];
    for (let i = 0; i < 30; i++) {
      await call(session, 'POST', `/api/card/${card.id}/query`, {});
      await drain(cardSql);
    }
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      const r = await call(session, 'POST', `/api/card/${card.id}/query`, {});
      quarrySmall.push(performance.now() - t);
      if (r.status !== 'completed') throw new Error(JSON.stringify(r).slice(0, 300));
      t = performance.now();
      await call(session, 'POST', '/api/dataset', card.dataset_query);
      quarryAdhoc.push(performance.now() - t);
      t = performance.now();
      await call(session, 'GET', '/api/user/current');
      httpBaseline.push(performance.now() - t);
      t = performance.now();
      await drain(cardSql);
      rawSmall.push(performance.now() - t);
    }
    console.log(`\n1. Small card query (4 rows, implicit join), ${N} sequential runs`);
    console.log(`   raw driver, compiled SQL   p50 ${f2(median(rawSmall))} ms   p90 ${f2(pct(rawSmall, 0.9))} ms`);
    console.log(`   (HTTP round trip of GET /api/user/current: p50 ${f2(median(httpBaseline))} ms)`);
    console.log(`   Quarry, POST /api/dataset  p50 ${f2(median(quarryAdhoc))} ms   p90 ${f2(pct(quarryAdhoc, 0.9))} ms   added at p50 ${f2(median(quarryAdhoc) - median(rawSmall))} ms`);
    console.log(`   Quarry, POST card query    p50 ${f2(median(quarrySmall))} ms   p90 ${f2(pct(quarrySmall, 0.9))} ms   added at p50 ${f2(median(quarrySmall) - median(rawSmall))} ms (target ≤ 2 ms)`);

    // 2. A 2,000-row result.
    const rows2k = { database: database.id, type: 'query', query: { 'source-table': table('ORDERS').id } };
    const sql2k = (await call(session, 'POST', '/api/dataset', rows2k)).data.native_form.query as string;
    const q2k: number[] = [];
    const r2k: number[] = [];
    for (let i = 0; i < 60; i++) {
      let t = performance.now();
      const r = await call(session, 'POST', '/api/dataset', rows2k);
      if (i >= 10) q2k.push(performance.now() - t);
      if (r.row_count !== 2000) throw new Error('expected 2000 rows');
      t = performance.now();
      await drain(sql2k, [], 2000);
      if (i >= 10) r2k.push(performance.now() - t);
    }
    console.log(`\n2. 2,000-row result (9 columns), 50 runs`);
    console.log(`   raw driver                 p50 ${f2(median(r2k))} ms`);
    console.log(`   Quarry, POST /api/dataset  p50 ${f2(median(q2k))} ms   (HTTP + cols + ISO dates + JSON)`);

    // 3. A million-row CSV download.
    const bigSql = 'SELECT id, label, amount, at FROM big';
    let t = performance.now();
    const rawRows = await drain(bigSql);
    const rawSeconds = (performance.now() - t) / 1000;
    const before = memory(child.pid!);
    t = performance.now();
    const response = await fetch(`${BASE}/api/dataset/csv`, {
      method: 'POST',
      headers: { 'X-Metabase-Session': session, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: JSON.stringify({ database: database.id, type: 'native', native: { query: bigSql } }) }).toString(),
    });
    let lines = 0;
    let bytes = 0;
    let rssDuring = 0;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines++;
      rssDuring = Math.max(rssDuring, memory(child.pid!).now);
    }
    const csvSeconds = (performance.now() - t) / 1000;
    const after = memory(child.pid!);
    console.log(`\n3. ${BIG.toLocaleString('en-US')}-row CSV download (4 columns, ${(bytes / 1e6).toFixed(0)} MB)`);
    console.log(`   raw driver streaming       ${Math.round(rawRows / rawSeconds).toLocaleString('en-US')} rows/s`);
    console.log(`   Quarry CSV over HTTP       ${Math.round((lines - 1) / csvSeconds).toLocaleString('en-US')} rows/s   ${f2((lines - 1) / csvSeconds / (rawRows / rawSeconds))}× raw (target ≥ 0.7×)`);
    console.log(`   server RSS: before ${before.now.toFixed(0)} MB, highest while streaming ${rssDuring.toFixed(0)} MB, process peak ${after.peak.toFixed(0)} MB (target < 300 MB)`);

    // 4. 50 concurrent queries on one database.
    const queries = Array.from({ length: 50 }, (_, i) => ({
      database: database.id, type: 'query',
      query: { 'source-table': table('ORDERS').id, aggregation: [['count'], ['sum', ['field', field('ORDERS', 'TOTAL'), null]]], breakout: [['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]], filter: ['>', ['field', field('ORDERS', 'QUANTITY'), null], i % 10] },
    }));
    const sqls: string[] = [];
    for (const q of queries) sqls.push((await call(session, 'POST', '/api/dataset', q)).data.native_form.query);
    const quarryWall: number[] = [];
    const quarryLat: number[] = [];
    const rawWall: number[] = [];
    const rawLat: number[] = [];
    for (let round = 0; round < 5; round++) {
      let t0 = performance.now();
      const lat = await Promise.all(queries.map(async (q) => {
        const s = performance.now();
        await call(session, 'POST', '/api/dataset', q);
        return performance.now() - s;
      }));
      quarryWall.push(performance.now() - t0);
      quarryLat.push(...lat);
      t0 = performance.now();
      const rl = await Promise.all(sqls.map(async (sql) => {
        const s = performance.now();
        await drain(sql);
        return performance.now() - s;
      }));
      rawWall.push(performance.now() - t0);
      rawLat.push(...rl);
    }
    console.log(`\n4. 50 concurrent aggregated queries on one database (pool ${POOL}), median of 5 rounds`);
    console.log(`   raw driver (pool ${POOL})        all done ${f2(median(rawWall))} ms   p50 ${f2(median(rawLat))} ms   p99 ${f2(pct(rawLat, 0.99))} ms`);
    console.log(`   Quarry (fair queue ${POOL} wide)  all done ${f2(median(quarryWall))} ms   p50 ${f2(median(quarryLat))} ms   p99 ${f2(pct(quarryLat, 0.99))} ms`);
    await raw.close();
  } finally {
    if (child) {
      await new Promise<void>((resolve) => {
        child!.once('exit', () => resolve());
        child!.kill('SIGTERM');
      });
    }
    await data.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
