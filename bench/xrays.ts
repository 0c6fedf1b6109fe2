// X-ray benchmark: how long building an X-ray takes (the GET that returns the dashboard, not running its cards) and
// how many statements it costs — on the app DB (counted at the Kysely executor) and on the data source (counted at
// the driver connection, and for PostgreSQL also from pg_stat_user_tables scans of the table) — for the Sample
// Database's ORDERS table and for a PostgreSQL table of 10 million rows. Running the cards afterwards (as a browser
// would, one after another) is timed too, for scale. Figures are printed, never asserted.
//
//   npm run bench xrays            or: npx tsx bench/xrays.ts        (QUARRY_BENCH_XRAY_ROWS=… to change the size)

import pg from 'pg';
import { startServer, setupAdmin, type TestServer } from '../test/helpers/server.js';
import { createPgDatabase, PG } from '../test/helpers/databases.js';
import { installSample, tableOf } from '../test/databases/helpers.js';
import { countQueries } from '../test/helpers/query-count.js';
import type { Client } from '../test/helpers/client.js';
import { connectionFor } from '../src/databases/connections.js';
import { idleSyncs } from '../src/sync/runner.js';

const ROUNDS = 10;
const ROWS = Number(process.env.QUARRY_BENCH_XRAY_ROWS ?? 10_000_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Counts the statements the database's (cached) driver connection runs. */
async function dataStatementCounter(t: TestServer, databaseId: number): Promise<() => number> {
  const { connection } = await connectionFor(t.ctx, databaseId);
  const original = connection.execute.bind(connection);
  let n = 0;
  connection.execute = (...args: Parameters<typeof original>) => {
    n++;
    return original(...args);
  };
  return () => n;
}

async function measure(t: TestServer, client: Client, databaseId: number, path: string) {
  const statements = await dataStatementCounter(t, databaseId);
  for (let i = 0; i < 2; i++) await client.get(path); // warm-up
  const times: number[] = [];
  let body: any;
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    const r = await client.get(path);
    times.push(performance.now() - start);
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
    body = r.body;
  }
  const before = statements();
  // the fewest of three: a request now and then also refreshes its session or the settings cache
  const counts: number[] = [];
  for (let i = 0; i < 3; i++) counts.push(await countQueries(t, () => client.get(path)));
  const appDb = Math.min(...counts);
  return { median: median(times), min: Math.min(...times), appDb, data: (statements() - before) / 3, cards: Array.isArray(body.dashcards) ? body.dashcards.filter((d: any) => d.card).length : 0, body };
}

async function runCards(client: Client, body: any): Promise<number> {
  const start = performance.now();
  for (const dc of body.dashcards.filter((d: any) => d.card)) {
    const r = await client.post('/api/dataset', dc.card.dataset_query);
    if (r.body?.status !== 'completed') throw new Error(`${dc.card.name}: ${JSON.stringify(r.body?.error)}`);
  }
  return performance.now() - start;
}

async function createBigTable(name: string): Promise<void> {
  const c = new pg.Client({ ...PG, database: name });
  await c.connect();
  await c.query(`CREATE TABLE orders AS
    SELECT g AS id,
           1 + g % 50000 AS user_id,
           1 + g % 200 AS product_id,
           round((5 + (g * 7919 % 20000) / 100.0)::numeric, 2) AS total,
           round(((g * 31 % 1500) / 100.0)::numeric, 2) AS discount,
           1 + g % 7 AS quantity,
           (ARRAY['Affiliate', 'Facebook', 'Google', 'Organic', 'Twitter'])[1 + g % 5] AS source,
           (ARRAY['CA', 'TX', 'NY', 'WA', 'IL', 'FL', 'OR', 'MA'])[1 + g % 8] AS state,
           timestamp '2019-01-01' + (g * 12.6) * interval '1 second' AS created_at
    FROM generate_series(1::bigint, ${ROWS}) g`);
  await c.query('ALTER TABLE orders ADD PRIMARY KEY (id)');
  await c.query('ANALYZE orders');
  await c.end();
}

async function scansOf(name: string): Promise<number> {
  const c = new pg.Client({ ...PG, database: name });
  await c.connect();
  const r = await c.query("SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = 'orders'");
  await c.end();
  return Number(r.rows[0]?.n ?? 0);
}

function report(label: string, m: Awaited<ReturnType<typeof measure>>, extra = '') {
  console.log(`${label}: build median ${ms(m.median)} (min ${ms(m.min)}, ${ROUNDS} rounds), ${m.cards} cards; per build ${m.appDb} app-DB statements, ${m.data} data-source statements${extra}`);
}

const server = await startServer('sqlite');
const pgDb = await createPgDatabase('quarry_bench_xrays');
try {
  const admin = await setupAdmin(server);
  const sample = await installSample(admin);
  const orders = tableOf(sample.metadata, 'ORDERS').id;
  const small = await measure(server, admin, sample.id, `/api/automagic-dashboards/table/${orders}`);
  report('Sample Database ORDERS (18,760 rows, SQLite)', small);
  console.log(`  running its cards one after another: ${ms(await runCards(admin, small.body))}`);
  const candidates = await measure(server, admin, sample.id, `/api/automagic-dashboards/database/${sample.id}/candidates`);
  console.log(`candidates of the Sample Database: median ${ms(candidates.median)}; ${candidates.appDb} app-DB statements, ${candidates.data} data-source statements`);

  let start = performance.now();
  await createBigTable(pgDb.name);
  console.log(`(loaded ${ROWS.toLocaleString('en-US')} rows into PostgreSQL in ${ms(performance.now() - start)})`);
  start = performance.now();
  const created = await admin.post('/api/database', { engine: 'postgres', name: 'Big', details: { host: PG.host, port: PG.port, user: PG.user, dbname: pgDb.name, ...(PG.password ? { password: PG.password } : {}) } });
  if (created.status !== 200) throw new Error(created.text);
  await idleSyncs(server.ctx);
  console.log(`(synced it in ${ms(performance.now() - start)})`);
  const md = (await admin.get(`/api/database/${created.body.id}/metadata`)).body;
  const big = md.tables.find((t: any) => t.name === 'orders').id;
  const scans = await scansOf(pgDb.name);
  const large = await measure(server, admin, created.body.id, `/api/automagic-dashboards/table/${big}`);
  const scanned = (await scansOf(pgDb.name)) - scans;
  report(`PostgreSQL orders (${ROWS.toLocaleString('en-US')} rows)`, large, `; table scans on PostgreSQL during ${ROUNDS + 5} builds: ${scanned}`);
  console.log(`  running its cards one after another: ${ms(await runCards(admin, large.body))}`);
} finally {
  await server.close();
  await pgDb.drop();
}
