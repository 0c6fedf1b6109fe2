import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appDbEnv, startServer, setupAdmin, ADMIN } from '../helpers/server.js';
import { migrations } from '../../src/appdb/migrations/index.js';
import { loadConfig } from '../../src/config.js';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

test('two instances starting together on one PostgreSQL app DB migrate it exactly once', async () => {
  const appDb = await appDbEnv('postgres');
  try {
    const [a, b] = await Promise.all([startServer('postgres', {}, appDb.env), startServer('postgres', {}, appDb.env)]);
    try {
      const applied = await a.ctx.db.selectFrom('quarry_migration' as any).select('name' as any).execute();
      assert.deepEqual(applied.map((r: any) => r.name).sort(), Object.keys(migrations).sort());
      const groups = await a.ctx.db.selectFrom('permissions_group').select('id').execute();
      assert.deepEqual(groups.map((g) => g.id).sort(), [1, 2]);
      const tokens = await a.ctx.db.selectFrom('setting').select('value').where('key', '=', 'setup-token').execute();
      assert.equal(tokens.length, 1);
      // Both instances serve the same instance: setup through one is seen by the other.
      const admin = await setupAdmin(a);
      assert.equal((await b.anon.get('/api/session/properties')).body['has-user-setup'], true);
      assert.equal((await b.anon.withSession(admin.session).get('/api/user/current')).body.email, ADMIN.email);
    } finally {
      await a.server.close();
      await b.server.close();
    }
  } finally {
    await appDb.cleanup();
  }
});

test('a concurrent second setup on another instance is refused', async () => {
  const appDb = await appDbEnv('postgres');
  try {
    const [a, b] = await Promise.all([startServer('postgres', {}, appDb.env), startServer('postgres', {}, appDb.env)]);
    try {
      const token = (await a.anon.get('/api/session/properties')).body['setup-token'];
      const body = (email: string) => ({ token, user: { ...ADMIN, email }, prefs: { site_name: 'Race' } });
      const results = await Promise.all([a.anon.post('/api/setup', body('one@example.com')), b.anon.post('/api/setup', body('two@example.com'))]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 403]);
      const users = await a.ctx.db.selectFrom('core_user').select('email').where('type', '=', 'personal').execute();
      assert.equal(users.length, 1);
    } finally {
      await a.server.close();
      await b.server.close();
    }
  } finally {
    await appDb.cleanup();
  }
});

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`restarting on an existing ${kind} app DB keeps its data and re-runs nothing`, async () => {
    const appDb = await appDbEnv(kind);
    try {
      const first = await startServer(kind, {}, appDb.env);
      await setupAdmin(first);
      await first.server.close();
      const second = await startServer(kind, {}, appDb.env);
      try {
        const login = await second.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
        assert.equal(login.status, 200);
        const applied = await second.ctx.db.selectFrom('quarry_migration' as any).select('name' as any).execute();
        assert.equal(applied.length, Object.keys(migrations).length);
      } finally {
        await second.server.close();
      }
    } finally {
      await appDb.cleanup();
    }
  });
}

test('MariaDB app DB: migrations run and the basics work (smoke)', async () => {
  const t = await startServer('mysql');
  try {
    const admin = await setupAdmin(t);
    const me = await admin.get('/api/user/current');
    assert.equal(me.body.is_superuser, true);
    const created = await admin.post('/api/user', { email: 'maria@example.com', first_name: 'Maria', password: 'Maria-Pass-123' });
    assert.equal(created.status, 200);
    assert.equal((await t.anon.post('/api/session', { username: 'maria@example.com', password: 'Maria-Pass-123' })).status, 200);
    const group = await admin.post('/api/permissions/group', { name: 'Marias' });
    assert.equal((await admin.post('/api/permissions/membership', { group_id: group.body.id, user_id: created.body.id })).status, 200);
    assert.equal((await admin.put('/api/setting/site-name', { value: 'On MariaDB' })).status, 204);
    assert.equal((await admin.get('/api/setting/site-name')).body, 'On MariaDB');
    const key = await admin.post('/api/api-key', { name: 'maria key', group_id: 1 });
    assert.equal(key.status, 200);
    assert.equal((await admin.get('/api/user', { query: { query: 'maria' } })).body.total, 1);
  } finally {
    await t.close();
  }
});

test('MB_DB_CONNECTION_URI alone picks the app DB from its scheme (postgres://, jdbc:postgresql://)', async () => {
  for (const scheme of ['postgres', 'jdbc:postgresql'] as const) {
    const db = await createPgDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'quarry-uri-'));
    try {
      const password = PG.password ? `:${encodeURIComponent(PG.password)}` : '';
      const uri = `${scheme}://${PG.user}${password}@${PG.host}:${PG.port}/${db.name}`;
      // No MB_DB_TYPE: before, this silently ran on a SQLite file instead.
      const t = await startServer('postgres', {}, { MB_DB_CONNECTION_URI: uri, MB_DB_FILE: join(dir, 'quarry.db') });
      try {
        assert.equal(t.ctx.dialect, 'postgres');
        await setupAdmin(t);
        const check = new pg.Client({ ...PG, database: db.name });
        await check.connect();
        const users = await check.query('select email from core_user where type = $1', ['personal']);
        await check.end();
        assert.deepEqual(users.rows.map((r) => r.email), [ADMIN.email], 'the users are in that PostgreSQL database');
      } finally {
        await t.server.close();
      }
    } finally {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  assert.throws(() => loadConfig({ MB_DB_CONNECTION_URI: 'oracle://db.example.com/x' }), /Unsupported MB_DB_CONNECTION_URI scheme/);
  assert.throws(() => loadConfig({ MB_DB_TYPE: 'postgres', MB_DB_CONNECTION_URI: 'mysql://root@localhost/x' }), /MB_DB_TYPE is "postgres" but MB_DB_CONNECTION_URI is a mysql URI/);
  assert.equal(loadConfig({ MB_DB_CONNECTION_URI: 'jdbc:mysql://root@localhost:3306/x' }).appDb.type, 'mysql');
});
