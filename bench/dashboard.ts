// Dashboard loading benchmark: a dashboard of 25 cards on one database, all 25 dashcard queries fired at once as a
// browser does — time until the last result arrived and the slowest single wait — beside the same 25 SQL statements
// run by the raw driver with the same concurrency (the database's pool size, which is also Quarry's per-database
// queue width). Also: how long another user's single card waits while the dashboard loads (the fair queue), and a
// page load with a Category filter set — every request carries the filter's value, as the browser sends it: the
// cards wired to it run filtered and each request saves the caller's last used value. Figures are printed, never
// asserted.
//
//   npm run bench dashboard            (builds first)      or: npm run build && npx tsx bench/dashboard.ts [sqlite|postgres ...]
//
// Data sources: `sqlite` — the Sample Database as installed by Quarry; `postgres` — the same rows loaded into a
// throwaway PostgreSQL database on the machine.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgDatabase, PG } from '../test/helpers/databases.js';
import { loadSampleInto } from '../src/sample/load.js';
import { findDriver } from '../src/drivers/registry.js';
import { Api, setupInstance, startQuarry, waitFor } from './server.js';
import { CATEGORY, createBenchDashboard, dashboardQueries, schemaOf } from './dashboard-cards.js';

const PORT = 3919;
const BASE = `http://127.0.0.1:${PORT}`;
const ROUNDS = 7;
const POOL = 15; // MB_JDBC_DATA_WAREHOUSE_MAX_CONNECTION_POOL_SIZE default: the pool and the queue width
const ROW_CAP = 2000; // what the API returns of an unaggregated query

type Obj = Record<string, any>;


interface Round {
  wall: number;
  latencies: number[];
  other: number | null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0).padStart(5)} ms`;

/** The request parameters of a page load: none, or the Category filter set to `category`. */
function filterParameters(category: string | null): Obj[] {
  return category === null ? [] : [{ id: CATEGORY.id, type: CATEGORY.type, value: [category] }];
}

async function quarryRound(api: Api, dashboardId: number, dashcards: Obj[], other: { api: Api; card: number } | null, category: string | null = null): Promise<Round> {
  const loadId = `bench-${Math.random().toString(36).slice(2)}`;
  const parameters = filterParameters(category);
  const t0 = performance.now();
  const runs = dashcards.map(async (dc) => {
    const s = performance.now();
    const r = await api.call('POST', `/api/dashboard/${dashboardId}/dashcard/${dc.id}/card/${dc.card_id}/query`, { parameters, dashboard_load_id: loadId });
    if (r.status !== 202 || r.body.status !== 'completed') throw new Error(`dashcard ${dc.id}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    return performance.now() - s;
  });
  let otherWait: Promise<number> | null = null;
  if (other) {
    await new Promise((r) => setTimeout(r, 2));
    const s = performance.now();
    otherWait = other.api.call('POST', `/api/card/${other.card}/query`, {}).then((r) => {
      if (r.status !== 202 || r.body.status !== 'completed') throw new Error(`other user's card: ${JSON.stringify(r.body).slice(0, 300)}`);
      return performance.now() - s;
    });
  }
  const latencies = await Promise.all(runs);
  const wall = performance.now() - t0;
  return { wall, latencies, other: otherWait ? await otherWait : null };
}

async function rawRound(execute: (sql: string, params: unknown[]) => Promise<void>, statements: Array<{ sql: string; params: unknown[] }>): Promise<Round> {
  const t0 = performance.now();
  const latencies: number[] = new Array(statements.length);
  let next = 0;
  let running = 0;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (next >= statements.length && running === 0) return resolve();
      while (running < POOL && next < statements.length) {
        const i = next++;
        running++;
        // a browser's wait starts when it sends the request: here, for all of them, at t0
        execute(statements[i].sql, statements[i].params)
          .then(() => {
            latencies[i] = performance.now() - t0;
            running--;
            pump();
          })
          .catch(reject);
      }
    };
    pump();
  });
  return { wall: performance.now() - t0, latencies, other: null };
}

function report(label: string, rounds: Round[]): void {
  const walls = rounds.map((r) => r.wall);
  const slowest = rounds.map((r) => Math.max(...r.latencies));
  const p50 = rounds.map((r) => median(r.latencies));
  const others = rounds.map((r) => r.other).filter((x): x is number => x !== null);
  console.log(
    `  ${label.padEnd(30)} last result ${ms(median(walls))}   slowest wait ${ms(median(slowest))}   median wait ${ms(median(p50))}` +
      (others.length ? `   another user's card ${ms(median(others))}` : ''),
  );
}

