import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, ADMIN, startServer, appDbKinds } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';

forEachAppDb('setup and session', (server) => {
  let admin: Client;

  test('before setup: properties are public, show the setup token and no admin-only keys', async () => {
    const props = await server().anon.get('/api/session/properties');
    assert.equal(props.status, 200);
    assert.equal(props.body['has-user-setup'], false);
    assert.match(props.body['setup-token'], /^[0-9a-f-]{36}$/);
    assert.equal(props.body.version.tag, 'v0.58.0');
    assert.ok(props.body['quarry-version'].tag.startsWith('v'));
    assert.ok(props.body.engines.postgres['details-fields'].some((f: any) => f.name === 'host'));
    assert.deepEqual(props.body['password-complexity'], { total: 6, digit: 1 });
    assert.equal('embedding-secret-key' in props.body, false);
    assert.equal('enable-public-sharing' in props.body, false, 'authenticated-only settings stay hidden');
  });

  test('setup rejects a wrong token and a weak password with Metabase messages', async () => {
    const anon = server().anon;
    const token = (await anon.get('/api/session/properties')).body['setup-token'];
    const wrong = await anon.post('/api/setup', { token: 'nope', user: ADMIN, prefs: { site_name: 'X' } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.errors.token, 'Token does not match the setup token.');
    const weak = await anon.post('/api/setup', { token, user: { ...ADMIN, password: 'password' }, prefs: { site_name: 'X' } });
    assert.equal(weak.status, 400);
    // Nested under `user`, as Metabase reports errors of the setup body's user map.
    assert.deepEqual(weak.body, {
      errors: { user: { password: 'password is too common.' } },
      'specific-errors': { user: { password: ['password is too common., received: "password"'] } },
    });
    const noSite = await anon.post('/api/setup', { token, user: ADMIN, prefs: {} });
    assert.equal(noSite.status, 400);
    assert.equal(noSite.body.errors.prefs.site_name, 'value must be a non-blank string.');
    assert.equal((await anon.get('/api/session/properties')).body['has-user-setup'], false);
  });

  test('setup creates the first admin, returns a session and sets the cookie', async () => {
    const anon = server().anon;
    const token = (await anon.get('/api/session/properties')).body['setup-token'];
    const response = await anon.post('/api/setup', { token, user: ADMIN, prefs: { site_name: 'Acme Analytics' } });
    assert.equal(response.status, 200);
    assert.match(response.body.id, /^[0-9a-f-]{36}$/);
    assert.ok(response.cookies.some((c) => c.startsWith(`metabase.SESSION=${response.body.id}`) && /HttpOnly/.test(c)));
    admin = anon.withSession(response.body.id);
    const me = await admin.get('/api/user/current');
    assert.equal(me.body.email, ADMIN.email);
    assert.equal(me.body.is_superuser, true);
    assert.deepEqual([...me.body.group_ids].sort(), [1, 2]);
    assert.equal(typeof me.body.personal_collection_id, 'number');
    assert.equal(me.body.is_installer, true);
    assert.equal(me.body.common_name, 'Ada Admin');
  });

  test('after setup: the token is gone from properties and unusable; a second setup is 403', async () => {
    const anon = server().anon;
    const props = await anon.get('/api/session/properties');
    assert.equal(props.body['has-user-setup'], true);
    assert.equal(props.body['setup-token'], null);
    assert.equal(props.body['site-name'], 'Acme Analytics');
    const again = await anon.post('/api/setup', { token: 'anything', user: { ...ADMIN, email: 'x@example.com' }, prefs: { site_name: 'Y' } });
    assert.equal(again.status, 403);
    assert.equal(again.text, 'The /api/setup route can only be used to create the first user, however a user currently exists.');
    const row = await server().ctx.db.selectFrom('setting').select('value').where('key', '=', 'setup-token').executeTakeFirst();
    assert.equal(row, undefined, 'the stored setup token is deleted');
  });

  test('properties grow with the caller: authenticated and admin keys', async () => {
    const props = await admin.get('/api/session/properties');
    assert.equal(props.body['enable-public-sharing'], true);
    assert.ok('session-cookie-samesite' in props.body, 'admin-only settings');
    assert.ok('site-uuid' in props.body);
    const { client } = await createUserClient(server(), admin);
    const userProps = await client.get('/api/session/properties');
    assert.ok('enable-public-sharing' in userProps.body);
    assert.equal('session-cookie-samesite' in userProps.body, false);
  });

  test('sensitive settings (secrets) are never in properties, not even for admins', async () => {
    const key = (await admin.get('/api/util/random_token')).body.token;
    assert.equal((await admin.put('/api/setting', { 'embedding-secret-key': key, 'email-smtp-password': 'smtp-secret-pw', 'premium-embedding-token': 'premium-secret-token' })).status, 204);
    const props = await admin.get('/api/session/properties');
    assert.equal(props.status, 200);
    for (const name of ['email-smtp-password', 'premium-embedding-token']) {
      assert.equal(name in props.body, false, name);
    }
    for (const secret of ['smtp-secret-pw', 'premium-secret-token']) assert.ok(!props.text.includes(secret));
    // the embedding secret key is no sensitive setting (as in Metabase): an admin's properties have it
    assert.equal(props.body['embedding-secret-key'], key);
    // Admins still see them obfuscated in the settings list.
    const listed = (await admin.get('/api/setting')).body.find((s: any) => s.key === 'email-smtp-password');
    assert.equal(listed.value, '**********pw');
    await admin.put('/api/setting', { 'embedding-secret-key': null, 'email-smtp-password': null, 'premium-embedding-token': null });
  });

  test('login: good password gives a session usable by header and by cookie', async () => {
    const anon = server().anon;
    const login = await anon.post('/api/session', { username: ADMIN.email.toUpperCase(), password: ADMIN.password });
    assert.equal(login.status, 200);
    const byHeader = await anon.withSession(login.body.id).get('/api/user/current');
    assert.equal(byHeader.status, 200);
    const byCookie = await anon.get('/api/user/current', { headers: { Cookie: `metabase.SESSION=${login.body.id}` } });
    assert.equal(byCookie.status, 200);
    assert.equal(byCookie.body.email, ADMIN.email);
  });

  test('login: remember=true makes the session cookie persistent', async () => {
    const login = await server().anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password, remember: true });
    const cookie = login.cookies.find((c) => c.startsWith('metabase.SESSION='))!;
    assert.match(cookie, /Max-Age=1209600/);
    const plain = await server().anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
    assert.doesNotMatch(plain.cookies.find((c) => c.startsWith('metabase.SESSION='))!, /Max-Age/);
  });

  test('login failures are 401 with the same body for a wrong password and an unknown user', async () => {
    const anon = server().anon;
    const wrong = await anon.post('/api/session', { username: ADMIN.email, password: 'not-it-123' });
    const unknown = await anon.post('/api/session', { username: 'nobody@example.com', password: 'not-it-123' });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.deepEqual(wrong.body, { errors: { password: 'did not match stored password' } });
    assert.deepEqual(unknown.body, wrong.body);
    const blank = await anon.post('/api/session', { username: '', password: 'x' });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.errors.username, 'value must be a non-blank string.');
  });

  test('sessions are stored hashed, never in clear', async () => {
    const login = await server().anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
    const rows = await server().ctx.db.selectFrom('core_session').select('key_hashed').execute();
    assert.ok(rows.every((r) => r.key_hashed !== login.body.id && r.key_hashed.length === 128));
  });

  test('logout answers 204, clears cookies and ends the session; a second logout is 404', async () => {
    const anon = server().anon;
    const login = await anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
    const client = anon.withSession(login.body.id);
    const out = await client.delete('/api/session');
    assert.equal(out.status, 204);
    // Metabase clears the session, the embedded-session and the timeout cookies (reference §1.5).
    for (const name of ['metabase.SESSION', 'metabase.EMBEDDED_SESSION', 'metabase.TIMEOUT']) {
      const cookie = out.cookies.find((c) => c.startsWith(`${name}=`));
      assert.ok(cookie, `${name} is cleared`);
      assert.match(cookie!, new RegExp(`^${name.replace('.', '\\.')}=;`));
      assert.match(cookie!, /Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
      assert.match(cookie!, /Path=\//);
    }
    const after = await client.get('/api/user/current');
    assert.equal(after.status, 401);
    assert.equal(after.text, 'Unauthenticated');
    assert.equal((await client.delete('/api/session')).status, 404);
    assert.equal((await anon.delete('/api/session')).status, 404);
  });

  test('a deactivated user cannot log in and their sessions stop working', async () => {
    const { client, user, password } = await createUserClient(server(), admin);
    assert.equal((await admin.delete(`/api/user/${user.id}`)).status, 200);
    assert.equal((await client.get('/api/user/current')).status, 401);
    const login = await server().anon.post('/api/session', { username: user.email, password });
    assert.equal(login.status, 401);
    assert.deepEqual(login.body, { errors: { _error: 'Your account is disabled.' } });
  });

  test('password-check endpoints accept strong passwords and reject common ones', async () => {
    for (const path of ['/api/session/password-check', '/api/util/password_check']) {
      const good = await server().anon.post(path, { password: 'correct horse battery 9' });
      assert.equal(good.status, 200);
      assert.deepEqual(good.body, { valid: true });
      const bad = await server().anon.post(path, { password: 'abc' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.errors.password, 'password is too common.');
      assert.deepEqual(bad.body['specific-errors'].password, ['password is too common., received: "abc"']);
      assert.equal((await server().anon.post(path, { password: 'password1' })).status, 400, 'common even with a digit');
    }
  });

  test('forgot and reset password: the emailed token works once and then logs the user in', async () => {
    const t = server();
    const { user } = await createUserClient(t, admin);
    const before = t.mail.length;
    assert.equal((await t.anon.post('/api/session/forgot_password', { email: user.email })).status, 204);
    assert.equal((await t.anon.post('/api/session/forgot_password', { email: 'ghost@example.com' })).status, 204, 'no existence leak');
    assert.equal(t.mail.length, before + 1);
    const token = /reset_password\/(\S+)/.exec(t.mail[t.mail.length - 1].text)![1];
    assert.deepEqual((await t.anon.get('/api/session/password_reset_token_valid', { query: { token } })).body, { valid: true });
    assert.deepEqual((await t.anon.get('/api/session/password_reset_token_valid', { query: { token: `${user.id}_00000000-0000-0000-0000-000000000000` } })).body, { valid: false });
    const weak = await t.anon.post('/api/session/reset_password', { token, password: 'abc' });
    assert.equal(weak.status, 400);
    const reset = await t.anon.post('/api/session/reset_password', { token, password: 'Brand-New-Pass-42' });
    assert.equal(reset.status, 200);
    assert.equal(reset.body.success, true);
    assert.equal((await t.anon.withSession(reset.body.session_id).get('/api/user/current')).body.id, user.id);
    const reuse = await t.anon.post('/api/session/reset_password', { token, password: 'Another-Pass-42' });
    assert.equal(reuse.status, 400);
    assert.deepEqual(reuse.body, { errors: { password: 'Invalid reset token' } });
    assert.equal((await t.anon.post('/api/session', { username: user.email, password: 'Brand-New-Pass-42' })).status, 200);
  });

  test('a reset token older than 48 hours is refused', async () => {
    const t = server();
    const { user } = await createUserClient(t, admin);
    await t.anon.post('/api/session/forgot_password', { email: user.email });
    const token = /reset_password\/(\S+)/.exec(t.mail[t.mail.length - 1].text)![1];
    await t.ctx.db.updateTable('core_user').set({ reset_triggered: Date.now() - 49 * 3600_000 }).where('id', '=', user.id).execute();
    assert.deepEqual((await t.anon.get('/api/session/password_reset_token_valid', { query: { token } })).body, { valid: false });
    assert.equal((await t.anon.post('/api/session/reset_password', { token, password: 'Brand-New-Pass-42' })).status, 400);
  });
});

/** The throttle's message, with a wait of 1 to `most` seconds (how much of it is left depends on the clock, not the code). */
function assertWait(message: string, most: number): void {
  const m = /^Too many attempts! You must wait (\d+) seconds before trying again\.$/.exec(message);
  assert.ok(m, message);
  assert.ok(Number(m[1]) >= 1 && Number(m[1]) <= most, message);
}

forEachAppDb('login throttling', (server) => {
  test('after 10 failures for a username even the right password waits, with the wait in the message', async () => {
    const t = server();
    await setupAdmin(t);
    for (let i = 0; i < 10; i++) {
      const r = await t.anon.post('/api/session', { username: ADMIN.email, password: `wrong-${i}` });
      assert.equal(r.status, 401);
      assert.equal(r.body.errors.password, 'did not match stored password');
    }
    const blocked = await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
    assert.equal(blocked.status, 401);
    assertWait(blocked.body.errors.username, 15);
    // Other users are not affected by this username's failures.
    const fine = await t.anon.post('/api/session', { username: 'someone@example.com', password: 'x-1234567' });
    assert.equal(fine.body.errors.password, 'did not match stored password');
  });

  test('the throttle lives in the app DB: an instance that restarts still enforces it', async () => {
    const t = server();
    // Move the latest failures back 10 s: at most 5 s of the 15 s wait remain.
    await t.ctx.db.updateTable('login_throttle').set((eb) => ({ attempted_at: eb('attempted_at', '-', 10_000) })).execute();
    const blocked = await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
    assertWait(blocked.body.errors.username, 5);
    // Once the wait has passed, the right password works again.
    await t.ctx.db.updateTable('login_throttle').set((eb) => ({ attempted_at: eb('attempted_at', '-', 20_000) })).execute();
    assert.equal((await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password })).status, 200);
  });
});

