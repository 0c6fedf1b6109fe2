// Execution on a real PostgreSQL warehouse: a million-row CSV download streams with bounded memory; a client that
// disconnects cancels its statement (seen in pg_stat_activity); MB_DB_QUERY_TIMEOUT_MINUTES times queries out;
// the per-database queue is fair between users and fails fast when full.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startServer, setupAdmin, createUserClient, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { idleSyncs } from '../../src/sync/runner.js';

const ROWS = 1_000_000;

async function registerPg(server: TestServer, admin: Client, dbname: string): Promise<number> {
  const r = await admin.post('/api/database', { engine: 'postgres', name: `pg ${dbname}`, details: { host: PG.host, port: PG.port, user: PG.user, dbname, ...(PG.password ? { password: PG.password } : {}) } });
  assert.equal(r.status, 200, r.text);
  await idleSyncs(server.ctx);
  return r.body.id;
}

async function activeSleeps(dbname: string): Promise<number> {
  const c = new pg.Client({ ...PG, database: 'postgres' });
  await c.connect();
  try {
    const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()", [dbname]);
    return r.rows[0].n;
  } finally {
    await c.end();
  }
}

async function waitFor(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

describe('query execution on PostgreSQL', () => {
  let server: TestServer;
  let admin: Client;
  let db: { name: string; drop(): Promise<void> };
  /** An empty database for the servers started by single tests (nothing to sync). */
  let empty: { name: string; drop(): Promise<void> };
  let dbId: number;

  before(async () => {
    db = await createPgDatabase('quarry_exec');
    empty = await createPgDatabase('quarry_exec_empty');
    server = await startServer('sqlite');
    admin = await setupAdmin(server);
    // Registered (and synced) while empty; the tests only run native SQL on it, which needs no metadata.
    dbId = await registerPg(server, admin, db.name);
    const c = new pg.Client({ ...PG, database: db.name });
    await c.connect();
    await c.query(`CREATE TABLE big AS SELECT g AS id, md5(g::text) AS label, g * 1.5 AS amount, timestamp '2024-01-01' + g * interval '1 second' AS at FROM generate_series(1, ${ROWS}) g`);
    await c.end();
  });
  after(async () => {
    // The aborted fetch leaves its client's spare connection open until Node's headers timeout (60 s).
    server?.server.app.server.closeAllConnections();
    await server?.close();
    await db?.drop();
    await empty?.drop();
  });

  test('a million-row CSV download streams with bounded memory', async () => {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    try {
      const body = new URLSearchParams({ query: JSON.stringify({ database: dbId, type: 'native', native: { query: 'SELECT id, label, amount, at FROM big ORDER BY id' } }) });
      const r = await fetch(`${server.url}/api/dataset/csv`, { method: 'POST', headers: { 'X-Metabase-Session': admin.session!, 'Content-Type': 'application/x-www-form-urlencoded' }, body: body.toString() });
      assert.equal(r.status, 200);
      const reader = r.body!.getReader();
      let lines = 0;
      let bytes = 0;
      let tail = '';
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        const text = decoder.decode(value, { stream: true });
        for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines += 1;
        tail = (tail + text).slice(-200);
      }
      assert.equal(lines, ROWS + 1);
      assert.ok(bytes > 50_000_000);
      assert.match(tail, /1000000,[0-9a-f]{32},1500000,2024-01-12T13:46:40\n$/);
    } finally {
      clearInterval(sampler);
    }
    const grew = (peak - baseline) / 1024 / 1024;
    assert.ok(grew < 200, `RSS grew by ${grew.toFixed(0)} MB while streaming ${ROWS} rows`);
  });

  test('a client that disconnects cancels its query on the database', async () => {
    const controller = new AbortController();
    const request = fetch(`${server.url}/api/dataset`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'X-Metabase-Session': admin.session!, 'Content-Type': 'application/json' },
      body: JSON.stringify({ database: dbId, type: 'native', native: { query: 'SELECT pg_sleep(30)' } }),
    }).then((r) => r.text());
    assert.ok(await waitFor(async () => (await activeSleeps(db.name)) === 1, 5000), 'the query is running');
    controller.abort();
    await request.catch(() => {});
    assert.ok(await waitFor(async () => (await activeSleeps(db.name)) === 0, 5000), 'the query was cancelled');
  });

  test('a query that takes longer than MB_DB_QUERY_TIMEOUT_MINUTES fails as timed-out', async () => {
    const other = await startServer('sqlite', { MB_DB_QUERY_TIMEOUT_MINUTES: '0.02' });
    try {
      const a = await setupAdmin(other);
      const id = await registerPg(other, a, empty.name);
      const r = await a.post('/api/dataset', { database: id, type: 'native', native: { query: 'SELECT pg_sleep(5)' } });
      assert.equal(r.status, 202);
      assert.equal(r.body.status, 'failed');
      assert.equal(r.body.error_type, 'timed-out');
      assert.ok(await waitFor(async () => (await activeSleeps(empty.name)) === 0, 5000));
    } finally {
      await other.close();
    }
  });

  test('the per-database queue is fair between callers and fails fast when full', async () => {
    const other = await startServer('sqlite', { MB_JDBC_DATA_WAREHOUSE_MAX_CONNECTION_POOL_SIZE: '1', QUARRY_QUERY_QUEUE_LIMIT: '4' });
    try {
      const a = await setupAdmin(other);
      const id = await registerPg(other, a, empty.name);
      const { client: b } = await createUserClient(other, a);
      // (No void column: with a pool of one, the driver can't look up an unknown type's name mid-query.)
      const sleep = (label: string) => ({ database: id, type: 'native', native: { query: `SELECT '${label}' AS who FROM pg_sleep(0.3)` } });
      const finished: string[] = [];
      const run = (client: Client, label: string) =>
        client.post('/api/dataset', sleep(label)).then((r) => {
          finished.push(r.body.status === 'completed' ? label : `${label}:${r.body.error_type}`);
          return r;
        });
      // A fires four queries (one runs, three wait), then B fires one: B runs second, not fifth.
      const a1 = run(a, 'a1');
      await waitFor(async () => (await activeSleeps(empty.name)) === 1, 3000);
      const rest = [run(a, 'a2'), run(a, 'a3'), run(a, 'a4')];
      await new Promise((r) => setTimeout(r, 50));
      const b1 = run(b, 'b1');
      await new Promise((r) => setTimeout(r, 50));
      // The queue holds 4: a2, a3, a4, b1 — a fifth waiting query is refused at once (a query that waited for a slot
      // would have run and completed).
      const refused = await a.post('/api/dataset', sleep('a5'));
      assert.equal(refused.body.status, 'failed');
      assert.match(refused.body.error, /Too many queries are waiting to run/);
      await Promise.all([a1, b1, ...rest]);
      assert.deepEqual(finished.slice(0, 3), ['a1', 'a2', 'b1']);
      assert.deepEqual(finished.slice(3).sort(), ['a3', 'a4']);
    } finally {
      await other.close();
    }
  });
});
