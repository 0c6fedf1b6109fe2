// HTTP actions: a request template filled with the form's values, sent to a real HTTP service (one started here on
// loopback), its answer picked by the handles — and the SSRF guard that keeps such requests off the server's own
// network unless an admin allows it (setting http-channel-host-strategy).

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { networkInterfaces } from 'node:os';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { addWarehouse, tableModel, type Warehouse } from './fixtures.js';
import { refusal } from '../../src/util/outbound.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('the outbound address policy', () => {
  test('external-only refuses loopback, link-local (cloud metadata), private, reserved and this machine\'s own addresses', () => {
    const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
    for (const address of [
      '127.0.0.1', '::1', '169.254.169.254', '10.1.2.3', '172.16.0.1', '192.168.1.1', '0.0.0.0', '::', '::ffff:127.0.0.1', 'fd00::1', 'fe80::1',
      // reserved blocks: documentation, benchmarking, protocol assignments, 6to4 relay, multicast, deprecated site-local
      '192.0.2.2', '198.18.0.1', '198.51.100.7', '203.0.113.9', '192.0.0.8', '192.88.99.1', '224.0.0.1', '240.0.0.1', '2001:db8::1', 'fec0::1', 'ff02::1',
      // IPv4 hidden in IPv6: mapped (hex form), NAT64, 6to4, IPv4-compatible
      '::ffff:c000:202', '::ffff:7f00:1', '64:ff9b::7f00:1', '64:ff9b::a01:203', '2002:7f00:1::', '::7f00:1',
      ...own,
    ]) {
      assert.notEqual(refusal(address, 'external-only'), null, address);
    }
    assert.notEqual(refusal('not an address', 'external-only'), null);
    assert.equal(refusal('93.184.216.34', 'external-only'), null);
    assert.equal(refusal('2606:2800:220:1::1', 'external-only'), null);
    assert.equal(refusal('64:ff9b::5db8:d822', 'external-only'), null, 'NAT64 of a public address');
  });
  test('allow-private opens private networks only; allow-all opens everything', () => {
    assert.equal(refusal('10.1.2.3', 'allow-private'), null);
    assert.notEqual(refusal('127.0.0.1', 'allow-private'), null);
    assert.notEqual(refusal('169.254.169.254', 'allow-private'), null);
    assert.equal(refusal('127.0.0.1', 'allow-all'), null);
  });
});

forEachAppDb('HTTP actions', (server) => {
  let admin: Client;
  let w: Warehouse;
  let model: any;
  let service: http.Server;
  let serviceUrl: string;
  const received: Received[] = [];

  before(async () => {
    admin = await setupAdmin(server());
    w = await addWarehouse(admin, 'postgres');
    model = await tableModel(admin, w, 'customers');
    service = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.url?.startsWith('/deep')) {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('['.repeat(100_000) + ']'.repeat(100_000));
        } else if (req.url?.startsWith('/fail')) {
          res.writeHead(422, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { reason: 'quota exceeded' } }));
        } else {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ item: { id: 42, title: 'Created' }, echo: body ? JSON.parse(body) : null }));
        }
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const address = service.address();
    serviceUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(async () => {
    await new Promise((resolve) => service.close(resolve));
    await w.drop();
  });

  async function httpAction(template: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const response = await admin.post('/api/action', {
      name: 'Notify',
      type: 'http',
      model_id: model.id,
      template,
      parameters: [
        { id: 'p-name', slug: 'name', type: 'string/=', target: ['variable', ['template-tag', 'name']] },
        { id: 'p-count', slug: 'count', type: 'number/=', target: ['variable', ['template-tag', 'count']] },
      ],
      ...extra,
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  test('the request goes to the service filled in, and the handle picks the answer', async () => {
    await admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' });
    const action = await httpAction(
      { method: 'POST', url: `${serviceUrl}/items?name={{name}}[[&count={{count}}]]`, body: '{"name": {{name}}, "count": {{count}}}', headers: '{"X-Token": {{name}}}' },
      { response_handle: '.item.title' },
    );
    assert.equal(action.template.method, 'POST');
    const run = await admin.post(`/api/action/${action.id}/execute`, { parameters: { 'p-name': 'Ada & co', count: 3 } });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body, 'Created');
    const request = received[received.length - 1];
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/items?name=Ada%20%26%20co&count=3');
    assert.deepEqual(JSON.parse(request.body), { name: 'Ada & co', count: 3 });
    assert.equal(request.headers['x-token'], 'Ada & co');
    assert.equal(request.headers['content-type'], 'application/json');
  });

  test('an optional part without a value is left out; a required one must have a value', async () => {
    await admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' });
    const action = await httpAction({ method: 'GET', url: `${serviceUrl}/items?name={{name}}[[&count={{count}}]]` }, { response_handle: '.item' });
    const run = await admin.post(`/api/action/${action.id}/execute`, { parameters: { name: 'Grace' } });
    assert.deepEqual(run.body, { id: 42, title: 'Created' });
    assert.equal(received[received.length - 1].url, '/items?name=Grace');
    const missing = await admin.post(`/api/action/${action.id}/execute`, { parameters: {} });
    assert.equal(missing.status, 400);
    assert.equal(missing.text, "You'll need to pick a value for 'name' before this action can run.");
  });

  test('an error answer from the service is a 400 carrying what the error handle picks', async () => {
    await admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' });
    const action = await httpAction({ method: 'POST', url: `${serviceUrl}/fail`, body: '{}' }, { error_handle: '.error.reason' });
    const run = await admin.post(`/api/action/${action.id}/execute`, { parameters: {} });
    assert.equal(run.status, 400);
    assert.deepEqual(run.body, { message: 'Unable to make call to http action', status: 422, body: 'quota exceeded' });
  });

  test('an answer nested deeper than the server walks is handed over as its text', async () => {
    await admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' });
    const action = await httpAction({ method: 'GET', url: `${serviceUrl}/deep` });
    const run = await admin.post(`/api/action/${action.id}/execute`, { parameters: {} });
    assert.equal(run.status, 200, run.text.slice(0, 200));
    assert.equal(run.body, '['.repeat(100_000) + ']'.repeat(100_000));
  });

  test('by default nothing on the server\'s own network can be reached', async () => {
    await admin.put('/api/setting/http-channel-host-strategy', { value: 'external-only' });
    const before = received.length;
    const action = await httpAction({ method: 'GET', url: `${serviceUrl}/items` });
    const refused = await admin.post(`/api/action/${action.id}/execute`, { parameters: {} });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /not allowed: 127\.0\.0\.1 is a loopback/);
    const byName = await httpAction({ method: 'GET', url: serviceUrl.replace('127.0.0.1', 'localhost') + '/items' });
    assert.equal((await admin.post(`/api/action/${byName.id}/execute`, { parameters: {} })).status, 400, 'a name resolving to loopback is refused too');
    const metadata = await httpAction({ method: 'GET', url: 'http://169.254.169.254/latest/meta-data/' });
    assert.match((await admin.post(`/api/action/${metadata.id}/execute`, { parameters: {} })).body.message, /link-local/);
    const file = await httpAction({ method: 'GET', url: 'file:///etc/passwd' });
    assert.match((await admin.post(`/api/action/${file.id}/execute`, { parameters: {} })).body.message, /Only http and https/);
    assert.equal(received.length, before, 'the service never heard from Quarry');
    const bad = await admin.put('/api/setting/http-channel-host-strategy', { value: 'everything' });
    assert.equal(bad.status, 400);
  });
});
