// Input that used to reach the app DB and fail there (500s, mostly on PostgreSQL): ids beyond the integer columns,
// NUL characters, values longer than their columns, huge passwords, broken URLs and bodies of the wrong type.
// Each answer must be Metabase-shaped — never a 500 — and must leave nothing half-written.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, ADMIN } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';

const TOO_BIG = '2147483648';
const HUGE = '99999999999999999999';

forEachAppDb('hostile input', (server) => {
  let admin: Client;

  before(async () => {
    admin = await setupAdmin(server());
  });

  test('an id path param beyond 2147483647 names nothing: 404 Not found.', async () => {
    for (const path of [`/api/user/${TOO_BIG}`, `/api/user/${HUGE}`, `/api/permissions/group/${TOO_BIG}`, `/api/api-key/${TOO_BIG}`]) {
      const r = path.startsWith('/api/api-key') ? await admin.put(path, { name: 'x' }) : await admin.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.text, 'Not found.', path);
    }
    assert.equal((await admin.get('/api/user/2147483647')).status, 404, 'the largest id is a plain miss');
    assert.equal((await admin.delete(`/api/permissions/membership/${TOO_BIG}`)).status, 404);
  });

  test('ids beyond 2147483647 in bodies and query strings are the usual 400', async () => {
    const membership = await admin.post('/api/permissions/membership', { group_id: 2147483648, user_id: 1 });
    assert.equal(membership.status, 400);
    assert.equal(membership.body.errors.group_id, 'value must be an integer greater than zero.');
    assert.deepEqual(membership.body['specific-errors'].group_id, ['value must be an integer greater than zero., received: 2147483648']);
    const user = await admin.post('/api/user', { email: 'big@example.com', user_group_memberships: [{ id: 1e20 }] });
    assert.equal(user.status, 400);
    assert.ok('user_group_memberships' in user.body.errors);
    const byGroup = await admin.get('/api/user', { query: { group_id: TOO_BIG } });
    assert.equal(byGroup.status, 400);
    assert.equal(byGroup.body.errors.group_id, 'nullable value must be an integer greater than zero.');
  });

  test('huge limit and offset are a 400, on every app DB', async () => {
    for (const key of ['limit', 'offset']) {
      const r = await admin.get('/api/user', { query: { [key]: HUGE } });
      assert.equal(r.status, 400, key);
      assert.equal(r.body.errors[key], 'nullable value must be an integer greater than zero.');
    }
    const largest = await admin.get('/api/user', { query: { limit: 2147483647, offset: 2147483647 } });
    assert.equal(largest.status, 200);
    assert.deepEqual(largest.body.data, []);
  });

  test('a reset token naming an impossible user id is just an invalid token', async () => {
    const token = `${TOO_BIG}_00000000-0000-0000-0000-000000000000`;
    const valid = await server().anon.get('/api/session/password_reset_token_valid', { query: { token } });
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body, { valid: false });
    const huge = await server().anon.get('/api/session/password_reset_token_valid', { query: { token: `${HUGE}${HUGE}_00000000-0000-0000-0000-000000000000` } });
    assert.deepEqual(huge.body, { valid: false });
    const reset = await server().anon.post('/api/session/reset_password', { token, password: 'Brand-New-Pass-42' });
    assert.equal(reset.status, 400);
    assert.deepEqual(reset.body, { errors: { password: 'Invalid reset token' } });
  });

  test('NUL characters in strings are a 400 wherever they arrive', async () => {
    const nul = 'a\u0000b';
    const login = await server().anon.post('/api/session', { username: `ada${nul}@example.com`, password: 'x-1234567' });
    assert.equal(login.status, 400);
    assert.equal(login.body.errors.username, 'value must be a non-blank string.');
    assert.deepEqual(login.body['specific-errors'].username, ['should not contain NUL characters, received: "adaa\\u0000b@example.com"']);
    const loginPassword = await server().anon.post('/api/session', { username: ADMIN.email, password: nul });
    assert.equal(loginPassword.status, 400);
    assert.equal((await server().anon.post('/api/session/forgot_password', { email: `a${nul}@example.com` })).status, 400);
    assert.equal((await admin.post('/api/user', { email: 'nul@example.com', first_name: nul })).status, 400);
    assert.equal((await admin.post('/api/permissions/group', { name: nul })).status, 400);
    assert.equal((await admin.post('/api/api-key', { name: nul, group_id: 1 })).status, 400);
    assert.equal((await admin.get('/api/user', { query: { query: nul } })).status, 400);
    const setting = await admin.put('/api/setting/site-name', { value: nul });
    assert.equal(setting.status, 400);
    const many = await admin.put('/api/setting', { 'site-name': 'Fine', 'application-name': nul });
    assert.equal(many.status, 400);
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Quarry Test', 'nothing of the batch was written');
    // Nothing was created by any of them.
    const groups = await admin.get('/api/permissions/group');
    assert.deepEqual(groups.body.map((g: any) => g.id).sort(), [1, 2]);
  });

  test('names and emails longer than their 254-character columns are a 400 naming the limit', async () => {
    const long = 'x'.repeat(255);
    const user = await admin.post('/api/user', { email: 'long@example.com', first_name: long });
    assert.equal(user.status, 400);
    assert.equal(user.body.errors.first_name, 'nullable value must be a non-blank string.');
    assert.deepEqual(user.body['specific-errors'].first_name, [`should be at most 254 characters, received: "${'x'.repeat(199)}…`]);
    const email = await admin.post('/api/user', { email: `${'e'.repeat(250)}@example.com` });
    assert.equal(email.status, 400);
    assert.equal(email.body.errors.email, 'value must be a valid email address.');
    assert.equal((await admin.post('/api/permissions/group', { name: long })).status, 400);
    assert.equal((await admin.post('/api/api-key', { name: long, group_id: 1 })).status, 400);
    const me = (await admin.get('/api/user/current')).body;
    assert.equal((await admin.put(`/api/user/${me.id}`, { last_name: long })).status, 400);
    // Exactly 254 characters fit; 254 emoji (two UTF-16 units each) are 254 characters too.
    const fits = await admin.post('/api/permissions/group', { name: '😀'.repeat(254) });
    assert.equal(fits.status, 200);
    assert.equal(fits.body.name, '😀'.repeat(254));
  });

  test('a user with two 254-character names gets a personal collection whose name fits', async () => {
    const first = 'F'.repeat(254);
    const last = 'L'.repeat(254);
    const created = await admin.post('/api/user', { email: 'longnames@example.com', first_name: first, last_name: last });
    assert.equal(created.status, 200);
    const collection = await server().ctx.db.selectFrom('collection').select('name').where('personal_owner_id', '=', created.body.id).executeTakeFirstOrThrow();
    assert.equal(collection.name.length, 254);
    assert.ok(collection.name.startsWith('FFFF'));
    assert.ok(collection.name.endsWith("'s Personal Collection"));
    const renamed = await admin.put(`/api/user/${created.body.id}`, { first_name: 'G'.repeat(254) });
    assert.equal(renamed.status, 200);
  });

  test('an over-long X-Forwarded-For or metabase.DEVICE cookie still logs in (stored cut to size)', async () => {
    const r = await server().anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password }, {
      headers: { 'X-Forwarded-For': `10.0.0.${'1'.repeat(300)}`, Cookie: `metabase.DEVICE=${'d'.repeat(200)}` },
    });
    assert.equal(r.status, 200);
    const history = await server().ctx.db.selectFrom('login_history').select(['ip_address', 'device_id']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.equal(history.ip_address!.length, 128);
    assert.equal(history.device_id, 'd'.repeat(64));
  });

  test('a password over 1 KB is refused at once, everywhere passwords are checked', async () => {
    const big = 'Aa1!'.repeat(300_000); // 1.2 MB
    for (const path of ['/api/session/password-check', '/api/util/password_check']) {
      const r = await server().anon.post(path, { password: big });
      assert.equal(r.status, 400, path);
      assert.equal(r.body.errors.password, 'password is too common.');
      assert.equal(r.body['specific-errors'].password[0].startsWith('should be at most 1024 characters, received: '), true);
      assert.ok(r.text.length < 1000, 'the password is not echoed back in full');
    }
    const login = await server().anon.post('/api/session', { username: ADMIN.email, password: big });
    assert.equal(login.status, 400);
    assert.equal(login.body.errors.password, 'value must be a non-blank string.');
    const me = (await admin.get('/api/user/current')).body;
    const change = await admin.put(`/api/user/${me.id}/password`, { password: big });
    assert.equal(change.status, 400);
    assert.equal(change.body.errors.password, 'password is too common.');
    const reset = await server().anon.post('/api/session/reset_password', { token: '1_00000000-0000-0000-0000-000000000000', password: big });
    assert.equal(reset.status, 400);
    const atLimit = await server().anon.post('/api/session/password-check', { password: 'Aa1!'.repeat(256) });
    assert.equal(atLimit.status, 200, '1024 characters are fine');
  });

  test('bodies over 10 MB are refused with 413', async () => {
    const r = await admin.post('/api/permissions/group', undefined, { raw: JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }) });
    assert.equal(r.status, 413);
    assert.equal(r.text, 'Request body is too large.');
  });

  test('a URL with broken percent-encoding is the unknown-endpoint 404, as plain text with the API headers', async () => {
    for (const path of ['/api/user/%E0%A4%A', '/api/setting/%zz', '/api/permissions/group/%']) {
      const r = await admin.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.text, 'API endpoint does not exist.');
      assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    }
  });

  test('form-encoded and text/plain bodies are refused outside the download routes', async () => {
    const form = await admin.post('/api/permissions/group', undefined, { raw: 'name=Formed', contentType: 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 400);
    assert.equal(form.text, 'Request bodies must be JSON (Content-Type: application/json).');
    const text = await admin.post('/api/permissions/group', undefined, { raw: '{"name":"Texted"}', contentType: 'text/plain' });
    assert.equal(text.status, 400);
    assert.equal(text.text, 'Request bodies must be JSON (Content-Type: application/json).');
    const login = await server().anon.post('/api/session', undefined, {
      raw: `username=${encodeURIComponent(ADMIN.email)}&password=${encodeURIComponent(ADMIN.password)}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(login.status, 400);
    const names = (await admin.get('/api/permissions/group')).body.map((g: any) => g.name);
    assert.ok(!names.includes('Formed') && !names.includes('Texted'));
    // JSON with a vendor type and an empty text/plain body are fine.
    const vendor = await admin.post('/api/permissions/group', undefined, { raw: '{"name":"Vendor JSON"}', contentType: 'application/vnd.api+json' });
    assert.equal(vendor.status, 200);
    const empty = await admin.put(`/api/user/${(await admin.get('/api/user/current')).body.id}/modal/qbnewb`, undefined, { raw: '', contentType: 'text/plain' });
    assert.equal(empty.status, 200);
  });

  test('a download route still takes the form post the UI sends', async () => {
    // The export needs a database to query; its form body is parsed (a bad query is a 4xx about the query, not the body).
    const r = await admin.post('/api/dataset/csv', undefined, { raw: 'query=%7Bnot-json', contentType: 'application/x-www-form-urlencoded' });
    assert.notEqual(r.text, 'Request bodies must be JSON (Content-Type: application/json).');
    assert.ok(r.status >= 400 && r.status < 500);
  });

  test('concurrent duplicates are the domain 400s, never a unique-key 500', async () => {
    const t = server();
    const twice = <T>(make: () => Promise<T>) => Promise.all([make(), make(), make()]);
    const users = await twice(() => admin.post('/api/user', { email: 'same@example.com', first_name: 'Same' }));
    assert.deepEqual(users.map((r) => r.status).sort(), [200, 400, 400]);
    for (const r of users.filter((x) => x.status === 400)) assert.deepEqual(r.body, { errors: { email: 'Email address already in use.' } });
    const keys = await twice(() => admin.post('/api/api-key', { name: 'Same key', group_id: 1 }));
    assert.deepEqual(keys.map((r) => r.status).sort(), [200, 400, 400]);
    for (const r of keys.filter((x) => x.status === 400)) assert.deepEqual(r.body, { errors: { name: 'An API key with this name already exists.' } });
    const groups = await twice(() => admin.post('/api/permissions/group', { name: 'Same group' }));
    assert.deepEqual(groups.map((r) => r.status).sort(), [200, 400, 400]);
    for (const r of groups.filter((x) => x.status === 400)) assert.equal(r.text, 'A group with that name already exists.');
    const cased = await Promise.all(['Cased group', 'CASED GROUP', 'cased group'].map((name) => admin.post('/api/permissions/group', { name })));
    assert.deepEqual(cased.map((r) => r.status).sort(), [200, 400, 400], 'names differing only in case are the same name');
    const group = groups.find((r) => r.status === 200)!.body;
    const { user } = await createUserClient(t, admin);
    const members = await twice(() => admin.post('/api/permissions/membership', { group_id: group.id, user_id: user.id }));
    assert.deepEqual(members.map((r) => r.status), [200, 200, 200], 'adding the same member twice is harmless');
    const rows = await t.ctx.db.selectFrom('permissions_group_membership').select('id').where('group_id', '=', group.id).execute();
    assert.equal(rows.length, 1);
  });
});
