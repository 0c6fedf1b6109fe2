// /api/channel: webhook channels for admins, Metabase's messages (duplicate names, namespaced types, closed
// details), deactivation, and POST /api/channel/test against a real receiver — through the outbound address policy.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import { freePort } from '../helpers/free-port.js';
import { installSample } from '../cards/sample.js';
import type { Client } from '../helpers/client.js';
import { emailChannel, sampleCard, startReceiver, type Receiver } from './fixtures.js';

forEachAppDb('/api/channel', (server) => {
  let admin: Client;
  let receiver: Receiver;
  const hook = (extra: Record<string, unknown> = {}) => ({ name: `Hook ${Math.random().toString(36).slice(2, 8)}`, type: 'channel/http', description: 'a hook', details: { url: `${receiver.url}/hook`, 'auth-method': 'none', method: 'post' }, ...extra });

  before(async () => {
    admin = await setupAdmin(server());
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('create, list, read and update channels', async () => {
    const created = await admin.post('/api/channel', hook({ details: { url: 'https://example.com/x', 'auth-method': 'header', 'auth-info': { Authorization: 'Bearer abc' }, 'fe-form-type': 'bearer' } }));
    assert.equal(created.status, 200, created.text);
    const channel = created.body;
    assert.deepEqual(Object.keys(channel).sort(), ['active', 'created_at', 'description', 'details', 'id', 'name', 'type', 'updated_at']);
    assert.equal(channel.type, 'channel/http');
    assert.equal(channel.active, true);
    assert.deepEqual(channel.details['auth-info'], { Authorization: 'Bearer abc' });
    assert.ok((await admin.get('/api/channel')).body.some((c: any) => c.id === channel.id));
    assert.deepEqual((await admin.get(`/api/channel/${channel.id}`)).body, channel);
    const updated = await admin.put(`/api/channel/${channel.id}`, { description: 'changed', details: { url: 'http://127.0.0.1:1/never', 'auth-method': 'none' } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.description, 'changed');
    assert.equal(updated.body.details.url, 'http://127.0.0.1:1/never', 'details are saved without a connectivity check');
    assert.equal((await admin.get('/api/channel/999999')).status, 404);
  });

  test('duplicate names are 409, types must be namespaced, details are a closed schema', async () => {
    const first = (await admin.post('/api/channel', hook())).body;
    const duplicate = await admin.post('/api/channel', hook({ name: first.name }));
    assert.equal(duplicate.status, 409);
    assert.deepEqual(duplicate.body, { errors: { name: 'Channel with that name already exists' } });
    const badType = await admin.post('/api/channel', hook({ type: 'http' }));
    assert.equal(badType.status, 400);
    assert.deepEqual(badType.body, { errors: { type: 'Must be a namespaced channel. E.g: channel/http' } });
    const badPutType = await admin.put(`/api/channel/${first.id}`, { type: 'http' });
    assert.deepEqual(badPutType.body, { errors: { type: 'nullable Must be a namespaced channel. E.g: channel/http' } });
    for (const details of [{ url: 'not a url', 'auth-method': 'none' }, { url: 'https://x.org', 'auth-method': 'magic' }, { url: 'https://x.org', 'auth-method': 'none', extra: 1 }, { url: 'https://x.org', 'auth-method': 'none', method: 'delete' }]) {
      const response = await admin.post('/api/channel', hook({ details }));
      assert.equal(response.status, 400, JSON.stringify(details));
      assert.ok(response.body.errors.details);
    }
    assert.equal((await admin.post('/api/channel', { ...hook(), name: '' })).status, 400);
  });

  test('non-admins list none, read none and change none', async () => {
    const channel = (await admin.post('/api/channel', hook())).body;
    const { client } = await createUserClient(server(), admin);
    assert.deepEqual((await client.get('/api/channel')).body, []);
    assert.equal((await client.get(`/api/channel/${channel.id}`)).status, 403);
    assert.equal((await client.post('/api/channel', hook())).status, 403);
    assert.equal((await client.put(`/api/channel/${channel.id}`, { name: 'x' })).status, 403);
    assert.equal((await client.post('/api/channel/test', { type: 'channel/http', details: hook().details })).status, 403);
  });

  test('deactivating a channel frees its name and removes it from the alerts that used it', async () => {
    const sample = await installSample(admin);
    const card = await sampleCard(admin, sample);
    const channel = (await admin.post('/api/channel', hook())).body;
    const adminId = (await admin.get('/api/user/current')).body.id;
    const alert = (
      await admin.post('/api/alert', {
        alert_condition: 'rows',
        alert_first_only: false,
        card: { id: card.id, include_csv: false, include_xls: false, dashboard_card_id: null },
        channels: [emailChannel([{ id: adminId }]), { channel_type: 'http', channel_id: channel.id, enabled: true, schedule_type: 'hourly', recipients: [] }],
      })
    ).body;
    assert.equal(alert.channels.length, 2);
    const off = await admin.put(`/api/channel/${channel.id}`, { active: false });
    assert.equal(off.body.active, false);
    assert.equal(off.body.name, `DEACTIVATED_${channel.id} ${channel.name}`);
    assert.deepEqual((await admin.get(`/api/alert/${alert.id}`)).body.channels.map((c: any) => c.channel_type), ['email']);
    assert.ok(!(await admin.get('/api/channel')).body.some((c: any) => c.id === channel.id));
    assert.ok((await admin.get('/api/channel', { query: { include_inactive: true } })).body.some((c: any) => c.id === channel.id));
    assert.equal((await admin.post('/api/channel', hook({ name: channel.name }))).status, 200, 'the name can be used again');
  });

  test('POST /api/channel/test makes one real request, and says clearly when the receiver fails', async () => {
    // loopback is refused under the default policy (external-only)…
    const refused = await admin.post('/api/channel/test', { type: 'channel/http', details: hook().details });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /not allowed/);
    assert.equal(receiver.requests.length, 0);
    // …and reachable once an admin allows it
    assert.equal((await admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' })).status, 204);
    try {
      const ok = await admin.post('/api/channel/test', { type: 'channel/http', details: { ...hook().details, 'auth-method': 'query-param', 'auth-info': { token: 's3cret' } } });
      assert.deepEqual(ok.body, { ok: true });
      const [request] = await receiver.waitFor(1);
      assert.equal(request.method, 'POST');
      assert.equal(request.url, '/hook?token=s3cret');
      assert.deepEqual(request.json, {});
      assert.equal(request.headers['content-type'], 'application/json');

      receiver.answerNext(404, 'Not found.');
      const notFound = await admin.post('/api/channel/test', { type: 'channel/http', details: hook().details });
      assert.equal(notFound.status, 400);
      assert.deepEqual(notFound.body, { message: 'Failed to connect to channel', data: { 'request-status': 404, 'request-body': 'Not found.' } });
      receiver.answerNext(500, { message: 'too bad' });
      const failing = await admin.post('/api/channel/test', { type: 'channel/http', details: hook().details });
      assert.deepEqual(failing.body, { message: 'Failed to connect to channel', data: { 'request-status': 500, 'request-body': { message: 'too bad' } } });

      const port = await freePort();
      const unreachable = await admin.post('/api/channel/test', { type: 'channel/http', details: { url: `http://127.0.0.1:${port}/x`, 'auth-method': 'none' } });
      assert.equal(unreachable.status, 400);
      assert.match(unreachable.body.message, /ECONNREFUSED|failed/i);
      assert.equal(unreachable.body.data, null);
    } finally {
      await admin.put('/api/setting/http-channel-host-strategy', { value: null });
    }
  });
});
