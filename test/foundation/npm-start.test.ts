// `npm start` runs the bundle in dist/; this checks that the built bundle really starts and serves setup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupAdmin } from '../helpers/server.js';
import { Client } from '../helpers/client.js';

const root = new URL('../..', import.meta.url).pathname;

test('the production build starts, reports healthy and completes setup', async () => {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-start-'));
  const port = 3400 + Math.floor(Math.random() * 500);
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: root,
    env: { ...process.env, MB_DB_FILE: join(dir, 'quarry.db'), MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port), MB_LOAD_SAMPLE_CONTENT: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  try {
    const anon = new Client(`http://127.0.0.1:${port}`);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const ok = await anon.get('/api/health').then((r) => r.status === 200, () => false);
      if (ok) break;
      assert.ok(Date.now() < deadline, `server did not become healthy: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const admin = await setupAdmin({ anon } as never);
    assert.equal((await admin.get('/api/user/current')).body.is_superuser, true);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
});
