// The sample database at start-up: installed and synced on a new install (unless MB_LOAD_SAMPLE_CONTENT=false),
// not duplicated by a restart, and not brought back by a restart once an admin deleted it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appDbEnv, startServer, setupAdmin, type TestServer } from '../helpers/server.js';
import { waitForSync } from '../databases/helpers.js';
import { writeSqliteSample } from '../../src/sample/load.js';

test('a new install gets the Sample Database (id 1), synced in the background; restarts keep exactly one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-startup-'));
  const env = { MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db') };
  // Whichever server is running when an assertion fails is closed too, so a failure can't leave one listening.
  let server = undefined as TestServer | undefined;
  const restart = async () => {
    await server?.close();
    server = undefined;
    server = await startServer('sqlite', { MB_LOAD_SAMPLE_CONTENT: 'true' }, env);
    return server;
  };
  try {
    // Start-up doesn't wait for the sync: the file is there and registered once the server answers.
    let running = await restart();
    assert.ok(existsSync(join(dir, 'sample-database.sqlite')));
    const admin = await setupAdmin(running);
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

    running = await restart();
    const again = running.anon.withSession(admin.session);
    assert.equal((await again.get('/api/database')).body.data.length, 1);
    assert.equal((await again.delete('/api/database/1')).status, 204);
    assert.equal((await again.get('/api/session/properties')).body['has-sample-database?'], false);

    running = await restart();
    assert.equal((await running.anon.withSession(admin.session).get('/api/database')).body.data.length, 0, 'a deleted sample stays deleted');
  } finally {
    await server?.close();
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

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`the Sample Database has the seed's table and field ids, keys and types (${kind} app DB)`, async () => {
    const server = await startServer(kind, { MB_LOAD_SAMPLE_CONTENT: 'true' });
    try {
      const admin = await setupAdmin(server);
      await waitForSync(admin, 1);
      const md = (await admin.get('/api/database/1/metadata')).body;
      const table = (name: string) => md.tables.find((t: any) => t.name === name);
      const field = (t: string, f: string) => table(t).fields.find((x: any) => x.name === f);
      const tableIds = Object.fromEntries(md.tables.map((t: any) => [t.name, t.id]));
      assert.deepEqual(tableIds, { ANALYTIC_EVENTS: 1, FEEDBACK: 2, PEOPLE: 3, REVIEWS: 4, ORDERS: 5, ACCOUNTS: 6, INVOICES: 7, PRODUCTS: 8 });
      const some: Array<[string, string, number]> = [
        ['ACCOUNTS', 'SEATS', 1], ['ACCOUNTS', 'ID', 7], ['ANALYTIC_EVENTS', 'TIMESTAMP', 22], ['FEEDBACK', 'DATE_RECEIVED', 29],
        ['INVOICES', 'EXPECTED_INVOICE', 35], ['ORDERS', 'ID', 37], ['ORDERS', 'SUBTOTAL', 44], ['PEOPLE', 'LATITUDE', 57],
        ['PRODUCTS', 'CATEGORY', 58], ['PRODUCTS', 'TITLE', 65], ['REVIEWS', 'RATING', 66], ['REVIEWS', 'PRODUCT_ID', 71],
      ];
      for (const [t, f, id] of some) assert.equal(field(t, f).id, id, `${t}.${f}`);
      assert.equal(md.tables.reduce((n: number, t: any) => n + t.fields.length, 0), 71);
      assert.equal(field('ORDERS', 'PRODUCT_ID').fk_target_field_id, 62);
      // Keys: auto-increment on the e-commerce tables, required (not auto-increment) on the Piespace ones.
      for (const t of ['PRODUCTS', 'PEOPLE', 'ORDERS', 'REVIEWS']) {
        assert.equal(field(t, 'ID').database_is_auto_increment, true, t);
        assert.equal(field(t, 'ID').database_required, false, t);
      }
      for (const t of ['ACCOUNTS', 'ANALYTIC_EVENTS', 'FEEDBACK', 'INVOICES']) {
        assert.equal(field(t, 'ID').database_is_auto_increment, false, t);
        assert.equal(field(t, 'ID').database_required, true, t);
      }
      assert.equal(field('REVIEWS', 'BODY').database_type, 'CHARACTER VARYING');
      assert.equal(field('FEEDBACK', 'BODY').database_type, 'CHARACTER LARGE OBJECT');
      // A resync keeps all of it, and tables added later are numbered after the seed's.
      assert.equal((await admin.post('/api/database/1/sync_schema')).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { idleSyncs } = await import('../../src/sync/runner.js');
      await idleSyncs(server.ctx);
      const again = (await admin.get('/api/database/1/metadata')).body;
      assert.equal(again.tables.find((t: any) => t.name === 'ORDERS').fields.find((f: any) => f.name === 'ID').database_is_auto_increment, true);
      const copy = await admin.post('/api/database', { engine: 'sqlite', name: 'Copy', details: { db: 'sample-database.sqlite' } });
      assert.equal(copy.status, 200, copy.text);
      await waitForSync(admin, copy.body.id);
      const copied = (await admin.get(`/api/database/${copy.body.id}/metadata`)).body;
      assert.ok(copied.tables.every((t: any) => t.id > 8 && t.fields.every((f: any) => f.id > 71)));
    } finally {
      await server.close();
    }
  });
}

// Instances of a cluster start together on one fresh app DB, each with its own data directory (and so its own copy
// of the sample file): the check "is there a sample database yet?" and the insert run under one lock, so exactly one
// of them registers it. PostgreSQL takes an advisory lock, MariaDB a locking read of the lock's app_lock row.
for (const kind of ['postgres', 'mysql'] as const) {
  test(`three instances starting together on one fresh ${kind} app DB register the Sample Database once`, async () => {
    const appDb = await appDbEnv(kind);
    const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'quarry-cluster-')));
    // Each data directory already holds the file (an image with it baked in): nothing delays the race.
    writeSqliteSample(join(dirs[0], 'sample-database.sqlite'));
    for (const dir of dirs.slice(1)) copyFileSync(join(dirs[0], 'sample-database.sqlite'), join(dir, 'sample-database.sqlite'));
    try {
      const servers = await Promise.all(dirs.map((dir) => startServer(kind, { MB_LOAD_SAMPLE_CONTENT: 'true', MB_DB_FILE: join(dir, 'quarry.db') }, appDb.env)));
      try {
        const samples = await servers[0].ctx.db.selectFrom('metabase_database').select(['id', 'name']).where('is_sample', '=', true).execute();
        assert.deepEqual(samples, [{ id: 1, name: 'Sample Database' }]);
        const admin = await setupAdmin(servers[1]);
        await waitForSync(admin, 1);
        assert.equal((await admin.get('/api/database')).body.total, 1);
        // Two restores at once (a fresh install whose sample was deleted) also make one.
        assert.equal((await admin.delete('/api/database/1')).status, 204);
        const restored = await Promise.all([admin.post('/api/database/sample_database'), servers[2].anon.withSession(admin.session).post('/api/database/sample_database')]);
        assert.deepEqual(restored.map((r) => r.status), [200, 200]);
        assert.equal(restored[0].body.id, restored[1].body.id);
        assert.equal((await servers[0].ctx.db.selectFrom('metabase_database').select('id').where('is_sample', '=', true).execute()).length, 1);
        const { idleSyncs } = await import('../../src/sync/runner.js');
        await Promise.all(servers.map((s) => idleSyncs(s.ctx)));
      } finally {
        for (const server of servers) await server.server.close();
      }
    } finally {
      await appDb.cleanup();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
}