forEachAppDb('session expiry', (server) => {
  test('a session older than MB_MAX_SESSION_AGE minutes is no longer accepted', async () => {
    const t = server();
    const admin = await setupAdmin(t);
    assert.equal((await admin.get('/api/user/current')).status, 200);
    const fifteenDaysAgo = new Date(Date.now() - 15 * 24 * 3600_000).toISOString();
    await t.ctx.db.updateTable('core_session').set({ created_at: fifteenDaysAgo }).execute();
    await new Promise((r) => setTimeout(r, 1100)); // the auth cache keeps a resolved caller for a second
    const expired = await admin.get('/api/user/current');
    assert.equal(expired.status, 401);
  });
});

test('MB_MAX_SESSION_AGE shortens sessions', async () => {
  const t = await startServer('sqlite', { MB_MAX_SESSION_AGE: '60' });
  try {
    const admin = await setupAdmin(t);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    await t.ctx.db.updateTable('core_session').set({ created_at: twoHoursAgo }).execute();
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await admin.get('/api/user/current')).status, 401);
    const login = await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password, remember: true });
    assert.match(login.cookies.find((c) => c.startsWith('metabase.SESSION='))!, /Max-Age=3600/);
  } finally {
    await t.close();
  }
});

forEachAppDb('setup with preferences', (server) => {
  test('a setup whose preferences are invalid changes nothing: no user, the token still works, no setting written', async () => {
    const t = server();
    const token = (await t.anon.get('/api/session/properties')).body['setup-token'];
    const bad = await t.anon.post('/api/setup', { token, user: ADMIN, prefs: { site_name: 'Half Done', site_locale: 'xx_YY' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors.prefs.site_locale, "nullable String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.");
    const props = await t.anon.get('/api/session/properties');
    assert.equal(props.body['has-user-setup'], false);
    assert.equal(props.body['setup-token'], token);
    assert.equal(props.body['site-name'], 'Metabase');
    assert.equal((await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password })).status, 401);
  });

  test('setup with site_locale en_US sets the site locale and completes', async () => {
    const t = server();
    const token = (await t.anon.get('/api/session/properties')).body['setup-token'];
    const r = await t.anon.post('/api/setup', { token, user: ADMIN, prefs: { site_name: 'Localized', site_locale: 'en_US' } });
    assert.equal(r.status, 200);
    const props = await t.anon.get('/api/session/properties');
    assert.equal(props.body['has-user-setup'], true);
    assert.equal(props.body['site-locale'], 'en_US');
    assert.equal(props.body['site-name'], 'Localized');
    const admin = t.anon.withSession(r.body.id);
    assert.equal((await admin.get('/api/setting/admin-email')).body, ADMIN.email);
  });

  test('one locale rule: known locales in either spelling, a known language with an unknown region, nothing else', async () => {
    const t = server();
    const admin = t.anon.withSession((await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password })).body.id);
    const me = (await admin.get('/api/user/current')).body;
    for (const [given, stored] of [['pt-BR', 'pt_BR'], ['pt_br', 'pt_BR'], ['en-US', 'en_US'], ['fr_CA', 'fr_CA'], ['de', 'de']]) {
      const user = await admin.put(`/api/user/${me.id}`, { locale: given });
      assert.equal(user.status, 200, given);
      assert.equal(user.body.locale, stored);
      assert.equal((await admin.put('/api/setting/site-locale', { value: given })).status, 204, given);
      assert.equal((await admin.get('/api/setting/site-locale')).body, stored);
    }
    for (const bad of ['xx_YY', 'xx', 'english', 'en_USA']) {
      const user = await admin.put(`/api/user/${me.id}`, { locale: bad });
      assert.equal(user.status, 400, bad);
      assert.equal(user.body.errors.locale, "nullable String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.");
      assert.equal((await admin.put('/api/setting/site-locale', { value: bad })).status, 400, bad);
    }
    await admin.put('/api/setting/site-locale', { value: null });
  });
});

