// `npm start` runs the bundle in dist/; this checks that the built bundle really starts and serves setup, that its
// SQLite worker program is bundled too, and that `npm start` rebuilds only when what the bundle is built from changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupAdmin } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { freePort } from '../helpers/free-port.js';

const root = new URL('../..', import.meta.url).pathname;

function build(): void {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
}

/** Runs `args` (a script of the repository) as a server on a fresh data directory until `body` is done. */
async function withServer(args: string[], env: Record<string, string>, body: (anon: Client, pid: number) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-start-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, MB_DB_FILE: join(dir, 'quarry.db'), MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port), MB_LOAD_SAMPLE_CONTENT: 'false', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  try {
    const anon = new Client(`http://127.0.0.1:${port}`);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await anon.get('/api/health').then((r) => r.status === 200, () => false);
      if (ok) break;
      assert.ok(Date.now() < deadline, `server did not become healthy: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await body(anon, child.pid!);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the production build starts, reports healthy, describes its API and completes setup', async () => {
  build();
  await withServer(['dist/main.js'], {}, async (anon) => {
    const document = await anon.get('/api/docs/openapi.json');
    assert.equal(document.status, 200);
    assert.equal(document.body.openapi, '3.1.0');
    assert.ok(document.body.paths['/api/card/{card-id}/query'].post);
    assert.match((await anon.get('/api/docs')).text, /<script>[^]*openapi\.json/);
    const admin = await setupAdmin({ anon } as never);
    assert.equal((await admin.get('/api/user/current')).body.is_superuser, true);
  });
});

test('the production build queries the Sample Database through its bundled SQLite workers', async () => {
  build();
  await withServer(['dist/main.js'], { MB_LOAD_SAMPLE_CONTENT: 'true' }, async (anon) => {
    const admin = await setupAdmin({ anon } as never);
    const sample = (await admin.get('/api/database')).body.data.find((d: { is_sample: boolean }) => d.is_sample);
    const r = await admin.post('/api/dataset', { database: sample.id, type: 'native', native: { query: 'SELECT COUNT(*) AS n, MIN("CREATED_AT") AS first FROM "ORDERS"' } });
    assert.equal(r.status, 202);
    assert.equal(r.body.status, 'completed', r.body.error);
    assert.equal(r.body.data.rows.length, 1);
    assert.ok(r.body.data.rows[0][0] > 1000);
    assert.deepEqual(r.body.data.results_metadata.columns.map((c: { name: string }) => c.name), ['n', 'first']);
  });
});

test('a first start with the Sample Database settles under 150 MB of RSS once its sync is done', async () => {
  build();
  await withServer(['dist/main.js'], { MB_LOAD_SAMPLE_CONTENT: 'true' }, async (anon, pid) => {
    const admin = await setupAdmin({ anon } as never);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const sample = (await admin.get('/api/database')).body.data.find((d: { is_sample: boolean }) => d.is_sample);
      if (sample?.initial_sync_status === 'complete') break;
      assert.ok(Date.now() < deadline, 'the sample database never finished syncing');
      await new Promise((r) => setTimeout(r, 200));
    }
    // The server collects right after the sync and again ten seconds later; an idle server must then settle.
    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    const settled = Date.now() + 30_000;
    while (rssMb() >= 150 && Date.now() < settled) await new Promise((r) => setTimeout(r, 500));
    assert.ok(rssMb() < 150, `idle RSS ${rssMb().toFixed(0)} MB`);
  });
});

test('npm start rebuilds the bundle only when what it is built from changed', async () => {
  build();
  const bundle = join(root, 'dist/main.js');
  const builtAt = statSync(bundle).mtimeMs;
  await withServer(['scripts/start.mjs'], {}, async () => {});
  assert.equal(statSync(bundle).mtimeMs, builtAt, 'an up-to-date bundle is not rebuilt');
  // A bundle built from other sources (its recorded fingerprint differs) is rebuilt before the server starts.
  writeFileSync(join(root, 'dist/.sources'), 'built from something else');
  await withServer(['scripts/start.mjs'], {}, async (anon) => {
    assert.equal((await anon.get('/api/session/properties')).status, 200);
  });
  assert.notEqual(statSync(bundle).mtimeMs, builtAt, 'a stale bundle is rebuilt');
});
