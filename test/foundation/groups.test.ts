import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';

forEachAppDb('/api/permissions/group and /membership', (server) => {
  let admin: Client;
  let user: { client: Client; user: any };

  before(async () => {
    admin = await setupAdmin(server());
    user = await createUserClient(server(), admin, { first_name: 'Gina' });
  });

  test('the two magic groups exist with fixed ids and member counts', async () => {
    const groups = await admin.get('/api/permissions/group');
    assert.equal(groups.status, 200);
    assert.deepEqual(groups.body.map((g: any) => [g.id, g.name, g.member_count]), [[2, 'Administrators', 1], [1, 'All Users', 2]]);
    assert.equal(groups.body[0].magic_group_type, 'admin');
    assert.equal((await user.client.get('/api/permissions/group')).status, 403);
  });

  test('create, rename, read with members, delete', async () => {
    const created = await admin.post('/api/permissions/group', { name: 'Finance' });
    assert.equal(created.status, 200);
    assert.equal(created.body.name, 'Finance');
    const dup = await admin.post('/api/permissions/group', { name: 'finance' });
    assert.equal(dup.status, 400);
    assert.equal(dup.text, 'A group with that name already exists.');
    assert.equal((await admin.post('/api/permissions/group', { name: '' })).status, 400);
    assert.equal((await user.client.post('/api/permissions/group', { name: 'Nope' })).status, 403);
    const renamed = await admin.put(`/api/permissions/group/${created.body.id}`, { name: 'Finance Team' });
    assert.equal(renamed.body.name, 'Finance Team');
    const added = await admin.post('/api/permissions/membership', { group_id: created.body.id, user_id: user.user.id });
    assert.equal(added.status, 200);
    assert.deepEqual(added.body.map((m: any) => m.user_id), [user.user.id]);
    const one = await admin.get(`/api/permissions/group/${created.body.id}`);
    assert.equal(one.body.members.length, 1);
    assert.equal(one.body.members[0].email, user.user.email);
    assert.equal(typeof one.body.members[0].membership_id, 'number');
    assert.equal((await admin.delete(`/api/permissions/group/${created.body.id}`)).status, 204);
    assert.equal((await admin.get(`/api/permissions/group/${created.body.id}`)).status, 404);
    assert.equal((await admin.get('/api/permissions/group/987654')).status, 404);
  });

  test('magic groups cannot be renamed or deleted', async () => {
    const r1 = await admin.put('/api/permissions/group/1', { name: 'Everyone' });
    assert.equal(r1.status, 400);
    assert.equal(r1.text, "You cannot edit or delete the 'All Users' permissions group!");
    const r2 = await admin.delete('/api/permissions/group/2');
    assert.equal(r2.status, 400);
    assert.equal(r2.text, "You cannot edit or delete the 'Administrators' permissions group!");
  });

  test('membership map, remove, update is_group_manager, clear', async () => {
    const group = (await admin.post('/api/permissions/group', { name: 'Ops' })).body;
    await admin.post('/api/permissions/membership', { group_id: group.id, user_id: user.user.id });
    const map = await admin.get('/api/permissions/membership');
    const mine = map.body[String(user.user.id)];
    assert.ok(mine.some((m: any) => m.group_id === 1));
    const opsMembership = mine.find((m: any) => m.group_id === group.id);
    assert.equal(opsMembership.user_id, user.user.id);
    assert.equal(opsMembership.is_group_manager, false);
    // Setting is_group_manager needs Metabase's paid advanced-permissions feature: 402, whoever asks.
    const updated = await admin.put(`/api/permissions/membership/${opsMembership.membership_id}`, { is_group_manager: true });
    assert.equal(updated.status, 402);
    assert.equal(updated.text, 'The group manager permissions functionality is only enabled if you have a premium token with the advanced-permissions feature.');
    assert.equal((await admin.put('/api/permissions/membership/987654', { is_group_manager: false })).status, 402);
    assert.equal((await user.client.put(`/api/permissions/membership/${opsMembership.membership_id}`, { is_group_manager: true })).status, 402);
    const after = (await admin.get('/api/permissions/membership')).body[String(user.user.id)].find((m: any) => m.group_id === group.id);
    assert.equal(after.is_group_manager, false);
    assert.equal((await admin.delete(`/api/permissions/membership/${opsMembership.membership_id}`)).status, 204);
    assert.equal((await admin.get(`/api/permissions/group/${group.id}`)).body.members.length, 0);
    await admin.post('/api/permissions/membership', { group_id: group.id, user_id: user.user.id });
    assert.equal((await admin.put(`/api/permissions/membership/${group.id}/clear`)).status, 204);
    assert.equal((await admin.get(`/api/permissions/group/${group.id}`)).body.members.length, 0);
    assert.equal((await admin.delete('/api/permissions/membership/987654')).status, 404);
  });

  test('clearing the admin group is 400; removing the last admin is 400; All Users membership is fixed', async () => {
    const clear = await admin.put('/api/permissions/membership/2/clear');
    assert.equal(clear.status, 400);
    const map = (await admin.get('/api/permissions/membership')).body;
    const me = (await admin.get('/api/user/current')).body;
    const adminMembership = map[String(me.id)].find((m: any) => m.group_id === 2);
    const last = await admin.delete(`/api/permissions/membership/${adminMembership.membership_id}`);
    assert.equal(last.status, 400);
    assert.equal(last.text, "You cannot remove the last member of the 'Admin' group!");
    const allUsers = map[String(me.id)].find((m: any) => m.group_id === 1);
    assert.equal((await admin.delete(`/api/permissions/membership/${allUsers.membership_id}`)).status, 400);
    assert.equal((await admin.get('/api/user/current')).body.is_superuser, true);
  });

  test('adding a user to Administrators makes them a superuser; removing takes it away', async () => {
    const other = await createUserClient(server(), admin, { first_name: 'Promo' });
    const members = await admin.post('/api/permissions/membership', { group_id: 2, user_id: other.user.id });
    assert.ok(members.body.some((m: any) => m.user_id === other.user.id));
    assert.equal((await other.client.get('/api/user/current')).body.is_superuser, true);
    const membership = members.body.find((m: any) => m.user_id === other.user.id);
    await admin.delete(`/api/permissions/membership/${membership.membership_id}`);
    assert.equal((await other.client.get('/api/user/current')).body.is_superuser, false);
  });

  test('validation: bad ids and missing fields', async () => {
    const r = await admin.post('/api/permissions/membership', { group_id: 0, user_id: 'x' });
    assert.equal(r.status, 400);
    assert.equal(r.body.errors.group_id, 'value must be an integer greater than zero.');
    assert.equal(r.body.errors.user_id, 'value must be an integer greater than zero.');
    assert.equal((await admin.post('/api/permissions/membership', { group_id: 987654, user_id: user.user.id })).status, 404);
    assert.equal((await admin.get('/api/permissions/group/abc')).status, 404);
  });
});
