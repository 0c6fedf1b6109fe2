import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, startServer, appDbEnv } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';

forEachAppDb('/api/setting', (server) => {
  let admin: Client;
  let user: Client;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
  });

  test('admins list settings sorted by key, with Metabase list-entry keys', async () => {
    const list = await admin.get('/api/setting');
    assert.equal(list.status, 200);
    const keys = list.body.map((s: any) => s.key);
    assert.deepEqual(keys, [...keys].sort());
    const siteName = list.body.find((s: any) => s.key === 'site-name');
    assert.deepEqual(Object.keys(siteName).sort(), ['default', 'description', 'display_name', 'env_name', 'is_env_setting', 'key', 'type', 'value']);
    assert.equal(siteName.env_name, 'MB_SITE_NAME');
    assert.equal(siteName.value, 'Quarry Test');
    assert.equal(siteName.default, 'Metabase');
    assert.ok(!keys.includes('last-acknowledged-version'), 'user-local settings are not listed');
    assert.equal((await user.get('/api/setting')).status, 403);
  });

  test('PUT one setting answers 204 and GET returns the bare value; null resets to the default', async () => {
    const put = await admin.put('/api/setting/site-name', { value: 'Renamed' });
    assert.equal(put.status, 204);
    const got = await admin.get('/api/setting/site-name');
    assert.equal(got.body, 'Renamed');
    assert.equal((await server().anon.get('/api/session/properties')).body['site-name'], 'Renamed');
    await admin.put('/api/setting/site-name', { value: null });
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Metabase');
  });

  test('PUT one setting needs a {"value": …} map; PUT many needs a map: anything else is a 400 that changes nothing', async () => {
    assert.equal((await admin.put('/api/setting/site-name', { value: 'Kept' })).status, 204);
    for (const body of [{}, [1], 'x', 42]) {
      const r = await admin.put('/api/setting/site-name', body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    const empty = await admin.put('/api/setting/site-name', {});
    assert.deepEqual(empty.body, { errors: { value: 'any' }, 'specific-errors': { value: ['missing required key, received: nil'] } });
    const array = await admin.put('/api/setting/site-name', [1]);
    assert.deepEqual(array.body['specific-errors'], { body: ['Value must be a map., received: [1]'] });
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Kept');
    for (const body of [[1, 2], null, 'x']) {
      const r = await admin.put('/api/setting', undefined, { raw: JSON.stringify(body) });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.errors.body, 'Value must be a map.');
    }
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Kept');
    assert.equal((await admin.put('/api/setting/site-name', { value: null })).status, 204, 'an explicit null still resets');
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Metabase');
    await admin.put('/api/setting/site-name', { value: 'Quarry Test' });
  });

  test('PUT many: all or nothing', async () => {
    const ok = await admin.put('/api/setting', { 'site-name': 'Bulk', 'enable-public-sharing': false, 'start-of-week': 'monday' });
    assert.equal(ok.status, 204);
    assert.equal((await admin.get('/api/setting/enable-public-sharing')).body, false);
    assert.equal((await admin.get('/api/setting/start-of-week')).body, 'monday');
    const bad = await admin.put('/api/setting', { 'site-name': 'Should Not Stick', 'start-of-week': 'someday' });
    assert.equal(bad.status, 400);
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Bulk');
    await admin.put('/api/setting', { 'enable-public-sharing': null, 'start-of-week': null });
  });

  test('typed values are checked: booleans, integers, unknown keys, read-only settings', async () => {
    assert.equal((await admin.put('/api/setting/enable-public-sharing', { value: 'maybe' })).status, 400);
    assert.equal((await admin.put('/api/setting/max-results-bare-rows', { value: 'lots' })).status, 400);
    assert.equal((await admin.put('/api/setting/max-results-bare-rows', { value: '1500' })).status, 204);
    assert.equal((await admin.get('/api/setting/max-results-bare-rows')).body, 1500);
    const unknown = await admin.put('/api/setting/no-such-setting', { value: 1 });
    assert.equal(unknown.status, 400);
    const readOnly = await admin.put('/api/setting/version', { value: 'x' });
    assert.equal(readOnly.status, 400);
    assert.match(readOnly.body.message, /read-only/);
    assert.equal((await admin.put('/api/setting/site-uuid', { value: 'x' })).status, 400);
  });

  test('site-url takes only http(s) URLs: a bare host gets http://, other schemes and broken hosts are a 400', async () => {
    for (const bad of ['ftp://x', 'http://ftp://x', 'javascript:alert(1)', 'file:///etc/passwd', 'http://', 'exa mple.com', 'http://host:port']) {
      const r = await admin.put('/api/setting/site-url', { value: bad });
      assert.equal(r.status, 400, bad);
      assert.equal(r.text, `Invalid site URL: ${JSON.stringify(bad)}`);
    }
    assert.equal((await server().anon.get('/api/session/properties')).body['site-url'], null, 'nothing was stored');
    for (const [given, stored] of [
      ['example.com:3000/bi/', 'http://example.com:3000/bi'],
      ['HTTPS://Metabase.Example.com/', 'HTTPS://Metabase.Example.com'],
      ['http://[::1]:3000', 'http://[::1]:3000'],
      ['localhost:3000', 'http://localhost:3000'],
    ]) {
      assert.equal((await admin.put('/api/setting/site-url', { value: given })).status, 204, given);
      assert.equal((await admin.get('/api/setting/site-url')).body, stored);
    }
    await admin.put('/api/setting/site-url', { value: null });
  });

  test('number settings check their range: row limits and bins positive, ports 1–65535, user-local ids positive', async () => {
    const rows = (await admin.get('/api/setting/max-results-bare-rows')).body;
    const refused: Array<[string, unknown, string]> = [
      ['max-results-bare-rows', -5, 'a positive integer'],
      ['max-results-bare-rows', 0, 'a positive integer'],
      ['max-results-bare-rows', 1.5, 'a positive integer'],
      ['max-results-bare-rows', '-5', 'a positive integer'],
      ['aggregated-query-row-limit', -1, 'a positive integer'],
      ['unaggregated-query-row-limit', 0, 'a positive integer'],
      ['download-row-limit', -10, 'a positive integer'],
      ['breakout-bins-num', 0, 'a positive integer'],
      ['breakout-bin-width', -2.5, 'a positive number'],
      ['email-smtp-port', 70000, 'an integer from 1 to 65535'],
      ['email-smtp-port', 0, 'an integer from 1 to 65535'],
      ['reset-token-ttl-hours', -48, 'a positive integer'],
      ['query-caching-min-ttl', -1, 'a non-negative number'],
      ['custom-homepage-dashboard', -3, 'a positive integer'],
      ['max-results-bare-rows', 2 ** 60, 'a positive integer'],
    ];
    for (const [key, value, rule] of refused) {
      const r = await admin.put(`/api/setting/${key}`, { value });
      assert.equal(r.status, 400, `${key} ${value}`);
      assert.equal(r.body.errors.value, `Invalid value for ${key}: must be ${rule}.`);
    }
    assert.equal((await admin.get('/api/setting/max-results-bare-rows')).body, rows, 'unchanged');
    assert.equal((await admin.put('/api/setting/query-caching-min-ttl', { value: 0 })).status, 204);
    assert.equal((await admin.put('/api/setting/email-smtp-port', { value: 587 })).status, 204);
    assert.equal((await admin.put('/api/setting/breakout-bin-width', { value: 0.5 })).status, 204);
    assert.equal((await user.put('/api/setting/last-used-native-database-id', { value: -3 })).status, 400);
    assert.equal((await user.put('/api/setting/notebook-native-preview-sidebar-width', { value: 0 })).status, 400);
    await admin.put('/api/setting', { 'query-caching-min-ttl': null, 'email-smtp-port': null, 'breakout-bin-width': null });
  });

  test('string settings take strings only (Metabase refuses 123 rather than storing "123"); "" resets them', async () => {
    await admin.put('/api/setting/site-name', { value: 'Quarry Test' });
    for (const value of [123, true, 1.5]) {
      const r = await admin.put('/api/setting/site-name', { value });
      assert.equal(r.status, 400, String(value));
      assert.equal(r.body.errors.value, 'Invalid value for site-name: must be a string.');
    }
    assert.equal((await admin.put('/api/setting', { 'site-name': 'Bulk', 'start-of-week': 1 })).status, 400, 'keywords too');
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Quarry Test');
    assert.equal((await admin.put('/api/setting/site-name', { value: '' })).status, 204);
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Metabase', 'an empty string clears the setting');
    await admin.put('/api/setting/site-name', { value: 'Quarry Test' });
  });

  test('embedding-secret-key must be 64 hex characters; admins read it in full (not a sensitive setting in Metabase)', async () => {
    const bad = await admin.put('/api/setting/embedding-secret-key', { value: 'abc123' });
    assert.equal(bad.status, 400);
    assert.equal(bad.text, 'Invalid embedding-secret-key! Secret key must be a hexadecimal-encoded 256-bit key (i.e., a 64-character string).');
    const key = (await admin.get('/api/util/random_token')).body.token;
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.equal((await admin.put('/api/setting/embedding-secret-key', { value: key })).status, 204);
    const listed = (await admin.get('/api/setting')).body.find((s: any) => s.key === 'embedding-secret-key');
    assert.equal(listed.value, key);
    assert.equal((await admin.get('/api/setting/embedding-secret-key')).body, key);
    assert.equal((await admin.get('/api/session/properties')).body['embedding-secret-key'], key);
    // an obfuscated-looking value is no value to keep: it is refused like any other non-hex string
    assert.equal((await admin.put('/api/setting/embedding-secret-key', { value: '**********' + key.slice(-2) })).status, 400);
    const stored = await server().ctx.db.selectFrom('setting').select('value').where('key', '=', 'embedding-secret-key').executeTakeFirst();
    assert.equal(stored?.value, key);
    // only admins
    assert.equal((await user.get('/api/setting/embedding-secret-key')).status, 403);
    assert.equal('embedding-secret-key' in (await user.get('/api/session/properties')).body, false);
    assert.equal('embedding-secret-key' in (await server().anon.get('/api/session/properties')).body, false);
  });

  test('non-admins may write only user-local settings, stored per user', async () => {
    assert.equal((await user.put('/api/setting/site-name', { value: 'Mine' })).status, 403);
    assert.equal((await user.put('/api/setting', { 'site-name': 'Mine' })).status, 403);
    assert.equal((await user.put('/api/setting/last-used-native-database-id', { value: 7 })).status, 204);
    assert.equal((await user.get('/api/setting/last-used-native-database-id')).body, 7);
    assert.equal((await user.get('/api/session/properties')).body['last-used-native-database-id'], 7);
    assert.equal((await admin.get('/api/session/properties')).body['last-used-native-database-id'], null, 'not shared with other users');
    assert.equal((await user.put('/api/setting/dismissed-custom-dashboard-toast', { value: true })).status, 204);
    assert.equal((await user.get('/api/setting/dismissed-custom-dashboard-toast')).body, true);
  });

  test('random_token needs no session and is 64 hex characters', async () => {
    const a = await server().anon.get('/api/util/random_token');
    const b = await server().anon.get('/api/util/random_token');
    assert.match(a.body.token, /^[0-9a-f]{64}$/);
    assert.notEqual(a.body.token, b.body.token);
  });
});

