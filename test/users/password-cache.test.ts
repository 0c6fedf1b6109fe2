// The verified-credential cache of logins (src/users/password-cache.ts): a repeat login with a password bcrypt just
// accepted skips bcrypt, and nothing it remembers outlives a password change, a deactivation or a wrong password.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, startServer, type TestServer } from '../helpers/server.js';
import { loadConfig } from '../../src/config.js';
import { recentlyVerified } from '../../src/users/password-cache.js';
import type { Client } from '../helpers/client.js';

async function storedPassword(t: TestServer, email: string) {
  return (await t.ctx.db.selectFrom('core_user').select(['id', 'password', 'password_salt']).where('email', '=', email).executeTakeFirstOrThrow());
}

forEachAppDb('verified-credential cache', (server) => {
  let admin: Client;
  before(async () => {
    admin = await setupAdmin(server());
  });

  test('a successful login is remembered, a wrong password is not, and a repeat login still answers a session', async () => {
    const t = server();
    const { user, password } = await createUserClient(t, admin);
    const row = await storedPassword(t, user.email);
    assert.equal(recentlyVerified(t.ctx, row.id, row.password!, row.password_salt, password), true);
    const wrong = await t.anon.post('/api/session', { username: user.email, password: password + 'x' });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, { errors: { password: 'did not match stored password' } });
    assert.equal(recentlyVerified(t.ctx, row.id, row.password!, row.password_salt, password + 'x'), false);
    const again = await t.anon.post('/api/session', { username: user.email, password });
    assert.equal(again.status, 200);
    assert.equal((await t.anon.withSession(again.body.id).get('/api/user/current')).body.email, user.email);
  });

  test('after a password change the old password is refused and the new one works', async () => {
    const t = server();
    const { user, password } = await createUserClient(t, admin);
    const changed = await admin.put(`/api/user/${user.id}/password`, { password: 'Brand-n3w-Secret!' });
    assert.equal(changed.status, 204);
    const old = await t.anon.post('/api/session', { username: user.email, password });
    assert.equal(old.status, 401);
    assert.equal((await t.anon.post('/api/session', { username: user.email, password: 'Brand-n3w-Secret!' })).status, 200);
  });

  test('a deactivated user with a remembered password is told the account is disabled', async () => {
    const t = server();
    const { user, password } = await createUserClient(t, admin);
    assert.equal((await admin.delete(`/api/user/${user.id}`)).status, 200);
    const login = await t.anon.post('/api/session', { username: user.email, password });
    assert.equal(login.status, 401);
    assert.deepEqual(login.body, { errors: { _error: 'Your account is disabled.' } });
  });
});

describe('QUARRY_PASSWORD_CACHE_SECONDS', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer('sqlite', { QUARRY_PASSWORD_CACHE_SECONDS: '0' });
  });
  after(async () => t?.close());

  test('0 disables the cache: logins work and nothing is remembered', async () => {
    const admin = await setupAdmin(t);
    const { user, password } = await createUserClient(t, admin);
    const row = await storedPassword(t, user.email);
    assert.equal(recentlyVerified(t.ctx, row.id, row.password!, row.password_salt, password), false);
  });

  test('a value that is not a whole number of seconds stops start-up with a message naming it', () => {
    for (const bad of ['-1', '1.5', 'soon']) {
      assert.throws(() => loadConfig({ QUARRY_PASSWORD_CACHE_SECONDS: bad }), /QUARRY_PASSWORD_CACHE_SECONDS must be/, bad);
    }
    assert.equal(loadConfig({}).passwordCacheSeconds, 300);
  });
});
