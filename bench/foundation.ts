// Foundation benchmark: start-up time to healthy on an existing app DB, idle RSS, and GET /api/user/current
// throughput/latency with 50 connections for 10 s — on a SQLite and a PostgreSQL app DB — beside the raw driver
// running the same session lookup. Figures are printed, never asserted.
//
//   npm run build && npx tsx bench/foundation.ts [sqlite|postgres ...]

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from '../src/util/better-sqlite3.js';
import pg from 'pg';
import { createPgDatabase, PG } from '../test/helpers/databases.js';
import { hashToken } from '../src/users/sessions.js';

const ROOT = new URL('..', import.meta.url).pathname;
const PORT = 3917;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Pass-123', first_name: 'Bench', last_name: 'Admin' };

function startProcess(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    env: { ...process.env, ...env, MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(PORT), MB_LOAD_SAMPLE_CONTENT: 'false', QUARRY_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitHealthy(): Promise<void> {
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${PORT}/api/health`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function stop(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function setup(): Promise<string> {
  const props = (await (await fetch(`http://127.0.0.1:${PORT}/api/session/properties`)).json()) as Record<string, string>;
  const r = await fetch(`http://127.0.0.1:${PORT}/api/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: props['setup-token'], user: ADMIN, prefs: { site_name: 'Bench' } }),
  });
  return ((await r.json()) as { id: string }).id;
}

async function load(session: string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}/api/user/current`,
    connections: 50,
    duration: 10,
    headers: { 'X-Metabase-Session': session },
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** The raw driver doing the request's database work: the session+user lookup and the group lookup. */
async function rawSqlite(file: string, token: string): Promise<number> {
  const db = new Database(file, { readonly: true });
  const session = db.prepare(
    'select u.* from core_session s join core_user u on u.id = s.user_id where s.key_hashed = ? and s.created_at > ? and u.is_active = 1',
  );
  const groups = db.prepare('select group_id from permissions_group_membership where user_id = ?');
  const key = hashToken(token);
  const cutoff = new Date(Date.now() - 14 * 86400_000).toISOString();
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 3000) {
    const user = session.get(key, cutoff) as { id: number };
    groups.all(user.id);
    n++;
  }
  db.close();
  return n / 3;
}

async function rawPostgres(database: string, token: string): Promise<number> {
  const pool = new pg.Pool({ ...PG, database, max: 15 });
  // dropping the bench database afterwards terminates any straggler; that is expected, not a crash
  pool.on('error', () => {});
  const key = hashToken(token);
  const cutoff = new Date(Date.now() - 14 * 86400_000).toISOString();
  let n = 0;
  const deadline = Date.now() + 3000;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (Date.now() < deadline) {
        const { rows } = await pool.query(
          'select u.* from core_session s join core_user u on u.id = s.user_id where s.key_hashed = $1 and s.created_at > $2 and u.is_active = true',
          [key, cutoff],
        );
        await pool.query('select group_id from permissions_group_membership where user_id = $1', [rows[0].id]);
        n++;
      }
    }),
  );
  await pool.end();
  return n / 3;
}

async function benchAppDb(kind: 'sqlite' | 'postgres'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
  const pgDb = kind === 'postgres' ? await createPgDatabase('quarry_bench') : null;
  const env: Record<string, string> =
    kind === 'sqlite'
      ? { MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db') }
      : { MB_DB_TYPE: 'postgres', MB_DB_HOST: PG.host, MB_DB_PORT: String(PG.port), MB_DB_USER: PG.user, MB_DB_DBNAME: pgDb!.name, MB_DB_FILE: join(dir, 'quarry.db') };
  try {
    // First start creates and migrates the app DB; the measured start is the second one.
    let child = startProcess(env);
    await waitHealthy();
    const session = await setup();
    await stop(child);

    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      child = startProcess(env);
      await waitHealthy();
      starts.push(performance.now() - t0);
      if (i < 2) await stop(child);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const idleRss = rssMb(child.pid!);
    await load(session); // warm-up
    const measured = await load(session);
    const loadedRss = rssMb(child.pid!);
    await stop(child);
    const raw = kind === 'sqlite' ? await rawSqlite(env.MB_DB_FILE, session) : await rawPostgres(pgDb!.name, session);

    console.log(`\n== app DB: ${kind} ==`);
    console.log(`start-up to healthy (process spawn → /api/health 200, existing app DB): ${starts.map((s) => s.toFixed(0)).join(' / ')} ms`);
    console.log(`idle RSS after start: ${idleRss.toFixed(1)} MB; RSS after load: ${loadedRss.toFixed(1)} MB`);
    console.log(`GET /api/user/current, 50 connections, 10 s: ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, errors ${measured.errors}`);
    console.log(`raw driver, same session + group lookups (no HTTP, no cache): ${raw.toFixed(0)} lookups/s`);
    console.log('(Quarry keeps a resolved caller and its /api/user/current answer for a second, so under this load most requests touch no app DB)');
  } finally {
    if (pgDb) await pgDb.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kinds = (process.argv.slice(2).length ? process.argv.slice(2) : ['sqlite', 'postgres']) as Array<'sqlite' | 'postgres'>;
for (const kind of kinds) await benchAppDb(kind);
