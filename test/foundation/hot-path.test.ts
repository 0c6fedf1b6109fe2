// The hot request path: the caller, GET /api/user/current and the derived facts of GET /api/session/properties are
// cached per instance for a second, so a page load's burst of calls costs at most one set of app-DB queries — and
// the caches never show a change made on this instance late, nor one made on another instance more than a second late.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, type TestServer } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { createCard, registerDatabase } from '../cards/fixtures.js';
import { appDbEnvOf, spawnInstance } from '../helpers/instances.js';
import { countQueries } from '../helpers/query-count.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

forEachAppDb('hot path: caller and current-user caches', (server) => {
  let admin: Client;

  before(async () => {
    admin = await setupAdmin(server());
  });

  test('repeated GET /api/user/current within a second runs no app-DB query; a burst shares one load', async () => {
    const { client } = await createUserClient(server(), admin);
    const first = await client.get('/api/user/current');
    assert.equal(first.status, 200);
    const again = await countQueries(server(), async () => {
      for (let i = 0; i < 5; i++) assert.equal((await client.get('/api/user/current')).status, 200);
    });
    assert.equal(again, 0, 'answered from the caches');
    await sleep(1100);
    // After expiry, 20 concurrent calls load once: the caller (session+user, groups) and the current-user facts.
    const burst = await countQueries(server(), async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => client.get('/api/user/current')));
      for (const a of answers) assert.deepEqual(a.body, first.body);
    });
    await sleep(1100);
    const single = await countQueries(server(), () => client.get('/api/user/current'));
    assert.ok(single > 0);
    assert.equal(burst, single, 'twenty concurrent misses cost what one does');
  });

  test("another user's write (a card) keeps this user's own row cached: only the facts other modules add are read again", async () => {
    const { client } = await createUserClient(server(), admin);
    await sleep(1100);
    const cold = await countQueries(server(), () => client.get('/api/user/current'));
    const card = await createCard(admin, await registerDatabase(server()));
    const afterWrite = await countQueries(server(), () => client.get('/api/user/current'));
    assert.ok(afterWrite > 0 && afterWrite < cold, `after a card write: ${afterWrite} statements, cold: ${cold}`);
    assert.equal((await client.get('/api/user/current')).status, 200);
    await admin.delete(`/api/card/${card.id}`);
  });

  test("another user's logout keeps this caller cached (it ends only that session)", async () => {
    const { client } = await createUserClient(server(), admin);
    const { client: other } = await createUserClient(server(), admin);
    await sleep(1100);
    const cold = await countQueries(server(), () => client.get('/api/user/current'));
    assert.equal((await other.delete('/api/session')).status, 204);
    const afterLogout = await countQueries(server(), () => client.get('/api/user/current'));
    assert.ok(afterLogout < cold, `after another's logout: ${afterLogout} statements, cold: ${cold}`);
    assert.equal((await other.get('/api/user/current')).status, 401, 'the logged-out session ends at once');
  });

  test('changes made on this instance show at once', async () => {
    const { client, user, password } = await createUserClient(server(), admin);
    await client.get('/api/user/current');
    assert.equal((await admin.put(`/api/user/${user.id}`, { first_name: 'Renamed' })).status, 200);
    assert.equal((await client.get('/api/user/current')).body.first_name, 'Renamed');

    const group = await admin.post('/api/permissions/group', { name: `Hot ${Date.now()}` });
    await client.get('/api/user/current');
    await admin.post('/api/permissions/membership', { group_id: group.body.id, user_id: user.id });
    assert.ok((await client.get('/api/user/current')).body.group_ids.includes(group.body.id));

    // Facts other modules own: a model made here is in the next answer.
    assert.equal((await admin.get('/api/user/current')).body.has_model, false);
    await createCard(admin, await registerDatabase(server()), { type: 'model' });
    assert.equal((await admin.get('/api/user/current')).body.has_model, true);

    // The user's own row: a dismissed modal and a login show at once.
    assert.equal((await client.get('/api/user/current')).body.is_qbnewb, true);
    assert.equal((await client.put(`/api/user/${user.id}/modal/qbnewb`)).status, 200);
    assert.equal((await client.get('/api/user/current')).body.is_qbnewb, false);
    const lastLogin = (await client.get('/api/user/current')).body.last_login;

    // Logging out ends the session at once; logging in again is seen at once too.
    const login = await server().anon.post('/api/session', { username: user.email, password });
    const second = server().anon.withSession(login.body.id);
    assert.equal((await second.get('/api/user/current')).status, 200);
    assert.ok((await client.get('/api/user/current')).body.last_login > lastLogin, 'the login is in last_login');
    assert.equal((await second.delete('/api/session')).status, 204);
    assert.equal((await second.get('/api/user/current')).status, 401);
    assert.equal((await client.get('/api/user/current')).status, 200, 'other sessions live on');
    await admin.delete(`/api/user/${user.id}`);
    assert.equal((await client.get('/api/user/current')).status, 401, 'deactivation ends every session at once');
  });

  test('GET /api/session/properties: repeated calls run no app-DB query, yet a change to users or databases here shows at once', async () => {
    const props = () => admin.get('/api/session/properties');
    const before = (await props()).body;
    assert.equal(await countQueries(server(), async () => void (await props())), 0, 'answered from the caches');

    const { user } = await createUserClient(server(), admin);
    assert.equal((await props()).body['active-users-count'], before['active-users-count'] + 1);
    assert.equal((await admin.delete(`/api/user/${user.id}`)).status, 200);
    assert.equal((await props()).body['active-users-count'], before['active-users-count']);

    assert.equal(before['has-sample-database?'], false);
    const sample = await admin.post('/api/database/sample_database');
    assert.equal(sample.status, 200);
    assert.equal((await props()).body['has-sample-database?'], true);
    assert.equal((await admin.delete(`/api/database/${sample.body.id}`)).status, 204);
    assert.equal((await props()).body['has-sample-database?'], false);
  });

  test('a write on another instance (another process) is seen here within a second', async () => {
    const other = await spawnInstance(appDbEnvOf(server()));
    try {
      const { client, user } = await createUserClient(server(), admin);
      const there = new Client(other.url).withSession(client.session!);
      assert.equal((await there.get('/api/user/current')).body.first_name, 'Test');
      assert.equal((await client.put(`/api/user/${user.id}`, { first_name: 'Elsewhere' })).status, 200);
      await sleep(1100);
      assert.equal((await there.get('/api/user/current')).body.first_name, 'Elsewhere');
      assert.equal((await client.delete('/api/session')).status, 204);
      await sleep(1100);
      assert.equal((await there.get('/api/user/current')).status, 401, 'a logout reaches the other instance within a second');
    } finally {
      await other.stop();
    }
  });
});