forEachAppDb('throttles by address and for password reset', (server) => {
  const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });

  test('50 failed logins from one address block the 51st, whatever the username; other addresses are fine', async () => {
    const t = server();
    await setupAdmin(t);
    for (let i = 0; i < 50; i++) {
      const r = await t.anon.post('/api/session', { username: `nobody${i}@example.com`, password: 'wrong-pass-1' }, from('203.0.113.7'));
      assert.equal(r.status, 401);
      assert.deepEqual(r.body, { errors: { password: 'did not match stored password' } });
    }
    const blocked = await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password }, from('203.0.113.7'));
    assert.equal(blocked.status, 401);
    assertWait(blocked.body.errors.username, 15);
    const elsewhere = await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password }, from('198.51.100.9'));
    assert.equal(elsewhere.status, 200);
  });

  test('forgot_password: 3 requests per email, then a wait; 50 per address', async () => {
    const t = server();
    for (let i = 0; i < 3; i++) {
      assert.equal((await t.anon.post('/api/session/forgot_password', { email: 'someone@example.com' }, from('192.0.2.1'))).status, 204);
    }
    const byEmail = await t.anon.post('/api/session/forgot_password', { email: 'someone@example.com' }, from('192.0.2.2'));
    assert.equal(byEmail.status, 400);
    assert.match(byEmail.body.errors.email, /^Too many attempts! You must wait \d+ seconds before trying again\.$/);
    for (let i = 0; i < 47; i++) {
      assert.equal((await t.anon.post('/api/session/forgot_password', { email: `person${i}@example.com` }, from('192.0.2.1'))).status, 204);
    }
    const byAddress = await t.anon.post('/api/session/forgot_password', { email: 'fresh@example.com' }, from('192.0.2.1'));
    assert.equal(byAddress.status, 400);
    assert.match(byAddress.body.errors.email, /^Too many attempts!/);
  });

  test('reset_password: 10 bad tokens from one address, then a wait even for a good token', async () => {
    const t = server();
    for (let i = 0; i < 10; i++) {
      const r = await t.anon.post('/api/session/reset_password', { token: `1_00000000-0000-0000-0000-00000000000${i}`, password: 'Brand-New-Pass-42' }, from('192.0.2.50'));
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { errors: { password: 'Invalid reset token' } });
    }
    await t.anon.post('/api/session/forgot_password', { email: ADMIN.email }, from('192.0.2.60'));
    const token = /reset_password\/(\S+)/.exec(t.mail[t.mail.length - 1].text)![1];
    const blocked = await t.anon.post('/api/session/reset_password', { token, password: 'Brand-New-Pass-42' }, from('192.0.2.50'));
    assert.equal(blocked.status, 400);
    assert.match(blocked.body.errors.token, /^Too many attempts!/);
    const other = await t.anon.post('/api/session/reset_password', { token, password: 'Brand-New-Pass-42' }, from('192.0.2.51'));
    assert.equal(other.status, 200);
  });
});

