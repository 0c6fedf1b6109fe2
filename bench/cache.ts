// Result cache and model persistence benchmark (issue 15). Figures are printed, never asserted.
//
//   npm run bench cache            (builds first)      or: npm run build && npx tsx bench/cache.ts [sqlite|postgres ...]
//   (BENCH_LOG=warn shows the server's warnings)
//
// For each app DB kind (where cached results are stored): a Quarry process (dist/) with the Sample Database's rows
// in a throwaway PostgreSQL warehouse, and
//   1. card runs, one after another: p50/p95 of the raw driver running the card's SQL, of the card run uncached
//      (policy `nocache`), and of the card run answered from the cache (policy `duration`) — an aggregation and a
//      2,000-row table;
//   2. 50 viewers of a slow card at once: wall time, and how many statements reached PostgreSQL (counted there);
//   3. a 100,000-row model (a window over line items) persisted on PostgreSQL: the time to persist it, to refresh
//      it, and a question on the model live vs read from the persisted table.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPgDatabase, PG } from '../test/helpers/databases.js';
import { freePort } from '../test/helpers/free-port.js';
import { loadSampleInto } from '../src/sample/load.js';
import { findDriver } from '../src/drivers/registry.js';
import { Api, waitFor } from './server.js';

const ROOT = new URL('..', import.meta.url).pathname;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Pass-123', first_name: 'Bench', last_name: 'Admin' };
const RUNS = 100;
const VIEWERS = 50;
const MODEL_ROWS = 100_000;

type Obj = Record<string, any>;

