// /api/notification (Metabase 0.54+ clients) over the alerts' rows: an alert made through either API is seen and
// changed through the other; its own cron; sending now; unsubscribing; the filters of the list.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, ADMIN } from '../helpers/server.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { installSample, type Sample } from '../cards/sample.js';
import { waitFor } from '../databases/helpers.js';
import type { Client } from '../helpers/client.js';
import { byCategory, emailChannel, sampleCard } from './fixtures.js';

forEachAppDb('/api/notification', (server) => {
  let admin: Client;
  let adminId: number;
  let sample: Sample;
  let card: any;
  let sink: SmtpSink;

  const notification = (cardId: number, extra: Record<string, unknown> = {}) => ({
    payload_type: 'notification/card',
    payload: { card_id: cardId, send_condition: 'has_result', send_once: false },
    handlers: [{ channel_type: 'channel/email', recipients: [{ type: 'notification-recipient/user', user_id: adminId, details: null }, { type: 'notification-recipient/raw-value', details: { value: 'ops@example.com' } }] }],
    subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: '0 0 9 * * ? *' }],
    ...extra,
  });

  before(async () => {
    admin = await setupAdmin(server());
    adminId = (await admin.get('/api/user/current')).body.id;
    sample = await installSample(admin);
    card = await sampleCard(admin, sample, { name: 'Counted', query: byCategory(sample) });
    sink = await startSmtpSink();
    assert.equal((await admin.put('/api/email', sink.settings())).status, 200);
  });
  after(() => sink.close());

  test('made through /api/notification, seen and changed through /api/alert', async () => {
    const created = await admin.post('/api/notification', notification(card.id));
    assert.equal(created.status, 200, created.text);
    const n = created.body;
    assert.equal(n.payload_type, 'notification/card');
    assert.deepEqual({ card_id: n.payload.card_id, send_condition: n.payload.send_condition, send_once: n.payload.send_once }, { card_id: card.id, send_condition: 'has_result', send_once: false });
    assert.equal(n.payload.card.name, 'Counted');
    assert.equal(n.active, true);
    assert.equal(n.creator_id, adminId);
    const [handler] = n.handlers;
    assert.equal(handler.channel_type, 'channel/email');
    assert.deepEqual(handler.recipients.map((r: any) => [r.type, r.user_id ?? r.details.value]), [['notification-recipient/user', adminId], ['notification-recipient/raw-value', 'ops@example.com']]);
    assert.equal(handler.recipients[0].user.email, ADMIN.email);
    assert.deepEqual(n.subscriptions.map((s: any) => [s.type, s.cron_schedule]), [['notification-subscription/cron', '0 0 9 * * ? *']]);
    assert.deepEqual((await admin.get(`/api/notification/${n.id}`)).body, n);

    const alert = (await admin.get(`/api/alert/${n.id}`)).body;
    assert.equal(alert.alert_condition, 'rows');
    assert.equal(alert.card.id, card.id);
    assert.deepEqual([alert.channels[0].schedule_type, alert.channels[0].schedule_hour], ['daily', 9]);
    assert.deepEqual(alert.channels[0].recipients.map((r: any) => r.id ?? r.email), [adminId, 'ops@example.com']);

    const changed = await admin.put(`/api/alert/${n.id}`, { alert_condition: 'goal', alert_above_goal: false, alert_first_only: true });
    assert.equal(changed.status, 200, changed.text);
    const seen = (await admin.get(`/api/notification/${n.id}`)).body;
    assert.equal(seen.payload.send_condition, 'goal_below');
    assert.equal(seen.payload.send_once, true);
  });

  test('made through /api/alert, seen through /api/notification; its own cron kept as it is', async () => {
    const alert = (
      await admin.post('/api/alert', { alert_condition: 'goal', alert_above_goal: true, alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false }, channels: [emailChannel([{ id: adminId }], { schedule_type: 'weekly', schedule_hour: 7, schedule_day: 'tue' })] })
    ).body;
    const n = (await admin.get(`/api/notification/${alert.id}`)).body;
    assert.equal(n.payload.send_condition, 'goal_above');
    assert.deepEqual(n.subscriptions.map((s: any) => s.cron_schedule), ['0 0 7 ? * TUE *']);

    const custom = await admin.put(`/api/notification/${alert.id}`, { ...notification(card.id), subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: '0 30 7 ? * MON-FRI *' }] });
    assert.equal(custom.status, 200, custom.text);
    assert.deepEqual(custom.body.subscriptions.map((s: any) => [s.cron_schedule, s.ui_display_type]), [['0 30 7 ? * MON-FRI *', 'cron/raw']]);
    assert.equal((await admin.get(`/api/alert/${alert.id}`)).body.channels[0].cron_schedule, '0 30 7 ? * MON-FRI *');
    const trigger = (await admin.get('/api/task/info')).body.jobs.find((j: any) => j.key === 'metabase.task.send-pulse.job').triggers.find((t: any) => t.data['pulse-id'] === alert.id);
    assert.equal(trigger.schedule, '0 30 7 ? * MON-FRI *', 'the scheduler fires on the notification\'s own cron');

    const inactive = await admin.put(`/api/notification/${alert.id}`, { ...notification(card.id), active: false });
    assert.equal(inactive.body.active, false);
    assert.equal((await admin.get(`/api/alert/${alert.id}`)).body.archived, true);
    assert.ok(!(await admin.get('/api/notification')).body.some((x: any) => x.id === alert.id));
    assert.ok((await admin.get('/api/notification', { query: { include_inactive: true } })).body.some((x: any) => x.id === alert.id));
  });

  test('a cron firing more than once a minute is refused with a 400 that says so', async () => {
    for (const cron of ['* * * * * ? *', '0/10 * * * * ? *', '0,30 * * * * ? *', '0-5 * * * * ? *']) {
      const refused = await admin.post('/api/notification', { ...notification(card.id), subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: cron }] });
      assert.equal(refused.status, 400, cron);
      assert.match(refused.body.errors.subscriptions, /at most once a minute/);
    }
    const everyMinute = await admin.post('/api/notification', { ...notification(card.id), subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: '15 * * * * ? *' }] });
    assert.equal(everyMinute.status, 200, everyMinute.text);
    const sneaky = await admin.put(`/api/notification/${everyMinute.body.id}`, { ...notification(card.id), subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: '*/1 * * * * ?' }] });
    assert.equal(sneaky.status, 400);
    assert.equal((await admin.put(`/api/notification/${everyMinute.body.id}`, { ...notification(card.id), active: false })).status, 200);
  });

  test('an alert with its own cron keeps it when edited through /api/alert without changing the schedule', async () => {
    const n = (await admin.post('/api/notification', { ...notification(card.id), subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: '0 30 7 ? * MON-FRI *' }] })).body;
    const alert = (await admin.get(`/api/alert/${n.id}`)).body;
    const channels = alert.channels.map((c: any) => ({ ...c, recipients: [...c.recipients, { email: 'more@example.com' }] }));
    const edited = await admin.put(`/api/alert/${n.id}`, { channels, alert_first_only: true });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual(edited.body.channels[0].recipients.map((r: any) => r.id ?? r.email), [adminId, 'ops@example.com', 'more@example.com']);
    assert.deepEqual((await admin.get(`/api/notification/${n.id}`)).body.subscriptions.map((s: any) => s.cron_schedule), ['0 30 7 ? * MON-FRI *']);
    // a schedule that does change replaces the cron
    const daily = await admin.put(`/api/alert/${n.id}`, { channels: channels.map((c: any) => ({ ...c, schedule_type: 'daily', schedule_hour: 9, schedule_day: null })) });
    assert.equal(daily.status, 200, daily.text);
    assert.deepEqual((await admin.get(`/api/notification/${n.id}`)).body.subscriptions.map((s: any) => s.cron_schedule), ['0 0 9 * * ? *']);
    await admin.put(`/api/alert/${n.id}`, { archived: true });
  });

  test('bad bodies are 400s that say why', async () => {
    assert.equal((await admin.post('/api/notification', { ...notification(card.id), payload_type: 'notification/dashboard' })).status, 400);
    const two = await admin.post('/api/notification', { ...notification(card.id), subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: '0 0 9 * * ? *' }, { type: 'notification-subscription/cron', cron_schedule: '0 0 10 * * ? *' }] });
    assert.equal(two.status, 400);
    assert.ok(two.body.errors.subscriptions);
    const badCron = await admin.post('/api/notification', { ...notification(card.id), subscriptions: [{ type: 'notification-subscription/cron', cron_schedule: 'every morning' }] });
    assert.equal(badCron.status, 400);
    const badCondition = await admin.post('/api/notification', { ...notification(card.id), payload: { card_id: card.id, send_condition: 'sometimes' } });
    assert.equal(badCondition.status, 400);
    assert.equal((await admin.post('/api/notification', notification(999999))).status, 404);
    assert.equal((await admin.post('/api/notification', {})).status, 400);
  });

  test('send now, send unsaved, unsubscribe, and the list\'s filters', async () => {
    const member = await createUserClient(server(), admin);
    const n = (await admin.post('/api/notification', { ...notification(card.id), handlers: [{ channel_type: 'channel/email', recipients: [{ type: 'notification-recipient/user', user_id: member.user.id }] }] })).body;
    const before = sink.messages.length;
    assert.equal((await admin.post(`/api/notification/${n.id}/send`, {})).status, 204);
    const sent = await waitFor('the send', async () => sink.messages.slice(before).find((m) => m.subject === 'Alert: Counted has results'), 20_000);
    assert.deepEqual(sent.recipients, [member.user.email]);

    const unsaved = { ...notification(card.id), handlers: [{ channel_type: 'channel/email', recipients: [{ type: 'notification-recipient/raw-value', details: { value: 'try@example.com' } }] }] };
    assert.equal((await admin.post('/api/notification/send', unsaved)).status, 204);
    await waitFor('the unsaved send', async () => sink.messages.find((m) => m.recipients.includes('try@example.com')), 20_000);

    assert.ok((await member.client.get('/api/notification', { query: { recipient_id: member.user.id } })).body.some((x: any) => x.id === n.id));
    assert.deepEqual((await admin.get('/api/notification', { query: { card_id: card.id, creator_id: member.user.id } })).body, []);
    assert.ok((await admin.get('/api/notification', { query: { creator_or_recipient_id: member.user.id } })).body.some((x: any) => x.id === n.id));
    const stranger = await createUserClient(server(), admin);
    assert.equal((await stranger.client.get(`/api/notification/${n.id}`)).status, 403);
    assert.equal((await stranger.client.post(`/api/notification/${n.id}/unsubscribe`)).status, 403);
    assert.equal((await member.client.post(`/api/notification/${n.id}/unsubscribe`)).status, 204);
    assert.equal((await admin.get(`/api/notification/${n.id}`)).body.active, false, 'nobody left: archived');
  });
});