test('MB_PASSWORD_COMPLEXITY and MB_PASSWORD_LENGTH set the password rules and their description', async () => {
  const check = (t: { anon: Client }, password: string) => t.anon.post('/api/session/password-check', { password });
  const weak = await startServer('sqlite', { MB_PASSWORD_COMPLEXITY: 'weak' });
  try {
    assert.deepEqual((await weak.anon.get('/api/session/properties')).body['password-complexity'], { total: 6 });
    assert.equal((await check(weak, 'password')).status, 200, 'common passwords are allowed when weak');
    assert.equal((await check(weak, 'abcdef')).status, 200, 'no digit needed');
    assert.equal((await check(weak, 'abcde')).status, 400, 'still 6 characters');
  } finally {
    await weak.close();
  }
  const strong = await startServer('sqlite', { MB_PASSWORD_COMPLEXITY: 'strong' });
  try {
    assert.deepEqual((await strong.anon.get('/api/session/properties')).body['password-complexity'], { total: 8, lower: 2, upper: 2, digit: 1, special: 1 });
    assert.equal((await check(strong, 'Qu4rry-Pw')).status, 200);
    for (const bad of ['quarry-pw4', 'QUARRY-PW4', 'Quarry-Pw', 'QuarryPw4', 'Q4r-pW']) {
      const r = await check(strong, bad);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.errors.password, 'password is too common.');
    }
  } finally {
    await strong.close();
  }
  const long = await startServer('sqlite', { MB_PASSWORD_LENGTH: '12' });
  try {
    assert.deepEqual((await long.anon.get('/api/session/properties')).body['password-complexity'], { total: 12, digit: 1 });
    assert.equal((await check(long, 'zebra-lamp-7')).status, 200);
    assert.equal((await check(long, 'zebra-lamp7')).status, 400, '11 characters');
    // The rule applies where passwords are set, too.
    const token = (await long.anon.get('/api/session/properties')).body['setup-token'];
    const setup = await long.anon.post('/api/setup', { token, user: { ...ADMIN, password: 'short-pw-9' }, prefs: { site_name: 'X' } });
    assert.equal(setup.status, 400);
    assert.equal(setup.body.errors.user.password, 'password is too common.');
  } finally {
    await long.close();
  }
});

