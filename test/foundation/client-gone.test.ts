// A client that disconnects mid-query is not a server error: nothing is logged at error level (it was: a download
// whose headers hadn't gone out yet failed in Fastify with `Premature close`, logged as an unhandled error), and the
// statement is cancelled. The server runs as its own process so its log can be read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { setupAdmin, appDbKinds } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { createMysqlDatabase, MYSQL } from '../helpers/databases.js';
import { freePort } from '../helpers/free-port.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends one request on a raw connection and drops the connection after `ms`, before any answer arrived. */
async function dropAfter(port: number, session: string, path: string, form: Record<string, string>, ms: number): Promise<number> {
  const body = new URLSearchParams(form).toString();
  const socket = connect(port, '127.0.0.1');
  let received = 0;
  socket.on('data', (chunk) => (received += chunk.length));
  socket.on('error', () => {});
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Metabase-Session: ${session}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  await sleep(ms);
  socket.destroy();
  return received;
}

async function sleepingStatements(): Promise<number> {
  const c = await createConnection({ ...MYSQL });
  try {
    const [rows] = await c.query("SELECT count(*) AS n FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP%'");
    return Number((rows as Array<{ n: number }>)[0].n);
  } finally {
    await c.end();
  }
}

// MariaDB sends a result's columns before its rows, so an XLSX download starts (headers set, not yet sent) while
// `SLEEP` holds the rows back: the widest window in which a client can leave a stream with nothing written.
test('a client leaving a download before its first byte: no error logged, the statement cancelled', { skip: !appDbKinds().includes('postgres') && !appDbKinds().includes('mysql') }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-gone-'));
  const warehouse = await createMysqlDatabase('quarry_gone');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, MB_DB_FILE: join(dir, 'quarry.db'), MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port), MB_LOAD_SAMPLE_CONTENT: 'false', QUARRY_LOG_LEVEL: 'debug' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  try {
    const anon = new Client(`http://127.0.0.1:${port}`);
    const deadline = Date.now() + 30_000;
    while (!(await anon.get('/api/health').then((r) => r.status === 200, () => false))) {
      assert.ok(Date.now() < deadline && child.exitCode === null, `server did not start: ${log}`);
      await sleep(50);
    }
    const admin = await setupAdmin({ anon } as never);
    const db = await admin.post('/api/database', {
      engine: 'mysql',
      name: 'gone',
      details: { host: MYSQL.host, port: MYSQL.port, user: MYSQL.user, password: MYSQL.password || null, dbname: warehouse.name },
      is_full_sync: false,
    });
    assert.equal(db.status, 200, db.text);
    const query = JSON.stringify({ database: db.body.id, type: 'native', native: { query: 'SELECT SLEEP(1) AS s FROM seq_1_to_3' } });
    const before = log.length;
    const received = await dropAfter(port, admin.session!, '/api/dataset/xlsx', { query }, 600);
    assert.equal(received, 0, 'nothing had been sent when the client left');
    const stopped = Date.now() + 5000;
    while ((await sleepingStatements()) > 0 && Date.now() < stopped) await sleep(100);
    assert.equal(await sleepingStatements(), 0, 'the statement was cancelled');
    await sleep(300);
    const lines = log
      .slice(before)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message?: string } });
    const errors = lines.filter((l) => l.level >= 50);
    assert.deepEqual(errors, [], 'nothing at error level');
    assert.ok(
      lines.some((l) => l.level <= 30 && (l.msg === 'the client went away before the answer was sent' || l.msg === 'stream closed prematurely')),
      'the disconnection is still visible at debug/info level',
    );
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await warehouse.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});
