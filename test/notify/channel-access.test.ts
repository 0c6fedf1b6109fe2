// Who may see and use alert channels, one rule for /api/alert and /api/notification: webhook channels are admin-only
// (their details hold secrets; only admins attach them) and a non-admin may only alert themselves.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import { installSample } from '../cards/sample.js';
import type { Client } from '../helpers/client.js';
import { emailChannel, sampleCard } from './fixtures.js';

const SECRET = 'Bearer very-s3cret-token';

forEachAppDb('alert channels: admin-only webhooks, non-admins alert only themselves', (server) => {
  let admin: Client;
  let card: any;
  let hook: any;
  let member: Awaited<ReturnType<typeof createUserClient>>;
  let other: Awaited<ReturnType<typeof createUserClient>>;

  const httpHandler = () => ({ channel_type: 'channel/http', channel_id: hook.id, recipients: [] });
  const selfHandler = (userId: number) => ({ channel_type: 'channel/email', recipients: [{ type: 'notification-recipient/user', user_id: userId }] });
  const notification = (handlers: unknown[]) => ({
    payload_type: 'notification/card',
    payload: { card_id: card.id, send_condition: 'has_result', send_once: false },
    handlers,
    subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: '0 0 9 * * ? *' }],
  });
  const alertBody = (channels: unknown[]) => ({ alert_condition: 'rows', alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false }, channels });
  const httpChannel = () => ({ channel_type: 'http', channel_id: hook.id, enabled: true, schedule_type: 'hourly', recipients: [] });

  before(async () => {
    admin = await setupAdmin(server());
    card = await sampleCard(admin, await installSample(admin));
    const created = await admin.post('/api/channel', { name: 'Secret hook', type: 'channel/http', details: { url: 'https://example.com/hook', 'auth-method': 'header', 'auth-info': { Authorization: SECRET } } });
    assert.equal(created.status, 200, created.text);
    hook = created.body;
    member = await createUserClient(server(), admin);
    other = await createUserClient(server(), admin);
  });

  test("a recipient who isn't an admin never sees a webhook channel's details", async () => {
    const n = (await admin.post('/api/notification', notification([selfHandler(member.user.id), httpHandler()]))).body;
    for (const path of [`/api/notification/${n.id}`, '/api/notification', `/api/alert/${n.id}`, '/api/alert', `/api/alert/question/${card.id}`]) {
      const seen = await member.client.get(path);
      assert.equal(seen.status, 200, `${path}: ${seen.text}`);
      assert.ok(!seen.text.includes('s3cret'), `${path} shows the webhook's secret`);
    }
    const handler = (await member.client.get(`/api/notification/${n.id}`)).body.handlers.find((h: any) => h.channel_type === 'channel/http');
    assert.equal(handler.channel.id, hook.id);
    assert.equal(handler.channel.details, undefined);
    // an admin still sees them
    const adminView = (await admin.get(`/api/notification/${n.id}`)).body.handlers.find((h: any) => h.channel_type === 'channel/http');
    assert.equal(adminView.channel.details['auth-info'].Authorization, SECRET);
  });

  test('a non-admin may not attach a webhook channel', async () => {
    const viaNotification = await member.client.post('/api/notification', notification([selfHandler(member.user.id), httpHandler()]));
    assert.equal(viaNotification.status, 403);
    assert.equal(viaNotification.text, "You don't have permissions to do that.");
    const viaAlert = await member.client.post('/api/alert', alertBody([emailChannel([{ id: member.user.id }], { schedule_type: 'hourly' }), httpChannel()]));
    assert.equal(viaAlert.status, 403);
    const mine = (await member.client.post('/api/alert', alertBody([emailChannel([{ id: member.user.id }], { schedule_type: 'hourly' })]))).body;
    const added = await member.client.put(`/api/alert/${mine.id}`, { channels: [emailChannel([{ id: member.user.id }], { schedule_type: 'hourly' }), httpChannel()] });
    assert.equal(added.status, 403);
    assert.equal((await member.client.post('/api/notification/send', notification([httpHandler()]))).status, 403);
    assert.equal((await admin.get(`/api/alert/${mine.id}`)).body.channels.length, 1);
  });

  test('a non-admin may only have themselves as recipients, through /api/notification as through /api/alert', async () => {
    const message = 'Non-admin users without monitoring or subscription permissions are not allowed to modify the channels for an alert';
    const withOther = { channel_type: 'channel/email', recipients: [{ type: 'notification-recipient/user', user_id: member.user.id }, { type: 'notification-recipient/user', user_id: other.user.id }] };
    const rawAddress = { channel_type: 'channel/email', recipients: [{ type: 'notification-recipient/raw-value', details: { value: 'someone@example.com' } }] };
    for (const handlers of [[withOther], [rawAddress], [selfHandler(other.user.id)], [selfHandler(member.user.id), selfHandler(member.user.id)]]) {
      const refused = await member.client.post('/api/notification', notification(handlers));
      assert.equal(refused.status, 403, JSON.stringify(handlers));
      assert.equal(refused.text, message);
    }
    const mine = await member.client.post('/api/notification', notification([selfHandler(member.user.id)]));
    assert.equal(mine.status, 200, mine.text);
    const widened = await member.client.put(`/api/notification/${mine.body.id}`, { ...notification([withOther]), payload: mine.body.payload });
    assert.equal(widened.status, 403);
    assert.equal(widened.text, message);
    assert.deepEqual((await admin.get(`/api/notification/${mine.body.id}`)).body.handlers[0].recipients.map((r: any) => r.user_id), [member.user.id]);
    // the same rule on /api/alert, on create as on update
    const viaAlert = await member.client.post('/api/alert', alertBody([emailChannel([{ id: member.user.id }, { id: other.user.id }], { schedule_type: 'hourly' })]));
    assert.equal(viaAlert.status, 403);
    assert.equal(viaAlert.text, message);
    // admins may address anyone
    assert.equal((await admin.post('/api/notification', notification([withOther, rawAddress]))).status, 200);
  });
});
