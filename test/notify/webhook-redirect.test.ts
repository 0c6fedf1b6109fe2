// A webhook that redirects: the channel's credentials (auth header, auth keys of the body, auth query parameters)
// follow a redirect within the channel's origin but never one to another origin.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { startReceiver, type Receiver } from './fixtures.js';

forEachAppDb(
  'webhook redirects',
  (server) => {
    let admin: Client;
    let home: Receiver;
    let elsewhere: Receiver;
    const send = (details: Record<string, unknown>) => admin.post('/api/channel/test', { type: 'channel/http', details: { url: `${home.url}/hook`, ...details } });

    before(async () => {
      admin = await setupAdmin(server());
      home = await startReceiver();
      elsewhere = await startReceiver();
    });
    after(async () => {
      await home.close();
      await elsewhere.close();
    });

    test('a redirect to another origin carries none of the credentials', async () => {
      assert.equal((await admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' })).status, 204);
      try {
        home.redirectNext(`${elsewhere.url}/landing`);
        assert.deepEqual((await send({ 'auth-method': 'header', 'auth-info': { Authorization: 'Bearer s3cret', 'X-Api-Key': 'k3y' } })).body, { ok: true });
        const [away] = await elsewhere.waitFor(1);
        assert.equal(away.url, '/landing');
        assert.equal(away.headers.authorization, undefined);
        assert.equal(away.headers['x-api-key'], undefined);
        assert.equal(away.headers['content-type'], 'application/json');

        home.redirectNext(`${elsewhere.url}/landing2`);
        assert.deepEqual((await send({ 'auth-method': 'request-body', 'auth-info': { token: 's3cret' } })).body, { ok: true });
        const body = (await elsewhere.waitFor(2))[1];
        assert.equal(body.method, 'POST');
        assert.deepEqual(body.json, {});

        // a receiver that echoes the query string into the Location
        home.redirectNext(`${elsewhere.url}/landing3?token=s3cret&keep=1`);
        assert.deepEqual((await send({ 'auth-method': 'query-param', 'auth-info': { token: 's3cret' } })).body, { ok: true });
        assert.equal((await elsewhere.waitFor(3))[2].url, '/landing3?keep=1');

        // within the origin the credentials are kept
        const before = home.requests.length;
        home.redirectNext(`${home.url}/moved`);
        assert.deepEqual((await send({ 'auth-method': 'header', 'auth-info': { Authorization: 'Bearer s3cret' } })).body, { ok: true });
        const moved = (await home.waitFor(before + 2))[before + 1];
        assert.equal(moved.url, '/moved');
        assert.equal(moved.headers.authorization, 'Bearer s3cret');
      } finally {
        await admin.put('/api/setting/http-channel-host-strategy', { value: null });
      }
    });
  },
  ['sqlite'],
);