test('MB_<SETTING> environment variables win, are reported as env settings and cannot be changed', async () => {
  const t = await startServer('sqlite', { MB_SITE_NAME: 'From Env', MB_ENABLE_PUBLIC_SHARING: 'false' });
  try {
    const admin = await setupAdmin(t);
    assert.equal((await t.anon.get('/api/session/properties')).body['site-name'], 'From Env', 'setup did not override the env value');
    const entry = (await admin.get('/api/setting')).body.find((s: any) => s.key === 'site-name');
    assert.equal(entry.is_env_setting, true);
    assert.equal(entry.value, null);
    assert.equal(entry.default, 'Using value of env var $MB_SITE_NAME');
    const put = await admin.put('/api/setting/site-name', { value: 'Other' });
    assert.equal(put.status, 400);
    assert.equal((await admin.get('/api/setting/enable-public-sharing')).body, false);
  } finally {
    await t.close();
  }
});

test('MB_<SETTING> values are checked at start-up: a bad one stops the server with a message naming it', async () => {
  for (const [name, value, message] of [
    ['MB_EMBEDDING_SECRET_KEY', 'short', /MB_EMBEDDING_SECRET_KEY: Invalid embedding-secret-key! Secret key must be a hexadecimal-encoded 256-bit key/],
    ['MB_ENABLE_PUBLIC_SHARING', 'maybe', /MB_ENABLE_PUBLIC_SHARING: Invalid value for enable-public-sharing: must be a boolean\./],
    ['MB_SITE_LOCALE', 'xx_YY', /MB_SITE_LOCALE: Invalid locale/],
    ['MB_MAX_RESULTS_BARE_ROWS', '-5', /MB_MAX_RESULTS_BARE_ROWS: Invalid value for max-results-bare-rows: must be a positive integer\./],
    ['MB_SITE_URL', 'ftp://example.com', /MB_SITE_URL: Invalid site URL/],
  ] as const) {
    const appDb = await appDbEnv('sqlite');
    try {
      await assert.rejects(startServer('sqlite', { [name]: value }, appDb.env), message);
    } finally {
      await appDb.cleanup();
    }
  }
  const key = 'ab'.repeat(32);
  const t = await startServer('sqlite', { MB_EMBEDDING_SECRET_KEY: key.toUpperCase(), MB_SITE_LOCALE: 'pt-br', MB_ENABLE_PUBLIC_SHARING: 'FALSE' });
  try {
    const admin = await setupAdmin(t);
    assert.equal((await t.anon.get('/api/session/properties')).body['site-locale'], 'pt_BR', 'env values are normalized like API values');
    assert.equal((await admin.get('/api/setting/enable-public-sharing')).body, false);
    const listed = (await admin.get('/api/setting')).body.find((s: any) => s.key === 'embedding-secret-key');
    assert.equal(listed.is_env_setting, true);
  } finally {
    await t.close();
  }
});
