import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, ADMIN } from '../helpers/server.js';
import { Client } from '../helpers/client.js';

forEachAppDb('/api/user', (server) => {
  let admin: Client;
  let alice: { client: Client; user: any; password: string };
  let bob: { client: Client; user: any; password: string };

  before(async () => {
    admin = await setupAdmin(server());
    alice = await createUserClient(server(), admin, { first_name: 'Alice', last_name: 'Zimmer', email: 'alice@example.com' });
    bob = await createUserClient(server(), admin, { first_name: 'bob', last_name: 'Young', email: 'bob@example.com' });
  });

  test('POST creates a user in All Users with a personal collection; the email is unique', async () => {
    const created = await admin.post('/api/user', { email: 'Carol@Example.com', first_name: 'Carol', last_name: 'Xu', user_group_memberships: [{ id: 1 }] });
    assert.equal(created.status, 200);
    assert.equal(created.body.email, 'carol@example.com');
    assert.equal(created.body.common_name, 'Carol Xu');
    assert.equal(created.body.is_active, true);
    assert.deepEqual(created.body.user_group_memberships.map((m: any) => m.id), [1]);
    const collection = await server().ctx.db.selectFrom('collection').selectAll().where('personal_owner_id', '=', created.body.id).executeTakeFirst();
    assert.equal(collection?.name, "Carol Xu's Personal Collection");
    const dup = await admin.post('/api/user', { email: 'carol@example.com' });
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body, { errors: { email: 'Email address already in use.' } });
  });

  test('POST validates: email required and well-formed; unknown group is 404; non-admin is 403', async () => {
    const missing = await admin.post('/api/user', { first_name: 'X' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors.email, 'value must be a valid email address.');
    assert.deepEqual(missing.body['specific-errors'].email, ['missing required key, received: nil']);
    const bad = await admin.post('/api/user', { email: 'not-an-email' });
    assert.equal(bad.body['specific-errors'].email[0], 'value must be a valid email address., received: "not-an-email"');
    const blankName = await admin.post('/api/user', { email: 'z@example.com', first_name: '  ' });
    assert.equal(blankName.body.errors.first_name, 'nullable value must be a non-blank string.');
    assert.equal((await admin.post('/api/user', { email: 'g@example.com', user_group_memberships: [{ id: 999 }] })).status, 404);
    const forbidden = await alice.client.post('/api/user', { email: 'sneaky@example.com' });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.text, "You don't have permissions to do that.");
  });

  test('GET /api/user lists active users sorted by name with paging and totals', async () => {
    const all = await admin.get('/api/user');
    assert.equal(all.status, 200);
    assert.equal(all.body.limit, null);
    assert.equal(all.body.offset, null);
    const names = all.body.data.map((u: any) => u.first_name.toLowerCase());
    assert.deepEqual(names, [...names].sort());
    assert.equal(all.body.total, all.body.data.length);
    const me = all.body.data.find((u: any) => u.email === ADMIN.email);
    assert.deepEqual([...me.group_ids].sort(), [1, 2]);
    assert.equal(typeof me.personal_collection_id, 'number');
    const page = await admin.get('/api/user', { query: { limit: 1, offset: 1 } });
    assert.equal(page.body.data.length, 1);
    assert.equal(page.body.total, all.body.total);
    assert.equal(page.body.limit, 1);
    assert.equal(page.body.offset, 1);
    assert.equal(page.body.data[0].id, all.body.data[1].id);
  });

  test('GET /api/user filters by query, group and status', async () => {
    const byQuery = await admin.get('/api/user', { query: { query: 'ZIMM' } });
    assert.deepEqual(byQuery.body.data.map((u: any) => u.email), ['alice@example.com']);
    const under = await createUserClient(server(), admin, { first_name: 'Una', last_name: 'Under_Score_9' });
    const literal = await admin.get('/api/user', { query: { query: 'r_score_9' } });
    assert.deepEqual(literal.body.data.map((u: any) => u.id), [under.user.id], 'underscore matches itself');
    assert.equal((await admin.get('/api/user', { query: { query: '%' } })).body.total, 0, 'LIKE wildcards are literal');
    assert.equal((await admin.get('/api/user', { query: { query: 'r!score' } })).body.total, 0);
    const admins = await admin.get('/api/user', { query: { group_id: 2 } });
    assert.deepEqual(admins.body.data.map((u: any) => u.email), [ADMIN.email]);
    const gone = await createUserClient(server(), admin, { first_name: 'Gone', email: 'gone@example.com' });
    await admin.delete(`/api/user/${gone.user.id}`);
    const active = await admin.get('/api/user');
    assert.ok(!active.body.data.some((u: any) => u.id === gone.user.id));
    const deactivated = await admin.get('/api/user', { query: { status: 'deactivated' } });
    assert.deepEqual(deactivated.body.data.map((u: any) => u.id), [gone.user.id]);
    const everyone = await admin.get('/api/user', { query: { status: 'all' } });
    assert.ok(everyone.body.data.some((u: any) => u.id === gone.user.id));
    const legacy = await admin.get('/api/user', { query: { include_deactivated: 'true' } });
    assert.equal(legacy.body.total, everyone.body.total);
    // Metabase's status-clause: include_deactivated=true lists everyone whatever the status says.
    const bothGiven = await admin.get('/api/user', { query: { include_deactivated: 'true', status: 'active' } });
    assert.equal(bothGiven.body.total, everyone.body.total, 'include_deactivated wins over status');
    const notDeactivated = await admin.get('/api/user', { query: { include_deactivated: 'false', status: 'deactivated' } });
    assert.deepEqual(notDeactivated.body.data.map((u: any) => u.id), [gone.user.id]);
    // Any other status word means active users, as in Metabase (not a 400).
    for (const status of ['bogus', 'ACTIVE', 'Deactivated', '']) {
      const other = await admin.get('/api/user', { query: { status } });
      assert.equal(other.status, 200, status);
      assert.deepEqual(other.body.data.map((u: any) => u.id), active.body.data.map((u: any) => u.id), status);
    }
    const badBool = await admin.get('/api/user', { query: { include_deactivated: 'yes' } });
    assert.equal(badBool.status, 400);
    assert.equal(badBool.body.errors.include_deactivated, "nullable value must be a valid boolean string ('true' or 'false').");
  });

  test('non-admins can list only with group-manager rights; they read themselves but not others', async () => {
    assert.equal((await alice.client.get('/api/user')).status, 403);
    assert.equal((await alice.client.get(`/api/user/${alice.user.id}`)).status, 200);
    assert.equal((await alice.client.get(`/api/user/${bob.user.id}`)).status, 403);
    const adminView = await admin.get(`/api/user/${bob.user.id}`);
    assert.equal(adminView.body.email, 'bob@example.com');
    assert.deepEqual(adminView.body.user_group_memberships, [{ id: 1 }], 'is_group_manager only with advanced permissions');
    assert.equal((await admin.get('/api/user/987654')).status, 404);
  });

  test('group managers are a paid feature: 402 to make one, the flag ignored on users, and a carried-over flag gives no powers', async () => {
    const group = await admin.post('/api/permissions/group', { name: 'Analysts' });
    const refused = await admin.post('/api/permissions/membership', { group_id: group.body.id, user_id: alice.user.id, is_group_manager: true });
    assert.equal(refused.status, 402);
    assert.equal(refused.text, 'The group manager permissions functionality is only enabled if you have a premium token with the advanced-permissions feature.');
    assert.equal((await admin.get(`/api/permissions/group/${group.body.id}`)).body.members.length, 0, 'nothing was added');
    assert.equal((await alice.client.post('/api/permissions/membership', { group_id: group.body.id, user_id: alice.user.id, is_group_manager: true })).status, 403, 'non-admins: 403 first');
    // In user bodies the flag is ignored (groups are set by id), as Metabase's open-source edition does.
    const created = await admin.post('/api/user', { email: 'mgr@example.com', user_group_memberships: [{ id: 1 }, { id: group.body.id, is_group_manager: true }] });
    assert.equal(created.status, 200);
    assert.deepEqual(created.body.user_group_memberships.map((m: any) => m.id).sort(), [1, group.body.id].sort());
    const moved = await admin.put(`/api/user/${bob.user.id}`, { user_group_memberships: [{ id: 1 }, { id: group.body.id, is_group_manager: true }] });
    assert.equal(moved.status, 200);
    const flags = await server().ctx.db.selectFrom('permissions_group_membership').select('is_group_manager').where('group_id', '=', group.body.id).execute();
    assert.ok(flags.length === 2 && flags.every((f) => !f.is_group_manager), 'no manager was made');
    // A manager row carried over from a paid Metabase grants nothing here.
    await server().ctx.db.updateTable('permissions_group_membership').set({ is_group_manager: true }).where('group_id', '=', group.body.id).where('user_id', '=', bob.user.id).execute();
    await admin.post('/api/permissions/membership', { group_id: group.body.id, user_id: alice.user.id });
    assert.equal((await bob.client.get('/api/user')).status, 403);
    assert.equal((await bob.client.get(`/api/user/${alice.user.id}`)).status, 403);
    assert.equal((await bob.client.put(`/api/user/${alice.user.id}`, { user_group_memberships: [{ id: 1 }] })).status, 403);
    assert.equal((await bob.client.get('/api/permissions/group')).status, 403);
    assert.equal((await bob.client.get(`/api/permissions/group/${group.body.id}`)).status, 403);
    assert.equal((await bob.client.get('/api/permissions/membership')).status, 403);
    assert.equal((await bob.client.put(`/api/permissions/membership/${group.body.id}/clear`)).status, 403);
    await admin.put(`/api/user/${bob.user.id}`, { user_group_memberships: [{ id: 1 }] });
  });

  test('GET /api/user/recipients honours user-visibility', async () => {
    const all = await alice.client.get('/api/user/recipients');
    assert.equal(all.status, 200);
    assert.ok(all.body.data.length >= 3);
    assert.deepEqual(Object.keys(all.body.data[0]).sort(), ['common_name', 'email', 'first_name', 'id', 'last_name']);
    await admin.put('/api/setting/user-visibility', { value: 'none' });
    const none = await bob.client.get('/api/user/recipients');
    assert.deepEqual(none.body.data.map((u: any) => u.id), [bob.user.id]);
    await admin.put('/api/setting/user-visibility', { value: 'group' });
    const group = await bob.client.get('/api/user/recipients');
    assert.deepEqual(group.body.data.map((u: any) => u.id), [bob.user.id], 'bob shares no group but All Users');
    await admin.put('/api/setting/user-visibility', { value: null });
  });

  test('PUT updates names, email and locale; self may edit self; email conflicts are 400', async () => {
    const own = await bob.client.put(`/api/user/${bob.user.id}`, { first_name: 'Bobby', locale: 'pt-br' });
    assert.equal(own.status, 200);
    assert.equal(own.body.first_name, 'Bobby');
    assert.equal(own.body.locale, 'pt_BR');
    const collection = await server().ctx.db.selectFrom('collection').select('name').where('personal_owner_id', '=', bob.user.id).executeTakeFirst();
    assert.equal(collection?.name, "Bobby Young's Personal Collection");
    const taken = await admin.put(`/api/user/${bob.user.id}`, { email: 'alice@example.com' });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { errors: { email: 'Email address already associated to another user.' } });
    const badLocale = await admin.put(`/api/user/${bob.user.id}`, { locale: 'english' });
    assert.equal(badLocale.status, 400);
    assert.equal(badLocale.body.errors.locale, "nullable String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.");
    assert.equal((await bob.client.put(`/api/user/${alice.user.id}`, { first_name: 'X' })).status, 403);
    assert.equal((await bob.client.put(`/api/user/${bob.user.id}`, { is_superuser: true })).status, 403);
  });

  test('is_superuser and the Administrators membership follow each other; the last admin stays', async () => {
    const promoted = await admin.put(`/api/user/${bob.user.id}`, { is_superuser: true });
    assert.equal(promoted.body.is_superuser, true);
    assert.ok(promoted.body.user_group_memberships.some((m: any) => m.id === 2));
    assert.equal((await bob.client.get('/api/user')).status, 200, 'bob is an admin now');
    const demoted = await admin.put(`/api/user/${bob.user.id}`, { is_superuser: false });
    assert.equal(demoted.body.is_superuser, false);
    assert.ok(!demoted.body.user_group_memberships.some((m: any) => m.id === 2));
    assert.equal((await bob.client.get('/api/user')).status, 403, 'and not any more');
    const me = (await admin.get('/api/user/current')).body;
    const last = await admin.put(`/api/user/${me.id}`, { is_superuser: false });
    assert.equal(last.status, 400);
    assert.equal(last.text, "You cannot remove the last member of the 'Admin' group!");
    const deactivateLast = await admin.delete(`/api/user/${me.id}`);
    assert.equal(deactivateLast.status, 400);
    assert.equal((await admin.get('/api/user/current')).body.is_superuser, true);
  });

  test('DELETE deactivates (record kept) and reactivate brings the user back; reactivating an active user is 400', async () => {
    const temp = await createUserClient(server(), admin, { first_name: 'Temp' });
    assert.equal((await alice.client.delete(`/api/user/${temp.user.id}`)).status, 403);
    const off = await admin.delete(`/api/user/${temp.user.id}`);
    assert.deepEqual(off.body, { success: true });
    // current Metabase shows a deactivated user to an admin, who may then reactivate them
    const gone = await admin.get(`/api/user/${temp.user.id}`);
    assert.equal(gone.status, 200, gone.text);
    assert.equal(gone.body.id, temp.user.id);
    assert.equal(gone.body.is_active, false);
    assert.equal(gone.body.email, temp.user.email);
    assert.ok(Array.isArray(gone.body.user_group_memberships));
    assert.equal((await alice.client.get(`/api/user/${temp.user.id}`)).status, 403, 'still only for admins, managers and oneself');
    const listed = await admin.get('/api/user', { query: { status: 'deactivated' } });
    assert.equal(listed.body.data.find((u: any) => u.id === temp.user.id).is_active, false, 'the record is kept');
    assert.equal((await alice.client.put(`/api/user/${temp.user.id}/reactivate`)).status, 403);
    const on = await admin.put(`/api/user/${temp.user.id}/reactivate`);
    assert.equal(on.status, 200);
    assert.equal(on.body.is_active, true);
    const again = await admin.put(`/api/user/${temp.user.id}/reactivate`);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { message: 'Not able to reactivate an active user' });
    assert.equal((await server().anon.post('/api/session', { username: temp.user.email, password: temp.password })).status, 200);
  });

  test('PUT password: own change needs the old password, returns a new session and ends the others', async () => {
    const temp = await createUserClient(server(), admin, { first_name: 'Pat' });
    const wrongOld = await temp.client.put(`/api/user/${temp.user.id}/password`, { password: 'New-Pass-123', old_password: 'nope' });
    assert.equal(wrongOld.status, 400);
    assert.deepEqual(wrongOld.body, { errors: { old_password: 'Invalid password' } });
    const common = await temp.client.put(`/api/user/${temp.user.id}/password`, { password: 'password', old_password: temp.password });
    assert.equal(common.body.errors.password, 'password is too common.');
    const weakFirst = await temp.client.put(`/api/user/${temp.user.id}/password`, { password: 'abc', old_password: 'wrong' });
    assert.equal(weakFirst.status, 400);
    assert.equal(weakFirst.body.errors.password, 'password is too common.', 'the new password is checked before the old one');
    const changed = await temp.client.put(`/api/user/${temp.user.id}/password`, { password: 'New-Pass-123', old_password: temp.password });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.success, true);
    assert.equal((await temp.client.get('/api/user/current')).status, 401, 'the old session ended');
    assert.equal((await temp.client.withSession(changed.body.session_id).get('/api/user/current')).status, 200);
    const byAdmin = await admin.put(`/api/user/${temp.user.id}/password`, { password: 'Admin-Set-456' });
    assert.equal(byAdmin.status, 204);
    assert.equal((await server().anon.post('/api/session', { username: temp.user.email, password: 'Admin-Set-456' })).status, 200);
    assert.equal((await alice.client.put(`/api/user/${temp.user.id}/password`, { password: 'Other-Pass-789' })).status, 403);
  });

  test('stored passwords are Metabase-readable bcrypt ($2a$) of salt + password', async () => {
    const row = await server().ctx.db.selectFrom('core_user').select(['password', 'password_salt']).where('email', '=', 'alice@example.com').executeTakeFirstOrThrow();
    assert.match(row.password!, /^\$2a\$10\$/);
    const bcrypt = (await import('bcryptjs')).default;
    assert.equal(await bcrypt.compare(row.password_salt + alice.password, row.password!), true);
  });

  test('a password hash written by Metabase (jBCrypt $2a$ of salt + password) logs in; a wrong password does not', async () => {
    const user = await createUserClient(server(), admin, { first_name: 'Migrated', email: 'migrated@example.com' });
    const bcrypt = (await import('bcryptjs')).default;
    // A password longer than bcrypt's 72 bytes once the salt is prepended, with non-ASCII characters: both sides cut it the same way.
    const password = 'Migrated-Pässwörd-from-Metabase-1234567890';
    const salt = '0b5e3c7a-1f4d-4c2e-9a8b-6d7e8f901234';
    const jbcrypt = bcrypt.hashSync(salt + password, bcrypt.genSaltSync(10)).replace(/^\$2b\$/, '$2a$');
    await server().ctx.db.updateTable('core_user').set({ password: jbcrypt, password_salt: salt }).where('id', '=', user.user.id).execute();
    const ok = await server().anon.post('/api/session', { username: 'migrated@example.com', password });
    assert.equal(ok.status, 200);
    assert.match(ok.body.id, /^[0-9a-f-]{36}$/);
    const wrong = await server().anon.post('/api/session', { username: 'migrated@example.com', password: `x${password.slice(1)}` });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, { errors: { password: 'did not match stored password' } });
  });

  test('PUT modal marks the query-builder intro as seen; an unknown modal is a validation error', async () => {
    const r = await alice.client.put(`/api/user/${alice.user.id}/modal/qbnewb`);
    assert.deepEqual(r.body, { success: true });
    assert.equal((await alice.client.get('/api/user/current')).body.is_qbnewb, false);
    assert.equal((await alice.client.put(`/api/user/${bob.user.id}/modal/qbnewb`)).status, 403);
    const unknown = await alice.client.put(`/api/user/${alice.user.id}/modal/nosuchmodal`);
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, {
      errors: { modal: 'enum of qbnewb, datasetnewb' },
      'specific-errors': { modal: ['should be either qbnewb, datasetnewb, received: "nosuchmodal"'] },
    });
  });

  test('an admin changes their own password without the old one; a reactivated admin comes back as a non-admin', async () => {
    const other = await createUserClient(server(), admin, { first_name: 'Otto' });
    await admin.put(`/api/user/${other.user.id}`, { is_superuser: true });
    const own = await other.client.put(`/api/user/${other.user.id}/password`, { password: 'Otto-New-Pass-1' });
    assert.equal(own.status, 200);
    assert.equal(own.body.success, true);
    assert.equal((await server().anon.post('/api/session', { username: other.user.email, password: 'Otto-New-Pass-1' })).status, 200);
    assert.equal((await admin.delete(`/api/user/${other.user.id}`)).status, 200);
    const back = await admin.put(`/api/user/${other.user.id}/reactivate`);
    assert.equal(back.status, 200);
    assert.equal(back.body.is_superuser, false);
    assert.ok(!back.body.user_group_memberships.some((m: any) => m.id === 2), 'no longer in Administrators');
    const admins = await admin.get('/api/user', { query: { group_id: 2 } });
    assert.ok(!admins.body.data.some((u: any) => u.id === other.user.id));
  });

  test('current user: 401 without a session, plain-text body', async () => {
    const r = await server().anon.get('/api/user/current');
    assert.equal(r.status, 401);
    assert.equal(r.text, 'Unauthenticated');
    assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
  });
});