/** The admin's client, with the card runs the benchmark times. */
class BenchApi extends Api {
  async run(cardId: number): Promise<Obj> {
    const r = await this.call('POST', `/api/card/${cardId}/query`, {});
    if (r.status !== 202 || r.body.status !== 'completed') throw new Error(`card ${cardId}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  }
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
const line = (label: string, xs: number[]) => console.log(`  ${label.padEnd(34)} p50 ${ms(pct(xs, 50))}   p95 ${ms(pct(xs, 95))}`);

async function timed(n: number, f: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    out.push(performance.now() - t0);
  }
  return out;
}

async function bench(kind: 'sqlite' | 'postgres'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-cache-'));
  const warehouse = await createPgDatabase('quarry_bench_cache');
  const appDb = kind === 'postgres' ? await createPgDatabase('quarry_bench_appdb') : null;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const appEnv: Record<string, string> =
    kind === 'sqlite'
      ? { MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db') }
      : { MB_DB_TYPE: 'postgres', MB_DB_HOST: PG.host, MB_DB_PORT: String(PG.port), MB_DB_USER: PG.user, MB_DB_DBNAME: appDb!.name, ...(PG.password ? { MB_DB_PASS: PG.password } : {}) };
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    env: { ...process.env, ...appEnv, MB_LOAD_SAMPLE_CONTENT: 'false', MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port), QUARRY_LOG_LEVEL: process.env.BENCH_LOG ?? 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const whClient = new pg.Client({ ...PG, database: warehouse.name });
  try {
    await loadSampleInto('postgres', { host: PG.host, port: PG.port, user: PG.user, password: PG.password, dbname: warehouse.name });
    await whClient.connect();
    await whClient.query(`
      CREATE SEQUENCE bench_statements;
      CREATE FUNCTION bench_counted(sleep_ms integer) RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
        BEGIN PERFORM nextval('bench_statements'); PERFORM pg_sleep(sleep_ms / 1000.0); RETURN 1; END $$;
      CREATE TABLE line_items AS SELECT g AS id, (g % 97) AS product, (ARRAY['Gizmo','Widget','Gadget','Doohickey'])[1 + g % 4] AS category,
        round(((g * 7.31) % 500)::numeric, 2) AS amount, timestamp '2024-01-01' + g * interval '5 minutes' AS created_at FROM generate_series(1, ${MODEL_ROWS}) g;`);
    await waitFor('the server', async () => (await fetch(`${base}/api/health`)).ok);
    const props = (await (await fetch(`${base}/api/session/properties`)).json()) as Obj;
    const setup = (await (await fetch(`${base}/api/setup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: props['setup-token'], user: ADMIN, prefs: { site_name: 'Bench' } }) })).json()) as Obj;
    const api = new BenchApi(base, setup.id);
    const details = { host: PG.host, port: PG.port, user: PG.user, ...(PG.password ? { password: PG.password } : {}), dbname: warehouse.name };
    const db = await api.ok('POST', '/api/database', { engine: 'postgres', name: 'Bench warehouse', details });
    const md = await waitFor('synced metadata', async () => {
      const m = await api.ok('GET', `/api/database/${db.id}/metadata`);
      return m.tables.some((t: Obj) => t.name === 'line_items' && t.fields?.length) && m.tables.some((t: Obj) => t.name === 'ORDERS' && t.fields?.length) ? m : null;
    });
    // the first sync's analysis sets semantic types, which are part of the results (and of the cache key): wait for it
    await waitFor('the first analysis', async () => {
      const tasks = await api.ok('GET', '/api/task?task=analyze&limit=50&offset=0').catch(() => null);
      return (tasks?.data ?? []).some((t: Obj) => t.task === 'analyze' && t.db_id === db.id && t.status === 'success');
    }, 600_000);
    const table = (name: string) => md.tables.find((t: Obj) => t.name === name);
    const field = (t: string, f: string) => ['field', table(t).fields.find((x: Obj) => x.name === f).id, null];
    const orders = table('ORDERS').id;
    const card = async (name: string, query: Obj, strategy: Obj) => {
      const c = await api.ok('POST', '/api/card', { name, display: 'table', visualization_settings: {}, dataset_query: query, result_metadata: [] });
      await api.ok('PUT', '/api/cache', { model: 'question', model_id: c.id, strategy });
      return c.id as number;
    };
    const driver = findDriver('postgres')!;
    const connection = driver.open(driver.normalizeDetails(details), { maxConnections: 4, dataDir: dir });
    const raw = async (sql: string, params: unknown[]) => {
      const stream = await connection.execute(sql, params);
      let n = 0;
      for await (const _row of stream) if (++n >= 2000) break;
      await stream.close();
    };

    console.log(`\nApp DB ${kind} — warehouse PostgreSQL (sample rows), ${RUNS} sequential runs each`);
    const shapes: Array<[string, Obj]> = [
      ['revenue by category × month', { database: db.id, type: 'query', query: { 'source-table': orders, aggregation: [['sum', field('ORDERS', 'TOTAL')], ['count']], breakout: [['field', table('PRODUCTS').fields.find((x: Obj) => x.name === 'CATEGORY').id, { 'source-field': table('ORDERS').fields.find((x: Obj) => x.name === 'PRODUCT_ID').id }], ['field', table('ORDERS').fields.find((x: Obj) => x.name === 'CREATED_AT').id, { 'temporal-unit': 'month' }]] } }],
      ['2,000-row table', { database: db.id, type: 'query', query: { 'source-table': orders, 'order-by': [['desc', field('ORDERS', 'CREATED_AT')]] } }],
    ];
    for (const [label, query] of shapes) {
      const uncached = await card(`${label} (uncached)`, query, { type: 'nocache' });
      const cached = await card(`${label} (cached)`, query, { type: 'duration', duration: 1, unit: 'hours' });
      const first = await api.run(uncached);
      const sql = first.data.native_form.query as string;
      // the key covers the fields' metadata: wait until the first sync's analysis has settled and a result stays stored
      await waitFor('a stored result', async () => (await api.run(cached)).cached && (await api.run(cached)).cached);
      const params = (first.data.native_form.params ?? []) as unknown[];
      await timed(5, () => raw(sql, params));
      console.log(` ${label} (${first.row_count} rows)`);
      line('raw driver, same SQL', await timed(RUNS, () => raw(sql, params)));
      line('card run, uncached', await timed(RUNS, () => api.run(uncached)));
      const hits = await timed(RUNS, async () => {
        const r = await api.run(cached);
        if (!r.cached) throw new Error('expected a cached answer');
      });
      line('card run, from the cache', hits);
    }
    await connection.close();

    // 2. 50 viewers of a slow card at once
    const slow = await card('Slow card', { database: db.id, type: 'native', native: { query: 'SELECT (SELECT bench_counted(1000)) AS run, count(*) AS n FROM "ORDERS"' } }, { type: 'duration', duration: 1, unit: 'hours' });
    const statements = async () => {
      const { last_value, is_called } = (await whClient.query('SELECT last_value, is_called FROM bench_statements')).rows[0];
      return is_called ? Number(last_value) : 0;
    };
    const before = await statements();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: VIEWERS }, () => api.run(slow)));
    const wall = performance.now() - t0;
    const after = await statements();
    console.log(` ${VIEWERS} viewers of a 1-second card at once: all answered in ${ms(wall)}, statements on PostgreSQL: ${after - before}`);

    // 3. a 100,000-row model persisted on PostgreSQL
    await api.ok('POST', '/api/persist/enable');
    await api.ok('POST', `/api/database/${db.id}/persist`);
    // a model worth keeping: every line item with its product's running total (a window over 100,000 rows)
    const modelSql = 'SELECT id, product, category, amount, created_at, sum(amount) OVER (PARTITION BY product ORDER BY id) AS running_total FROM line_items';
    const model = await api.ok('POST', '/api/card', { name: 'Line items', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: db.id, type: 'native', native: { query: modelSql } } });
    const question = { database: db.id, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['max', ['field', 'running_total', { 'base-type': 'type/Decimal' }]], ['count']], breakout: [['field', 'category', { 'base-type': 'type/Text' }]] } };
    const dataset = async () => {
      const r = await api.ok('POST', '/api/dataset', question);
      if (r.status !== 'completed') throw new Error(JSON.stringify(r).slice(0, 300));
      return r;
    };
    const live = await timed(20, dataset);
    const persistedState = async (sinceBegin: string | null) =>
      waitFor('the persisted model', async () => {
        const info = await api.ok('GET', `/api/persist/card/${model.id}`);
        return info.state === 'persisted' && (!sinceBegin || info.refresh_begin > sinceBegin) ? info : info.state === 'error' ? Promise.reject(new Error(info.error)) : null;
      });
    let t = performance.now();
    await api.ok('POST', `/api/card/${model.id}/persist`);
    const persisted = await persistedState(null);
    const persistWall = performance.now() - t;
    t = performance.now();
    await api.ok('POST', `/api/card/${model.id}/refresh`);
    const refreshed = await persistedState(persisted.refresh_begin);
    const refreshWall = performance.now() - t;
    const fromTable = await timed(20, dataset);
    if (!(await dataset()).data.native_form.query.includes(persisted.table_name)) throw new Error('the question did not read the persisted table');
    const took = (i: Obj) => new Date(i.refresh_end).getTime() - new Date(i.refresh_begin).getTime();
    console.log(` ${MODEL_ROWS.toLocaleString('en')}-row model on PostgreSQL`);
    console.log(`  persist (request → persisted)      ${ms(persistWall)}   (build and swap ${ms(took(persisted))})`);
    console.log(`  refresh (request → persisted)      ${ms(refreshWall)}   (build and swap ${ms(took(refreshed))})`);
    line('question on the model, live', live);
    line('question on the model, persisted', fromTable);
  } finally {
    await whClient.end().catch(() => {});
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    await warehouse.drop();
    await appDb?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kinds = (process.argv.slice(2).length ? process.argv.slice(2) : ['sqlite', 'postgres']) as Array<'sqlite' | 'postgres'>;
for (const kind of kinds) await bench(kind);
