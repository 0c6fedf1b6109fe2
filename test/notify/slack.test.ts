// Slack as Metabase supports it, against a real HTTP server on loopback that answers like Slack's Web API
// (QUARRY_SLACK_API_URL points the server at it): unconfigured until a token Slack accepts is saved, the "Post to"
// choices, and a subscription posted with each chart uploaded and shown in an image block.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appDbKinds, setupAdmin, startServer, type TestServer } from '../helpers/server.js';
import { installSample, type Sample } from '../cards/sample.js';
import type { Client } from '../helpers/client.js';
import { byCategory, dashboardWith, sampleCard, subscriptionBody } from './fixtures.js';
import { pngSize } from './render-png.js';

interface SlackCall {
  method: string;
  auth: string | undefined;
  body: Buffer;
  json: any;
}

/** A stand-in for slack.com/api: the methods Quarry calls, with Slack's answers; `xoxb-good` is the only valid token. */
async function fakeSlack(): Promise<{ url: string; calls: SlackCall[]; close(): Promise<void> }> {
  const calls: SlackCall[] = [];
  let server: Server;
  const answer = (method: string, json: any, auth: string | undefined, url: string): unknown => {
    if (method === 'upload') return null;
    if (auth !== 'Bearer xoxb-good') return { ok: false, error: 'invalid_auth' };
    switch (method) {
      case 'auth.test':
        return { ok: true, team: 'Quarry', user: 'metabase' };
      case 'conversations.list':
        return json.cursor ? { ok: true, channels: [{ name: 'sales' }], response_metadata: { next_cursor: '' } } : { ok: true, channels: [{ name: 'general' }], response_metadata: { next_cursor: 'page2' } };
      case 'users.list':
        return { ok: true, members: [{ name: 'ada' }, { name: 'robot', is_bot: true }, { name: 'gone', deleted: true }] };
      case 'files.getUploadURLExternal':
        return { ok: true, upload_url: `${url}/upload?file=F${calls.length}`, file_id: `F${calls.length}` };
      case 'files.completeUploadExternal':
      case 'chat.postMessage':
        return { ok: true };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = (req.url ?? '').replace(/^\/api\//, '').replace(/^\//, '').split('?')[0];
      let json: any = null;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = null;
      }
      calls.push({ method, auth: req.headers.authorization, body, json });
      const address = server.address() as AddressInfo;
      const reply = answer(method, json ?? {}, req.headers.authorization, `http://127.0.0.1:${address.port}`);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(reply === null ? 'OK' : JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/api`, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

for (const kind of appDbKinds()) {
  describe(`Slack [${kind}]`, () => {
    let server: TestServer;
    let admin: Client;
    let sample: Sample;
    let slack: Awaited<ReturnType<typeof fakeSlack>>;

    before(async () => {
      slack = await fakeSlack();
      server = await startServer(kind, { QUARRY_SLACK_API_URL: slack.url, MB_HTTP_CHANNEL_HOST_STRATEGY: 'allow-all' });
      admin = await setupAdmin(server);
      sample = await installSample(admin);
    });
    after(async () => {
      await server?.close();
      await slack?.close();
    });

    test('unconfigured until a token Slack accepts is saved; then the "Post to" choices are its channels and people', async () => {
      assert.equal((await admin.get('/api/pulse/form_input')).body.channels.slack.configured, false);
      const bad = await admin.put('/api/slack/settings', { 'slack-app-token': 'xoxb-bad' });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { errors: { 'slack-app-token': 'invalid token' } });
      assert.equal((await admin.get('/api/pulse/form_input')).body.channels.slack.configured, false, 'a refused token is not saved');
      assert.equal((await admin.put('/api/slack/settings', { 'slack-app-token': 'xoxb-good' })).status, 200);
      const slackForm = (await admin.get('/api/pulse/form_input')).body.channels.slack;
      assert.equal(slackForm.configured, true);
      assert.deepEqual(slackForm.fields[0].options, ['#general', '#sales', '@ada']);
      const listed = (await admin.get('/api/setting')).body.find((s: any) => s.key === 'slack-app-token');
      assert.notEqual(listed.value, 'xoxb-good', 'the token is never shown');
      assert.match((await admin.get('/api/slack/manifest')).text, /chat:write/);
    });

    test('a subscription posted to Slack: each chart uploaded and shown, titles linked', async () => {
      await admin.put('/api/setting/site-url', { value: 'http://quarry.test' });
      const card = await sampleCard(admin, sample, { name: 'Sales by category', display: 'bar', query: byCategory(sample) });
      const dashboard = await dashboardWith(admin, sample, [card]);
      const before = slack.calls.length;
      const sent = await admin.post('/api/pulse/test', subscriptionBody(dashboard, [{ channel_type: 'slack', enabled: true, schedule_type: 'hourly', details: { channel: '#sales' } }]));
      assert.deepEqual(sent.body, { ok: true }, sent.text);
      const calls = slack.calls.slice(before);
      assert.deepEqual(calls.map((c) => c.method), ['files.getUploadURLExternal', 'upload', 'files.completeUploadExternal', 'chat.postMessage']);
      assert.equal(pngSize(calls[1].body).width, 1200, 'the chart uploaded as a PNG');
      assert.equal(calls[0].json.length, calls[1].body.length);
      const post = calls[3].json;
      assert.equal(post.channel, 'sales');
      assert.equal(post.text, dashboard.name);
      assert.deepEqual(post.blocks[0], { type: 'header', text: { type: 'plain_text', text: dashboard.name, emoji: true } });
      assert.match(post.blocks[1].text.text, /^<http:\/\/quarry\.test\/dashboard\/\d+#scrollTo=\d+\|Sales by category>$/);
      assert.deepEqual(post.blocks[2], { type: 'image', slack_file: { id: calls[2].json.files[0].id }, alt_text: 'Sales by category' });
      assert.ok(calls.every((c) => c.method === 'upload' || c.auth === 'Bearer xoxb-good'));

      // a revoked token fails the send for good and marks the token invalid
      await server.ctx.settings.writeStored('slack-app-token', 'xoxb-revoked');
      const failed = await admin.post('/api/pulse/test', subscriptionBody(dashboard, [{ channel_type: 'slack', enabled: true, schedule_type: 'hourly', details: { channel: '#sales' } }]));
      assert.equal(failed.status, 400);
      assert.match(failed.body.message, /invalid_auth/);
      assert.equal((await admin.get('/api/setting/slack-token-valid%3F')).body, false);
      assert.equal((await admin.put('/api/slack/settings', { 'slack-app-token': null })).status, 200);
      assert.equal((await admin.get('/api/pulse/form_input')).body.channels.slack.configured, false);
    });
  });
}
