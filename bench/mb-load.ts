// Metabase's own load scenario — ../shared/bench/mb-load.mjs, its k6 test replayed, run unchanged — against a freshly
// started Quarry on each stack: a SQLite app DB with the embedded SQLite Sample Database, and a PostgreSQL app DB with
// the Sample Database loaded into a PostgreSQL data source (the stack of Metabase's published test). The figures go in
// one table beside Metabase's published 2-core ones, with two physical limits measured on this machine: what the raw
// driver needs to read and serialize one iteration's rows (the eight whole-table queries), and one login's bcrypt.
// Figures are printed, never asserted.
//
//   npm run bench mb-load                                              the published profile: 38 min per stack
//   PROFILE=constant VUS=60 DURATION_S=60 npm run bench mb-load        60 users for a minute
//   THINK_SCALE=0 PROFILE=constant VUS=30 DURATION_S=30 npm run bench mb-load     no think time: throughput
//
//   MB_LOAD_STACKS=sqlite | postgres | sqlite,postgres (default)
//   MB_LOAD_CPU_PROF=<dir>     also write the servers' CPU profiles there, one per thread (node --cpu-prof; <dir>/<stack>/)
//   MB_LOAD_SCRIPT=<file>      the scenario (default ../shared/bench/mb-load.mjs beside the repository)
// Every variable of mb-load.mjs (PROFILE, VUS, DURATION_S, STAGES, THINK_SCALE, …) is passed through to it.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from '../src/util/better-sqlite3.js';
import pg from 'pg';
import { hash, verify } from '@node-rs/bcrypt';
import { createPgDatabase, PG } from '../test/helpers/databases.js';
import { freePort } from '../test/helpers/free-port.js';
import { loadSampleInto } from '../src/sample/load.js';
import { waitFor } from './wait.js';

const ROOT = new URL('..', import.meta.url).pathname;
const SCRIPT = resolve(process.env.MB_LOAD_SCRIPT ?? join(ROOT, '../shared/bench/mb-load.mjs'));
const USER = { email: 'load@example.com', password: 'Load-test-1', first_name: 'Load', last_name: 'Test' };
const ROW_CAP = 2000; // what an ad-hoc query of a whole table returns
const RAW_ROUNDS = 30;

type Obj = Record<string, any>;
type Stack = 'sqlite' | 'postgres';

/** Metabase v53.5 on 2 cores / 2 GB, as published (mb-load.md §2). */
const METABASE = { requests: 278_303, reqPerS: 121.3, avg: 78.59, p90: 204.97, p95: 389.85, iterations: 4273 };

