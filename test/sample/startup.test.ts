// The sample database at start-up: installed and synced on a new install (unless MB_LOAD_SAMPLE_CONTENT=false),
// not duplicated by a restart, and not brought back by a restart once an admin deleted it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, setupAdmin } from '../helpers/server.js';
import { waitForSync } from '../databases/helpers.js';

test('a new install gets the Sample Database (id 1), synced in the background; restarts keep exactly one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-startup-'));
  const env = { MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db') };
  try {
    const started = Date.now();
    let server = await startServer('sqlite', { MB_LOAD_SAMPLE_CONTENT: 'true' }, env);
    assert.ok(Date.now() - started < 10_000);
    assert.ok(existsSync(join(dir, 'sample-database.sqlite')));
    const admin = await setupAdmin(server);
    const list = (await admin.get('/api/database')).body.data;
    assert.equal(list.length, 1);
    assert.equal(list[0].id, 1);
    assert.equal(list[0].name, 'Sample Database');
    assert.equal(list[0].is_sample, true);
    const db = await waitForSync(admin, 1);
    assert.equal(db.description, 'Some example data for you to play around with.');
    assert.deepEqual(db.schedules.metadata_sync.schedule_type, 'hourly');
    const md = (await admin.get('/api/database/1/metadata')).body;
    assert.equal(md.tables.length, 8);
    await server.close();

    server = await startServer('sqlite', { MB_LOAD_SAMPLE_CONTENT: 'true' }, env);
    const again = server.anon.withSession(admin.session);
    assert.equal((await again.get('/api/database')).body.data.length, 1);
    assert.equal((await again.delete('/api/database/1')).status, 204);
    assert.equal((await again.get('/api/session/properties')).body['has-sample-database?'], false);
    await server.close();

    server = await startServer('sqlite', { MB_LOAD_SAMPLE_CONTENT: 'true' }, env);
    assert.equal((await server.anon.withSession(admin.session).get('/api/database')).body.data.length, 0, 'a deleted sample stays deleted');
    await server.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('MB_LOAD_SAMPLE_CONTENT=false skips it', async () => {
  const server = await startServer('sqlite', { MB_LOAD_SAMPLE_CONTENT: 'false' });
  try {
    const admin = await setupAdmin(server);
    assert.deepEqual((await admin.get('/api/database')).body, { data: [], total: 0 });
    assert.equal((await admin.get('/api/session/properties')).body['has-sample-database?'], false);
  } finally {
    await server.close();
  }
});