forEachAppDb('the last admin, under concurrent requests', (server) => {
  test('two admins demoted, deactivated or removed from Administrators at once: one request wins, one admin stays', async () => {
    const t = server();
    const first = await setupAdmin(t);
    const firstId = (await first.get('/api/user/current')).body.id;
    const secondId = (await createUserClient(t, first, { first_name: 'Second' })).user.id;
    // The requests come from an admin API key, whose hidden user is not one of the admins being counted: it stays
    // an admin throughout, so each refusal is the last-admin rule, not a lost permission.
    const key = (await first.post('/api/api-key', { name: 'Race runner', group_id: 2 })).body.unmasked_key;
    const runner = new Client(t.url, null, { 'X-Api-Key': key });
    const activeAdmins = async () =>
      (await t.ctx.db.selectFrom('permissions_group_membership').innerJoin('core_user', 'core_user.id', 'permissions_group_membership.user_id')
        .select('core_user.id').where('group_id', '=', 2).where('core_user.is_active', '=', true).where('core_user.type', '=', 'personal').execute()).map((r) => r.id);
    const restore = async () => {
      await t.ctx.db.updateTable('core_user').set({ is_active: true }).where('id', 'in', [firstId, secondId]).execute();
      for (const id of [firstId, secondId]) assert.equal((await runner.put(`/api/user/${id}`, { is_superuser: true })).status, 200);
      assert.deepEqual((await activeAdmins()).sort(), [firstId, secondId].sort());
    };
    const adminMembership = async (userId: number) =>
      (await t.ctx.db.selectFrom('permissions_group_membership').select('id').where('group_id', '=', 2).where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
    const races: Array<[string, number, () => Promise<Array<{ status: number; text: string }>>]> = [
      ['PUT is_superuser=false', 200, () => Promise.all([firstId, secondId].map((id) => runner.put(`/api/user/${id}`, { is_superuser: false })))],
      ['DELETE /api/user/:id', 200, () => Promise.all([firstId, secondId].map((id) => runner.delete(`/api/user/${id}`)))],
      ['DELETE /api/permissions/membership/:id', 204, async () => {
        const ids = [await adminMembership(firstId), await adminMembership(secondId)];
        return Promise.all(ids.map((id) => runner.delete(`/api/permissions/membership/${id}`)));
      }],
    ];
    for (const [label, success, race] of races) {
      for (let round = 0; round < 3; round++) {
        await restore();
        const results = await race();
        assert.deepEqual(results.map((r) => r.status).sort(), [success, 400].sort(), `${label}, round ${round}`);
        assert.equal(results.find((r) => r.status === 400)!.text, "You cannot remove the last member of the 'Admin' group!");
        assert.equal((await activeAdmins()).length, 1, `${label}: exactly one admin is left`);
      }
    }
  });
});