interface StackResult {
  stack: Stack;
  load: Obj;
  idleRssMb: number;
  peakRssMb: number;
  rawMsPerIteration: number;
  tables: number;
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

class Api {
  session: string | null = null;
  constructor(readonly base: string) {}
  async call(method: string, path: string, body?: unknown): Promise<any> {
    const r = await fetch(this.base + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(this.session ? { 'X-Metabase-Session': this.session } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  }
}

/** The first user (mb-load.mjs logs in as this admin), and the data source the scenario reads. */
async function prepare(api: Api, stack: Stack, pgData: string | null): Promise<number> {
  const props = await api.call('GET', '/api/session/properties');
  api.session = (await api.call('POST', '/api/setup', { token: props['setup-token'], user: USER, prefs: { site_name: 'Load test' } })).id;
  let dbId: number;
  if (stack === 'sqlite') {
    dbId = await waitFor('the Sample Database', async () => (await api.call('GET', '/api/database')).data.find((d: Obj) => d.is_sample)?.id);
  } else {
    const details = { host: PG.host, port: PG.port, user: PG.user, ...(PG.password ? { password: PG.password } : {}), dbname: pgData };
    dbId = (await api.call('POST', '/api/database', { engine: 'postgres', name: 'Sample Database', details })).id;
  }
  // As Metabase's setup did, wait for the first sync (metadata, fingerprints, field values) to finish, so it doesn't
  // run during the load; the scenario needs ORDERS, PEOPLE and PRODUCTS, with the key from ORDERS.USER_ID to PEOPLE.ID.
  await waitFor('the first sync', async () => (await api.call('GET', `/api/database/${dbId}`)).initial_sync_status === 'complete', 300_000);
  await waitFor('the synced sample tables', async () => {
    const md = await api.call('GET', `/api/database/${dbId}/metadata`);
    const names = new Set(md.tables.filter((t: Obj) => t.fields?.length).map((t: Obj) => String(t.name).toUpperCase()));
    const keys = md.tables.flatMap((t: Obj) => t.fields ?? []).filter((f: Obj) => f.fk_target_field_id);
    return ['ORDERS', 'PEOPLE', 'PRODUCTS'].every((n) => names.has(n)) && keys.length >= 3;
  });
  await api.call('DELETE', '/api/session');
  return dbId;
}

function runScenario(env: Record<string, string>): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', fail);
    // Exit 1 means the run had errors (counted in its report); 2–4 mean it could not run or stopped early.
    child.on('exit', (code) => (code === 0 || code === 1 ? done() : fail(new Error(`mb-load.mjs exited with ${code}`))));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

/** CPU of this process per iteration for reading the tables' rows (as the scenario's queries return them) and writing them as JSON. */
async function rawIteration(read: () => Promise<unknown[][][]>): Promise<number> {
  for (let i = 0; i < 3; i++) for (const rows of await read()) JSON.stringify(rows);
  const before = process.cpuUsage();
  for (let i = 0; i < RAW_ROUNDS; i++) for (const rows of await read()) JSON.stringify(rows);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / RAW_ROUNDS;
}

async function rawSqlite(file: string): Promise<{ ms: number; tables: number }> {
  const db = new Database(file, { readonly: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    const statements = names.map((n) => db.prepare(`SELECT * FROM "${n}" LIMIT ${ROW_CAP}`).raw(true));
    return { ms: await rawIteration(async () => statements.map((s) => s.all() as unknown[][])), tables: names.length };
  } finally {
    db.close();
  }
}

async function rawPostgres(database: string): Promise<{ ms: number; tables: number }> {
  const client = new pg.Client({ ...PG, database });
  await client.connect();
  try {
    const names = (await client.query({ text: "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'", rowMode: 'array' })).rows.map((r) => String(r[0]));
    const read = async () => {
      const out: unknown[][][] = [];
      for (const n of names) out.push((await client.query({ text: `SELECT * FROM "${n}" LIMIT ${ROW_CAP}`, rowMode: 'array' })).rows);
      return out;
    };
    return { ms: await rawIteration(read), tables: names.length };
  } finally {
    await client.end();
  }
}

/** CPU of one bcrypt verification at Metabase's cost (10), as every login does. */
async function bcryptMs(): Promise<number> {
  const stored = await hash('a-uuid-salt-and-a-password', 10);
  await verify('a-uuid-salt-and-a-password', stored);
  const before = process.cpuUsage();
  for (let i = 0; i < 10; i++) await verify('a-uuid-salt-and-a-password', stored);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / 10;
}

async function benchStack(stack: Stack): Promise<StackResult> {
  const dir = mkdtempSync(join(tmpdir(), `quarry-mb-load-${stack}-`));
  const appDb = stack === 'postgres' ? await createPgDatabase('quarry_mbload_app') : null;
  const data = stack === 'postgres' ? await createPgDatabase('quarry_mbload_data') : null;
  let server: ChildProcess | null = null;
  try {
    if (data) await loadSampleInto('postgres', { host: PG.host, port: PG.port, user: PG.user, password: PG.password, dbname: data.name });
    const port = await freePort();
    const env: Record<string, string> =
      stack === 'sqlite'
        ? { MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db'), MB_LOAD_SAMPLE_CONTENT: 'true' }
        : { MB_DB_TYPE: 'postgres', MB_DB_HOST: PG.host, MB_DB_PORT: String(PG.port), MB_DB_USER: PG.user, ...(PG.password ? { MB_DB_PASS: PG.password } : {}), MB_DB_DBNAME: appDb!.name, MB_DB_FILE: join(dir, 'quarry.db'), MB_LOAD_SAMPLE_CONTENT: 'false' };
    // One profile per thread (node's default names carry the pid and thread id), in a folder per stack.
    const profile = process.env.MB_LOAD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(resolve(process.env.MB_LOAD_CPU_PROF), stack)}`] : [];
    server = spawn(process.execPath, [...profile, join(ROOT, 'dist/main.js')], {
      env: { ...process.env, ...env, MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port), QUARRY_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor('the server', async () => (await fetch(`${base}/api/health`)).ok);
    const dbId = await prepare(new Api(base), stack, data?.name ?? null);
    // Idle RSS once setup's garbage is collected: the server collects once after the sample's first sync and again
    // 10 s later (src/util/release-memory.ts); 2 s after setup is printed too, as earlier runs reported it.
    await new Promise((r) => setTimeout(r, 2000));
    const early = memoryMb(server.pid!);
    await new Promise((r) => setTimeout(r, 13_000));
    const idle = memoryMb(server.pid!);
    const resultFile = join(dir, 'result.json');
    console.log(`\n===== ${stack === 'sqlite' ? 'SQLite app DB + embedded SQLite Sample Database' : 'PostgreSQL app DB + Sample Database in PostgreSQL'} (server pid ${server.pid}, idle RSS ${idle.rss.toFixed(0)} MB 15 s after setup, ${early.rss.toFixed(0)} MB at 2 s)`);
    await runScenario({
      MB_URL: base,
      MB_USER: USER.email,
      MB_PASSWORD: USER.password,
      MB_DB_ID: String(dbId),
      SERVER_PID: String(server.pid),
      RESULT_JSON: resultFile,
    });
    const peak = memoryMb(server.pid!).peak;
    const load = JSON.parse(readFileSync(resultFile, 'utf8')) as Obj;
    await stop(server);
    server = null;
    const raw = stack === 'sqlite' ? await rawSqlite(join(dir, 'sample-database.sqlite')) : await rawPostgres(data!.name);
    return { stack, load, idleRssMb: idle.rss, peakRssMb: peak, rawMsPerIteration: raw.ms, tables: raw.tables };
  } finally {
    if (server) await stop(server);
    await appDb?.drop();
    await data?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ----- the table ----------------------------------------------------------------------------------------------------

const f1 = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(1) : '–');
const int = (x: number | null | undefined) => (typeof x === 'number' ? Math.round(x).toLocaleString('en-US') : '–');

/** Errors other than endpoints Quarry doesn't have yet (404 "API endpoint does not exist."). */
function errorsBeyondMissing(load: Obj): { other: number; missing: string[] } {
  let missing = 0;
  const names: string[] = [];
  for (const [signature, sample] of Object.entries(load.errorSamples ?? {}) as Array<[string, Obj]>) {
    if (/-> 404$/.test(signature) && /API endpoint does not exist/.test(sample.body ?? '')) {
      missing += sample.count;
      names.push(signature.replace(/ -> 404$/, ''));
    }
  }
  return { other: load.errors - missing, missing: names };
}

function worstEndpoint(load: Obj): string {
  const groups = Object.entries(load.groups ?? {}) as Array<[string, Obj]>;
  const worst = groups.sort((a, b) => b[1].p95 - a[1].p95)[0];
  return worst ? `${f1(worst[1].p95)} (${worst[0]})` : '–';
}

function report(results: StackResult[], bcrypt: number): void {
  const columns = ['Metabase, 2 cores', ...results.map((r) => (r.stack === 'sqlite' ? 'Quarry, SQLite' : 'Quarry, PostgreSQL'))];
  const rows: Array<[string, string, ...string[]]> = [
    ['requests', int(METABASE.requests), ...results.map((r) => int(r.load.requests))],
    ['iterations completed', int(METABASE.iterations), ...results.map((r) => int(r.load.iterations.completed))],
    ['req/s', f1(METABASE.reqPerS), ...results.map((r) => f1(r.load.reqPerS))],
    ['avg ms', f1(METABASE.avg), ...results.map((r) => f1(r.load.latencyMs.avg))],
    ['p50 ms', '–', ...results.map((r) => f1(r.load.latencyMs.p50))],
    ['p90 ms', f1(METABASE.p90), ...results.map((r) => f1(r.load.latencyMs.p90))],
    ['p95 ms', f1(METABASE.p95), ...results.map((r) => f1(r.load.latencyMs.p95))],
    ['p99 ms', '–', ...results.map((r) => f1(r.load.latencyMs.p99))],
    ['slowest endpoint by p95 (ms)', '–', ...results.map((r) => worstEndpoint(r.load))],
    ['errors (all)', '0', ...results.map((r) => int(r.load.errors))],
    ['errors, missing endpoints aside', '0', ...results.map((r) => int(errorsBeyondMissing(r.load).other))],
    ['server CPU, % of one core', '–', ...results.map((r) => f1(r.load.client.serverCpuPctOfCore))],
    ['machine CPU busy %', '–', ...results.map((r) => f1(r.load.client.machineBusyPct))],
    ['server CPU per iteration ms', '–', ...results.map((r) => f1(((r.load.client.serverCpuPctOfCore / 100) * r.load.durationS * 1000) / Math.max(1, r.load.requests / 65)))],
    ['idle RSS (15 s after setup) / peak RSS MB', '–', ...results.map((r) => `${r.idleRssMb.toFixed(0)} / ${r.peakRssMb.toFixed(0)}`)],
  ];
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i + 1].length)));
  const label = Math.max(...rows.map((r) => r[0].length));
  console.log('\n===== Metabase load scenario: Quarry beside Metabase’s published figures');
  console.log('Metabase v53.5: the published k6 profile (38 min, up to 100 users), 2 cores / 2 GB.');
  for (const r of results) console.log(`Quarry, ${r.stack}: ${r.load.profile.name}, think time ×${r.load.thinkScale}, ${r.load.durationS.toFixed(0)} s.`);
  console.log(`${''.padEnd(label)}  ${columns.map((c, i) => c.padStart(widths[i])).join('  ')}`);
  for (const r of rows) console.log(`${r[0].padEnd(label)}  ${r.slice(1).map((c, i) => c.padStart(widths[i])).join('  ')}`);
  for (const r of results) {
    const { missing } = errorsBeyondMissing(r.load);
    if (missing.length) console.log(`(${r.stack}: endpoints not built yet, answering 404: ${missing.join(', ')})`);
  }
  console.log('\nPhysical limits on this machine (one core, no HTTP), for one iteration of the scenario (65 requests):');
  for (const r of results) {
    const engine = r.stack === 'sqlite' ? 'better-sqlite3' : 'pg';
    console.log(
      `  raw driver (${engine}) reading the ${r.tables} tables' rows (≤ ${ROW_CAP} each) and writing them as JSON: ${f1(r.rawMsPerIteration)} ms CPU` +
        ` → at most ${int((65 * 1000) / r.rawMsPerIteration)} req/s per core`,
    );
  }
  console.log(`  bcrypt (cost 10), the one login per iteration: ${f1(bcrypt)} ms CPU → at most ${int((65 * 1000) / bcrypt)} req/s per core`);
  console.log('Metabase’s figures: metabase.com, "How to run Metabase in production", example load test (its app DB and data DB had cores of their own).');
}

if (!existsSync(SCRIPT)) {
  console.error(`mb-load: the scenario script ${SCRIPT} is missing (set MB_LOAD_SCRIPT)`);
  process.exit(2);
}
const stacks = (process.env.MB_LOAD_STACKS ?? 'sqlite,postgres').split(',').map((s) => s.trim()).filter(Boolean) as Stack[];
for (const s of stacks) if (s !== 'sqlite' && s !== 'postgres') throw new Error(`MB_LOAD_STACKS: unknown stack "${s}" (sqlite, postgres)`);
const results: StackResult[] = [];
for (const stack of stacks) results.push(await benchStack(stack));
report(results, await bcryptMs());