for (const kind of appDbKinds()) {
  test(`MB_DISABLE_SESSION_THROTTLE=true turns login throttling off, by username and by address [${kind}]`, async () => {
    const t = await startServer(kind, { MB_DISABLE_SESSION_THROTTLE: 'true' });
    try {
      await setupAdmin(t);
      const from = { headers: { 'X-Forwarded-For': '203.0.113.99' } };
      for (let i = 0; i < 55; i++) {
        const r = await t.anon.post('/api/session', { username: i < 12 ? ADMIN.email : `nobody${i}@example.com`, password: `wrong-${i}` }, from);
        assert.equal(r.status, 401);
        assert.deepEqual(r.body, { errors: { password: 'did not match stored password' } }, `attempt ${i + 1}`);
      }
      const login = await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password }, from);
      assert.equal(login.status, 200, '12 failures for the name and 55 from the address, and still no wait');
      const recorded = await t.ctx.db.selectFrom('login_throttle').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      assert.equal(Number(recorded?.n), 0, 'nothing is recorded either');
    } finally {
      await t.close();
    }
  });

  test(`MB_SETUP_TOKEN is the setup token: shown before setup, the only one accepted, gone after [${kind}]`, async () => {
    const t = await startServer(kind, { MB_SETUP_TOKEN: 'my-deployment-setup-token' });
    try {
      const props = await t.anon.get('/api/session/properties');
      assert.equal(props.body['setup-token'], 'my-deployment-setup-token');
      const stored = await t.ctx.db.selectFrom('setting').select('value').where('key', '=', 'setup-token').executeTakeFirst();
      assert.ok(stored?.value && stored.value !== 'my-deployment-setup-token');
      const generated = await t.anon.post('/api/setup', { token: stored.value, user: ADMIN, prefs: { site_name: 'X' } });
      assert.equal(generated.status, 400, 'the generated token is not the setup token');
      assert.equal(generated.body.errors.token, 'Token does not match the setup token.');
      const ok = await t.anon.post('/api/setup', { token: 'my-deployment-setup-token', user: ADMIN, prefs: { site_name: 'From Env Token' } });
      assert.equal(ok.status, 200);
      assert.equal((await t.anon.get('/api/session/properties')).body['setup-token'], null);
      const again = await t.anon.post('/api/setup', { token: 'my-deployment-setup-token', user: { ...ADMIN, email: 'second@example.com' }, prefs: { site_name: 'Y' } });
      assert.equal(again.status, 403);
    } finally {
      await t.close();
    }
  });
}
