import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import { Client } from '../helpers/client.js';

forEachAppDb('/api/api-key', (server) => {
  let admin: Client;
  let user: Client;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
  });

  const keyClient = (key: string) => new Client(server().url, null, { 'X-Api-Key': key });

  test('create shows the key once; it authenticates as X-Api-Key with its group rights', async () => {
    const created = await admin.post('/api/api-key', { name: 'CI bot', group_id: 2 });
    assert.equal(created.status, 200);
    const key: string = created.body.unmasked_key;
    assert.match(key, /^mb_[A-Za-z0-9+/]{43}=$/);
    assert.equal(key.length, 47);
    assert.equal(created.body.masked_key, key.slice(0, 7) + '*'.repeat(40));
    assert.deepEqual(created.body.group, { id: 2, name: 'Administrators' });
    assert.equal(created.body.updated_by.common_name, 'Ada Admin');
    const me = await keyClient(key).get('/api/user/current');
    assert.equal(me.status, 200);
    assert.equal(me.body.is_superuser, true);
    assert.equal((await keyClient(key).get('/api/setting')).status, 200);
    const stored = await server().ctx.db.selectFrom('api_key').selectAll().executeTakeFirstOrThrow();
    assert.notEqual(stored.key_hashed, key);
    assert.equal(stored.key_hashed.length, 128);
    // The key's hidden user is not a person: not listed, not counted, cannot log in.
    const users = await admin.get('/api/user', { query: { status: 'all' } });
    assert.ok(!users.body.data.some((u: any) => u.email.endsWith('@api-key.invalid')));
  });

  test('a key in All Users only is an ordinary user; unknown keys are unauthenticated', async () => {
    const created = await admin.post('/api/api-key', { name: 'Reader', group_id: 1 });
    const reader = keyClient(created.body.unmasked_key);
    assert.equal((await reader.get('/api/user/current')).body.is_superuser, false);
    assert.equal((await reader.get('/api/setting')).status, 403);
    const bogus = await keyClient('mb_' + 'A'.repeat(43) + '=').get('/api/user/current');
    assert.equal(bogus.status, 401);
    const tampered = created.body.unmasked_key.slice(0, -2) + 'x=';
    assert.equal((await keyClient(tampered).get('/api/user/current')).status, 401);
  });

  test('list, count, rename, move group, regenerate, delete', async () => {
    const created = (await admin.post('/api/api-key', { name: 'Temp key', group_id: 1 })).body;
    const list = await admin.get('/api/api-key');
    assert.ok(list.body.some((k: any) => k.id === created.id && !('unmasked_key' in k)));
    const count = await admin.get('/api/api-key/count');
    assert.equal(count.body, list.body.length);
    const dup = await admin.post('/api/api-key', { name: 'Temp key', group_id: 1 });
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body, { errors: { name: 'An API key with this name already exists.' } });
    const moved = await admin.put(`/api/api-key/${created.id}`, { name: 'Renamed key', group_id: 2 });
    assert.equal(moved.body.name, 'Renamed key');
    assert.deepEqual(moved.body.group, { id: 2, name: 'Administrators' });
    assert.equal((await keyClient(created.unmasked_key).get('/api/setting')).status, 200, 'now in Administrators');
    const regenerated = await admin.put(`/api/api-key/${created.id}/regenerate`);
    assert.notEqual(regenerated.body.unmasked_key, created.unmasked_key);
    assert.equal((await keyClient(created.unmasked_key).get('/api/user/current')).status, 401, 'the old key stopped working');
    assert.equal((await keyClient(regenerated.body.unmasked_key).get('/api/user/current')).status, 200);
    assert.equal((await admin.delete(`/api/api-key/${created.id}`)).status, 204);
    assert.equal((await keyClient(regenerated.body.unmasked_key).get('/api/user/current')).status, 401);
    assert.equal((await admin.delete(`/api/api-key/${created.id}`)).status, 404);
  });

  test('admin only, with validation', async () => {
    assert.equal((await user.post('/api/api-key', { name: 'x', group_id: 1 })).status, 403);
    assert.equal((await user.get('/api/api-key')).status, 403);
    assert.equal((await user.get('/api/api-key/count')).status, 403);
    const invalid = await admin.post('/api/api-key', { name: ' ', group_id: 'one' });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.errors.name, 'value must be a non-blank string.');
    assert.equal(invalid.body.errors.group_id, 'value must be an integer greater than zero.');
    assert.equal((await admin.post('/api/api-key', { name: 'No group', group_id: 987654 })).status, 404);
  });
});