async function bench(kind: 'sqlite' | 'postgres'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-dash-'));
  const pgData = kind === 'postgres' ? await createPgDatabase('quarry_bench_data') : null;
  const child = startQuarry(PORT, { MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db'), MB_LOAD_SAMPLE_CONTENT: kind === 'sqlite' ? 'true' : 'false' });
  try {
    await waitFor('the server', async () => (await fetch(`${BASE}/api/health`)).ok);
    const api = await setupInstance(BASE);
    let databaseId: number;
    let details: Record<string, unknown>;
    if (kind === 'sqlite') {
      const sample = await api.ok('POST', '/api/database/sample_database');
      databaseId = sample.id;
      details = { db: join(dir, 'sample-database.sqlite') };
    } else {
      await loadSampleInto('postgres', { host: PG.host, port: PG.port, user: PG.user, password: PG.password, dbname: pgData!.name });
      details = { host: PG.host, port: PG.port, user: PG.user, ...(PG.password ? { password: PG.password } : {}), dbname: pgData!.name };
      const created = await api.ok('POST', '/api/database', { engine: 'postgres', name: 'Sample on PostgreSQL', details });
      databaseId = created.id;
    }
    const s = await schemaOf(api, databaseId);
    const driver = findDriver(kind)!;
    const queries = dashboardQueries(s, (n) => driver.quoteIdentifier(n));
    const layout = await createBenchDashboard(api, queries, { name: 'Bench dashboard', display: () => 'table', sizeY: 4 });
    const dash = { id: layout.id as number };
    const dashcards: Obj[] = layout.dashcards;

    // another user with a card of their own
    const password = 'Other-Pass-123';
    await api.ok('POST', '/api/user', { first_name: 'Other', last_name: 'User', email: 'other@example.com', password });
    const login = (await (await fetch(`${BASE}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'other@example.com', password }) })).json()) as { id: string };
    const otherApi = new Api(BASE, login.id);
    const otherCard = await api.ok('POST', '/api/card', { name: 'Other user card', display: 'scalar', visualization_settings: {}, dataset_query: queries[0].query, result_metadata: [] });

    // The SQL each card ran (as Quarry compiled it), for the raw driver: unfiltered, and with the Category filter.
    const compiled = async (category: string | null) => {
      const out: Array<{ sql: string; params: unknown[] }> = [];
      for (const dc of dashcards) {
        const r = await api.ok('POST', `/api/dashboard/${dash.id}/dashcard/${dc.id}/card/${dc.card_id}/query`, { parameters: filterParameters(category) });
        out.push({ sql: r.data.native_form.query, params: r.data.native_form.params ?? [] });
      }
      return out;
    };
    const statements = await compiled(null);
    const filteredStatements = await compiled('Gizmo');
    const wired = queries.filter((q) => q.category).length;

    const connection = driver.open(driver.normalizeDetails(details), { maxConnections: POOL, dataDir: dir });
    const execute = async (sql: string, params: unknown[]) => {
      const stream = await connection.execute(sql, params);
      let n = 0;
      for await (const _row of stream) if (++n >= ROW_CAP) break;
      await stream.close();
    };

    const quarry: Round[] = [];
    const quarryAlone: Round[] = [];
    const quarryFiltered: Round[] = [];
    const raw: Round[] = [];
    const rawFiltered: Round[] = [];
    const categories = ['Gizmo', 'Widget', 'Gadget', 'Doohickey'];
    await quarryRound(api, dash.id, dashcards, null); // warm-up
    await quarryRound(api, dash.id, dashcards, null, 'Gizmo');
    await rawRound(execute, statements);
    await rawRound(execute, filteredStatements);
    for (let i = 0; i < ROUNDS; i++) {
      quarryAlone.push(await quarryRound(api, dash.id, dashcards, null));
      quarry.push(await quarryRound(api, dash.id, dashcards, { api: otherApi, card: otherCard.id }));
      // a different value each round, so each page load changes the remembered value
      quarryFiltered.push(await quarryRound(api, dash.id, dashcards, null, categories[i % categories.length]));
      raw.push(await rawRound(execute, statements));
      rawFiltered.push(await rawRound(execute, filteredStatements));
    }
    await connection.close();

    const alone = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      await otherApi.ok('POST', `/api/card/${otherCard.id}/query`, {});
      alone.push(performance.now() - t0);
    }

    console.log(`\n${kind === 'sqlite' ? 'SQLite (the Sample Database)' : 'PostgreSQL (sample rows)'} — 25 dashcards, concurrency ${POOL}, median of ${ROUNDS} rounds`);
    report('raw driver, same SQL', raw);
    report('Quarry, 25 dashcard requests', quarryAlone);
    report('Quarry + another user', quarry);
    report('raw driver, filtered SQL', rawFiltered);
    report(`Quarry, filter on ${wired} cards`, quarryFiltered);
    console.log(`  another user's card when idle ${ms(median(alone))}`);
  } finally {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    await pgData?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kinds = (process.argv.slice(2).length ? process.argv.slice(2) : ['sqlite', 'postgres']) as Array<'sqlite' | 'postgres'>;
for (const kind of kinds) await bench(kind);
