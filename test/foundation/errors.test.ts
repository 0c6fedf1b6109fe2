import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';

forEachAppDb('error shapes', (server) => {
  let admin: Client;
  before(async () => {
    admin = await setupAdmin(server());
  });

  test('unknown routes and non-numeric ids: 404 "API endpoint does not exist." as plain text', async () => {
    for (const path of ['/api/no-such-area', '/api/user/abc', '/api/user/-1', '/api/permissions/group/1.5']) {
      const r = await admin.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.text, 'API endpoint does not exist.');
      assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
    }
  });

  test('malformed JSON bodies are 400 "Malformed JSON in request body."', async () => {
    const r = await admin.post('/api/permissions/group', undefined, { raw: '{"name": ', contentType: 'application/json' });
    assert.equal(r.status, 400);
    assert.equal(r.text, 'Malformed JSON in request body.');
  });

  test('validation errors carry errors and specific-errors with Clojure-style received values', async () => {
    const r = await admin.post('/api/user', { email: 42, first_name: '', user_group_memberships: 'x' });
    assert.equal(r.status, 400);
    assert.equal(r.body.errors.email, 'value must be a valid email address.');
    assert.deepEqual(r.body['specific-errors'].email, ['value must be a valid email address., received: 42']);
    assert.deepEqual(r.body['specific-errors'].first_name, ['value must be a non-blank string., received: ""']);
    assert.ok('user_group_memberships' in r.body.errors);
    assert.equal('message' in r.body, false, 'validation bodies have no message');
  });

  test('an empty body on a POST that needs one is a validation error, not a crash', async () => {
    const r = await admin.post('/api/permissions/group', undefined, { raw: '', contentType: 'application/json' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body['specific-errors'], { name: ['missing required key, received: nil'] });
  });

  test('a body that is not an object (a JSON array or a string) is validated, never a 500', async () => {
    const arr = await admin.post('/api/permissions/group', [1, 2]);
    assert.equal(arr.status, 400);
    const str = await admin.post('/api/permissions/group', undefined, { raw: 'hello', contentType: 'text/plain' });
    assert.equal(str.status, 400);
  });

  test('responses carry the no-cache and security headers', async () => {
    const r = await admin.get('/api/user/current');
    assert.equal(r.headers.get('cache-control'), 'max-age=0, no-cache, must-revalidate, proxy-revalidate');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
  });

  test('health answers ok without a session', async () => {
    const r = await server().anon.get('/api/health');
    assert.deepEqual(r.body, { status: 'ok' });
  });
});
