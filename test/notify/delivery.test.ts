// Subscriptions and alerts delivered for real: a real SMTP server on loopback records every message (subjects,
// recipients, HTML, inline PNGs, CSV and XLSX attachments), a real HTTP receiver records webhooks; sends run on
// their schedule through the cluster-wide scheduler, with retries, unsubscribe links and the creator's permissions.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { parse as parseCsv } from 'csv-parse/sync';
import { appDbKinds, setupAdmin, createUserClient, startServer, ADMIN, type TestServer } from '../helpers/server.js';
import { startSmtpSink, type SmtpSink, type ReceivedMail } from '../helpers/smtp-sink.js';
import { installSample, type Sample } from '../cards/sample.js';
import { createCollection } from '../cards/fixtures.js';
import { setAllUsersCollectionPerms } from '../dashboards/fixtures.js';
import { waitFor } from '../databases/helpers.js';
import { rescheduleJobs, schedulerOf } from '../../src/tasks/scheduler.js';
import { FAST_SCHEDULER } from '../helpers/fast-scheduler.js';
import type { Client } from '../helpers/client.js';
import { byCategory, dashboardWith, emailAndWebhookAlert, emailChannel, sampleCard, startReceiver, subscriptionBody, type Receiver } from './fixtures.js';
import { pngSize } from './render-png.js';

const SITE = 'http://quarry.test';

for (const kind of appDbKinds()) {
  describe(`delivery [${kind}]`, () => {
    let server: TestServer;
    let admin: Client;
    let adminId: number;
    let sample: Sample;
    let sink: SmtpSink;
    let receiver: Receiver;

    before(async () => {
      server = await startServer(kind, { ...FAST_SCHEDULER, QUARRY_WEBHOOK_TIMEOUT_MS: '1500' });
      admin = await setupAdmin(server);
      adminId = (await admin.get('/api/user/current')).body.id;
      sample = await installSample(admin);
      sink = await startSmtpSink();
      receiver = await startReceiver();
      assert.equal((await admin.put('/api/email', sink.settings())).status, 200);
      assert.equal((await admin.put('/api/setting', { 'site-url': SITE, 'http-channel-host-strategy': 'allow-all' })).status, 204);
    });
    after(async () => {
      await server?.close();
      await sink?.close();
      await receiver?.close();
    });

    /** Makes a stored pulse's schedule due now (as if it had existed for hours) and waits for the scheduler. */
    async function fireNow(pulseId: number): Promise<void> {
      const hoursAgo = new Date(Date.now() - 3 * 3600_000).toISOString();
      await server.ctx.db.updateTable('pulse_channel').set({ updated_at: hoursAgo }).where('pulse_id', '=', pulseId).execute();
      // as if the hours had passed for everything else too: an earlier test's report-timezone change included
      await server.ctx.settings.set('report-timezone-changed-at', hoursAgo, null);
      await rescheduleJobs(server.ctx);
      await schedulerOf(server.ctx).idle();
    }

    async function stop(pulseId: number, path = 'pulse'): Promise<void> {
      await admin.put(`/api/${path}/${pulseId}`, { archived: true });
    }

    /** The sends (not the notices about alerts themselves: "You set up an alert"…) that reached `address`. */
    const messagesTo = (address: string, from = 0): ReceivedMail[] =>
      sink.messages.slice(from).filter((m) => m.recipients.includes(address) && !/^You\b|added you to an alert$/.test(m.subject));
    const waitForSend = (address: string, from: number) => waitFor(`a send to ${address}`, async () => messagesTo(address, from)[0], 20_000);

    /** The send-pulse occurrence of an alert, once it has finished (success or failed). */
    const finished = (pulseId: number) =>
      waitFor('the send to finish', async () => {
        const row = await server.ctx.db.selectFrom('scheduled_occurrence').selectAll().where('job_kind', '=', 'send-pulse').where('job_key', 'like', `${pulseId}.%`).executeTakeFirst();
        return row?.status === 'success' || row?.status === 'failed' ? row : null;
      }, 20_000);

    test('POST /api/pulse/test: the dashboard by email — subject, Bcc, HTML, inline charts, CSV and XLSX of the filtered rows', async () => {
      const member = await createUserClient(server, admin);
      const chart = await sampleCard(admin, sample, { name: 'Products by category', display: 'bar', query: byCategory(sample) });
      const listing = await sampleCard(admin, sample, { name: 'Product list', query: { 'source-table': sample.table('PRODUCTS'), fields: [['field', sample.field('PRODUCTS', 'TITLE'), null], ['field', sample.field('PRODUCTS', 'CATEGORY'), null]], 'order-by': [['asc', ['field', sample.field('PRODUCTS', 'ID'), null]]] } });
      const dashboard = await dashboardWith(admin, sample, [chart, listing], { text: 'Numbers for **the team**' });
      const body = subscriptionBody(dashboard, [emailChannel([{ id: adminId }, { id: member.user.id }, { email: 'outside@example.com' }])], {
        parameters: [{ id: 'cat', name: 'Category', slug: 'category', type: 'string/=', value: ['Gizmo'] }],
      });
      body.cards = body.cards.map((c: any) => (c.id === listing.id ? { ...c, include_csv: true, include_xls: true } : c));
      const before = sink.messages.length;
      const sent = await admin.post('/api/pulse/test', body);
      assert.deepEqual(sent.body, { ok: true }, sent.text);
      await sink.waitFor(before + 2);
      const [users] = messagesTo(ADMIN.email, before);
      assert.equal(users.subject, dashboard.name);
      assert.deepEqual(users.recipients.sort(), [ADMIN.email, member.user.email].sort());
      assert.equal(users.headers.to, undefined, 'users are in Bcc, not in To');
      assert.equal(users.headers.bcc, undefined);
      const html = users.html!;
      assert.match(html, new RegExp(`href="${SITE}/dashboard/${dashboard.id}\\?category=Gizmo"`));
      assert.match(html, />Products by category<\/a>/);
      assert.match(html, />Product list<\/a>/);
      assert.match(html, /Sent by Ada Admin/);
      assert.match(html, /Category[\s\S]*Gizmo/);
      assert.match(html, /Numbers for <strong>the team<\/strong>/);
      assert.match(html, /Manage your subscriptions/);
      assert.match(html, /Results have been included as a file attachment/);
      // the chart is an inline PNG the HTML points at
      const images = users.attachments.filter((a) => a.contentType === 'image/png');
      assert.ok(images.length >= 1);
      for (const image of images) {
        assert.ok(html.includes(`cid:${image.cid}`), 'referenced by the HTML');
        assert.equal(pngSize(image.content).width, 1200);
      }
      // the list's rows, filtered to Gizmo, as CSV and XLSX
      const csvFile = users.attachments.find((a) => a.filename?.endsWith('.csv'))!;
      assert.match(csvFile.filename!, /^Product list_\d{4}-\d\d-\d\dT/);
      const csv = parseCsv(csvFile.content.toString('utf8')) as string[][];
      assert.deepEqual(csv[0], ['Title', 'Category']);
      assert.equal(csv.length - 1, 51, 'the 51 Gizmo products');
      assert.ok(csv.slice(1).every((row) => row[1] === 'Gizmo'));
      const xlsxFile = users.attachments.find((a) => a.filename?.endsWith('.xlsx'))!;
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsxFile.content as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      assert.equal(sheet.rowCount, 52);
      assert.equal(sheet.getRow(2).getCell(1).value, csv[1][0]);
      // the outside address gets its own message
      const [outside] = messagesTo('outside@example.com', before);
      assert.deepEqual(outside.recipients, ['outside@example.com']);
      assert.equal(outside.subject, dashboard.name);
    });

    test('with bcc-enabled? off, the users are in To of one message', async () => {
      const member = await createUserClient(server, admin);
      const card = await sampleCard(admin, sample, { name: 'Visible recipients', query: byCategory(sample) });
      const dashboard = await dashboardWith(admin, sample, [card]);
      assert.equal((await admin.put('/api/setting/bcc-enabled%3F', { value: false })).status, 204);
      try {
        const before = sink.messages.length;
        assert.deepEqual((await admin.post('/api/pulse/test', subscriptionBody(dashboard, [emailChannel([{ id: adminId }, { id: member.user.id }])]))).body, { ok: true });
        const [mail] = messagesTo(member.user.email, before);
        assert.ok(mail.headers.to.includes(ADMIN.email) && mail.headers.to.includes(member.user.email), mail.headers.to);
        assert.equal(messagesTo(ADMIN.email, before).length, 1, 'one message for both');
      } finally {
        await admin.put('/api/setting/bcc-enabled%3F', { value: null });
      }
    });

    test('a scheduled subscription is sent once on its schedule, with task history; a raw address can unsubscribe with its link', async () => {
      const card = await sampleCard(admin, sample, { name: 'Category counts', display: 'bar', query: byCategory(sample) });
      const dashboard = await dashboardWith(admin, sample, [card], { filterDefault: ['Widget'] });
      const pulse = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }, { email: 'reader@example.com' }], { schedule_type: 'hourly' })]))).body;
      const before = sink.messages.length;
      await fireNow(pulse.id);
      await sink.waitFor(before + 2);
      await rescheduleJobs(server.ctx);
      await schedulerOf(server.ctx).idle();
      assert.equal(sink.messages.length, before + 2, 'the occurrence is sent once');
      const users = messagesTo(ADMIN.email, before)[0];
      assert.match(users.html!, /category=Widget/, 'the filter\'s default applies');
      const history = (await admin.get('/api/task', { query: { task: 'send-pulse' } })).body.data.find((t: any) => t.task_details['pulse-id'] === pulse.id);
      assert.equal(history.status, 'success');
      assert.deepEqual(history.task_details['channel-ids'], [pulse.channels[0].id]);
      const channelSends = (await admin.get('/api/task', { query: { task: 'channel-send' } })).body.data.filter((t: any) => t.task_details['pulse-id'] === pulse.id);
      assert.equal(channelSends.length, 1);
      assert.equal(channelSends[0].task_details.recipients, 2);
      const trigger = (await admin.get('/api/task/info')).body.jobs.find((j: any) => j.key === 'metabase.task.send-pulse.job').triggers.find((t: any) => t.data['pulse-id'] === pulse.id);
      assert.equal(trigger.key, `metabase.task.send-pulse.trigger.${pulse.id}.0_0_*_*_*_?_*`);
      assert.ok(trigger['previous-fire-time']);

      const reader = messagesTo('reader@example.com', before)[0];
      const link = /href="([^"]*\/unsubscribe\?[^"]+)"/.exec(reader.html!)![1].replace(/&amp;/g, '&');
      const params = new URL(link).searchParams;
      assert.equal(params.get('email'), 'reader@example.com');
      assert.equal(params.get('pulse-id'), String(pulse.id));
      const forged = await server.anon.post('/api/pulse/unsubscribe', { email: 'other@example.com', hash: params.get('hash'), 'pulse-id': pulse.id });
      assert.equal(forged.status, 400);
      assert.equal(forged.body.message ?? forged.text, 'Invalid hash.');
      const left = await server.anon.post('/api/pulse/unsubscribe', { email: 'reader@example.com', hash: params.get('hash'), 'pulse-id': pulse.id });
      assert.deepEqual(left.body, { status: 'success', title: dashboard.name });
      assert.deepEqual((await admin.get(`/api/pulse/${pulse.id}`)).body.channels[0].recipients.map((r: any) => r.email), [ADMIN.email]);
      const again = await server.anon.post('/api/pulse/unsubscribe', { email: 'reader@example.com', hash: params.get('hash'), 'pulse-id': pulse.id });
      assert.equal(again.status, 400);
      const undo = await server.anon.post('/api/pulse/unsubscribe/undo', { email: 'reader@example.com', hash: params.get('hash'), 'pulse-id': pulse.id });
      assert.equal(undo.body.status, 'success');
      await stop(pulse.id);
    });

    test('alerts: rows by email and webhook (payload, auth, PNG), goals above and below, first-only, nothing on no results', async () => {
      const hook = (await admin.post('/api/channel', { name: `Alerts ${Date.now()}`, type: 'channel/http', details: { url: `${receiver.url}/alerts`, 'auth-method': 'header', 'auth-info': { Authorization: 'Bearer hook-token' } } })).body;
      const card = await sampleCard(admin, sample, { name: 'Orders per category', display: 'line', query: byCategory(sample), viz: { 'graph.goal_value': 50 } });
      const alertOf = async (extra: Record<string, unknown>, channels: unknown[]) =>
        (await admin.post('/api/alert', { alert_condition: 'rows', alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false, dashboard_card_id: null }, channels, ...extra })).body;
      const hourly = { schedule_type: 'hourly' };
      const rows = await alertOf({}, [emailChannel([{ id: adminId }], hourly), { channel_type: 'http', channel_id: hook.id, enabled: true, ...hourly, recipients: [] }]);
      const beforeMail = sink.messages.length;
      const beforeHooks = receiver.requests.length;
      await fireNow(rows.id);
      const [payloadRequest] = (await receiver.waitFor(beforeHooks + 1)).slice(beforeHooks);
      assert.equal(payloadRequest.headers.authorization, 'Bearer hook-token');
      const payload = payloadRequest.json;
      assert.equal(payload.type, 'alert');
      assert.equal(payload.alert_id, rows.id);
      assert.equal(payload.alert_creator_id, adminId);
      assert.equal(payload.alert_creator_name, 'Ada Admin');
      assert.equal(payload.data.type, 'question');
      assert.equal(payload.data.question_id, card.id);
      assert.equal(payload.data.question_name, 'Orders per category');
      assert.equal(payload.data.question_url, `${SITE}/question/${card.id}`);
      assert.deepEqual(payload.data.raw_data.cols, ['CATEGORY', 'count']);
      assert.deepEqual(payload.data.raw_data.rows, [['Doohickey', 42], ['Gadget', 53], ['Gizmo', 51], ['Widget', 54]]);
      assert.match(payload.data.visualization, /^data:image\/png;base64,/);
      assert.equal(pngSize(Buffer.from(payload.data.visualization.split(',')[1], 'base64')).width, 1200);
      assert.ok(!Number.isNaN(Date.parse(payload.sent_at)));
      assert.equal((await waitForSend(ADMIN.email, beforeMail)).subject, 'Alert: Orders per category has results');
      await stop(rows.id, 'alert');

      // goal 50: some category is above it, none below 40
      const above = await alertOf({ alert_condition: 'goal', alert_above_goal: true, alert_first_only: true }, [emailChannel([{ id: adminId }], hourly)]);
      const m1 = sink.messages.length;
      await fireNow(above.id);
      const reached = await waitForSend(ADMIN.email, m1);
      assert.equal(reached.subject, 'Alert: Orders per category has reached its goal');
      assert.match(reached.html!, /This question has reached its goal of 50\./);
      assert.match(reached.html!, /We’ll stop sending you alerts about this question now\./);
      assert.equal((await admin.get(`/api/alert/${above.id}`)).body.archived, true, 'a first-only alert stops after its first send');

      await admin.put(`/api/card/${card.id}`, { visualization_settings: { 'graph.goal_value': 40 } });
      const below = await alertOf({ alert_condition: 'goal', alert_above_goal: false }, [emailChannel([{ id: adminId }], hourly)]);
      const m2 = sink.messages.length;
      await fireNow(below.id);
      assert.equal(messagesTo(ADMIN.email, m2).length, 0, 'no category is below 40: nothing is sent');
      const skipped = (await admin.get('/api/task', { query: { task: 'send-pulse' } })).body.data.find((t: any) => t.task_details['pulse-id'] === below.id);
      assert.match(skipped.task_details.skipped, /did not go below/);
      await stop(below.id, 'alert');
      await admin.put(`/api/card/${card.id}`, { visualization_settings: { 'graph.goal_value': 52 } });
      const belowNow = await alertOf({ alert_condition: 'goal', alert_above_goal: false }, [emailChannel([{ id: adminId }], hourly)]);
      await fireNow(belowNow.id);
      assert.equal((await waitForSend(ADMIN.email, m2)).subject, 'Alert: Orders per category has gone below its goal', 'Doohickey (42) is below 52');
      await stop(belowNow.id, 'alert');

      const empty = await sampleCard(admin, sample, { name: 'Nothing', query: { 'source-table': sample.table('PRODUCTS'), filter: ['=', ['field', sample.field('PRODUCTS', 'CATEGORY'), null], 'Nope'] } });
      const none = (await admin.post('/api/alert', { alert_condition: 'rows', alert_first_only: false, card: { id: empty.id, include_csv: false, include_xls: false }, channels: [emailChannel([{ id: adminId }], hourly)] })).body;
      const m3 = sink.messages.length;
      await fireNow(none.id);
      assert.equal(messagesTo(ADMIN.email, m3).length, 0, 'a rows alert with no rows sends nothing');
      await stop(none.id, 'alert');
    });

    test('an alert whose question is archived stops: archived, and its recipients are told', async () => {
      const card = await sampleCard(admin, sample, { name: 'Soon archived', query: byCategory(sample) });
      const alert = (await admin.post('/api/alert', { alert_condition: 'rows', alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false }, channels: [emailChannel([{ id: adminId }], { schedule_type: 'hourly' })] })).body;
      assert.equal((await admin.put(`/api/card/${card.id}`, { archived: true })).status, 200);
      const m0 = sink.messages.length;
      await fireNow(alert.id);
      const notice = await waitFor('the notice', async () => sink.messages.slice(m0).find((m) => m.subject === 'One of your alerts has stopped working'), 20_000);
      assert.deepEqual(notice.recipients, [ADMIN.email]);
      assert.match(notice.html!, /Soon archived/);
      assert.equal((await admin.get(`/api/alert/${alert.id}`)).body.archived, true);
      assert.equal(messagesTo(ADMIN.email, m0).filter((m) => m.subject.startsWith('Alert:')).length, 0);
    });

    test('transient failures are retried with backoff and each channel gets the send once', async () => {
      const hook = (await admin.post('/api/channel', { name: `Flaky ${Date.now()}`, type: 'channel/http', details: { url: `${receiver.url}/flaky`, 'auth-method': 'none' } })).body;
      const card = await sampleCard(admin, sample, { name: 'Retried', query: byCategory(sample) });
      const alert = (await admin.post('/api/alert', emailAndWebhookAlert(card.id, [{ id: adminId }], hook.id))).body;
      const m0 = sink.messages.length;
      const r0 = receiver.requests.length;
      sink.refuseNext(451, 1, ADMIN.email); // the mail server says "try again later" once
      receiver.answerNext(503, { message: 'busy' }, 2); // and the webhook is down twice
      await fireNow(alert.id);
      await waitFor('the retries', async () => {
        const row = await server.ctx.db.selectFrom('scheduled_occurrence').selectAll().where('job_kind', '=', 'send-pulse').where('job_key', 'like', `${alert.id}.%`).executeTakeFirst();
        return row?.status === 'success' ? row : null;
      }, 20_000);
      assert.equal(messagesTo(ADMIN.email, m0).length, 1, 'the email arrived once');
      const hooks = receiver.requests.slice(r0).filter((r) => r.url === '/flaky');
      assert.equal(hooks.length, 3, 'two failed posts, then the one that worked');
      const attempts = (await admin.get('/api/task', { query: { task: 'send-pulse' } })).body.data.filter((t: any) => t.task_details['pulse-id'] === alert.id);
      assert.deepEqual(attempts.map((t: any) => t.status).sort(), ['failed', 'failed', 'success']);
      const sends = (await admin.get('/api/task', { query: { task: 'channel-send' } })).body.data.filter((t: any) => t.task_details['pulse-id'] === alert.id);
      assert.equal(sends.filter((t: any) => t.task_details.channel_type === 'email' && t.status === 'success').length, 1);
      assert.equal(sends.filter((t: any) => t.task_details.channel_type === 'http' && t.status === 'failed').length, 2);
      await stop(alert.id, 'alert');

      // a permanent failure (550 no such mailbox) is recorded once and not retried
      const second = (await admin.post('/api/alert', { alert_condition: 'rows', alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false }, channels: [emailChannel([{ email: 'gone@example.com' }], { schedule_type: 'hourly' })] })).body;
      sink.refuseNext(550, 1, 'gone@example.com');
      await fireNow(second.id);
      const row = await finished(second.id);
      assert.equal(row?.status, 'failed');
      assert.equal(Number(row?.attempt), 1);
      assert.match(row!.last_error!, /550|mailbox/);
      await stop(second.id, 'alert');
    });

    test('a retry sends only to the recipients who did not get the mail; refused recipients are recorded as failures', async () => {
      const member = await createUserClient(server, admin);
      const card = await sampleCard(admin, sample, { name: 'Once each', query: byCategory(sample) });
      const recipients = [{ id: adminId }, { id: member.user.id }, { email: 'one@example.com' }, { email: 'two@example.com' }];
      const alertOn = async () => {
        const before = sink.messages.length;
        const alert = (await admin.post('/api/alert', { alert_condition: 'rows', alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false }, channels: [emailChannel(recipients, { schedule_type: 'hourly' })] })).body;
        // "You set up an alert", "… added you to an alert": out of the way before the refusals below
        await sink.waitFor(before + 2);
        return alert;
      };
      const stopAlert = async (id: number) => {
        const before = sink.messages.length;
        await stop(id, 'alert');
        // "You’ve been unsubscribed from an alert" (one message to both users)
        await sink.waitFor(before + 1);
      };

      // the last raw address is refused for now (451): the retry goes to it alone
      const first = await alertOn();
      const m0 = sink.messages.length;
      sink.refuseNext(451, 1, 'two@example.com');
      await fireNow(first.id);
      assert.equal((await finished(first.id)).status, 'success');
      for (const address of [ADMIN.email, member.user.email, 'one@example.com', 'two@example.com']) assert.equal(messagesTo(address, m0).length, 1, `${address} got the alert once`);
      const firstSends = (await admin.get('/api/task', { query: { task: 'channel-send' } })).body.data.filter((t: any) => t.task_details['pulse-id'] === first.id);
      const deferred = firstSends.find((t: any) => t.status === 'failed');
      assert.deepEqual(deferred.task_details.refused.map((r: any) => [r.address, r.code]), [['two@example.com', 451]]);
      await stopAlert(first.id);

      // a user of the shared message is refused for now: the retry goes to that user alone
      const second = await alertOn();
      const m1 = sink.messages.length;
      sink.refuseNext(452, 1, member.user.email);
      await fireNow(second.id);
      assert.equal((await finished(second.id)).status, 'success');
      for (const address of [ADMIN.email, member.user.email, 'one@example.com', 'two@example.com']) assert.equal(messagesTo(address, m1).length, 1, `${address} got the alert once`);
      await stopAlert(second.id);

      // a user refused for good (550) while the others got it: a failure naming them, not retried
      const third = await alertOn();
      const m2 = sink.messages.length;
      sink.refuseNext(550, 1, member.user.email);
      await fireNow(third.id);
      const row = await finished(third.id);
      assert.equal(row.status, 'failed');
      assert.equal(Number(row.attempt), 1);
      assert.ok(row.last_error!.includes(member.user.email), row.last_error!);
      assert.equal(messagesTo(ADMIN.email, m2).length, 1);
      assert.equal(messagesTo(member.user.email, m2).length, 0);
      const sends = (await admin.get('/api/task', { query: { task: 'channel-send' } })).body.data.filter((t: any) => t.task_details['pulse-id'] === third.id);
      assert.equal(sends.length, 1);
      assert.equal(sends[0].status, 'failed');
      assert.deepEqual(sends[0].task_details.refused.map((r: any) => [r.address, r.code]), [[member.user.email, 550]]);
      await stopAlert(third.id);
    });

    test('changing report-timezone sends nothing for the past: the new zone\'s fire times are not missed occurrences', async () => {
      assert.equal((await admin.put('/api/setting/report-timezone', { value: 'UTC' })).status, 204);
      try {
        const card = await sampleCard(admin, sample, { name: 'Zoned', query: byCategory(sample) });
        const dashboard = await dashboardWith(admin, sample, [card]);
        // daily, an hour ago (UTC)
        const hour = (new Date().getUTCHours() + 23) % 24;
        const pulse = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ email: 'zoned@example.com' }], { schedule_type: 'daily', schedule_hour: hour })]))).body;
        // made, and the zone set, long ago: the last fire time in any zone is after that
        const longAgo = new Date(Date.now() - 30 * 3600_000).toISOString();
        await server.ctx.db.updateTable('pulse_channel').set({ updated_at: longAgo }).where('pulse_id', '=', pulse.id).execute();
        await server.ctx.settings.set('report-timezone-changed-at', longAgo, null);
        await rescheduleJobs(server.ctx);
        await schedulerOf(server.ctx).idle();
        await waitFor('the send of an hour ago', async () => messagesTo('zoned@example.com').length === 1, 20_000);

        for (const zone of ['Asia/Tokyo', 'America/New_York']) {
          assert.equal((await admin.put('/api/setting/report-timezone', { value: zone })).status, 204);
          await rescheduleJobs(server.ctx);
          await schedulerOf(server.ctx).idle();
        }
        const claims = await server.ctx.db.selectFrom('scheduled_occurrence').select('occurrence').where('job_kind', '=', 'send-pulse').where('job_key', 'like', `${pulse.id}.%`).execute();
        assert.equal(claims.length, 1, 'one occurrence only: the one of an hour ago');
        assert.equal(messagesTo('zoned@example.com').length, 1);
        await stop(pulse.id);
      } finally {
        await admin.put('/api/setting/report-timezone', { value: null });
      }
    });

    test('webhooks: auth in the request body; a receiver that never answers times out with a clear error; skip_if_empty', async () => {
      const details = { url: `${receiver.url}/body-auth`, 'auth-method': 'request-body', 'auth-info': { secret: 'in-the-body' } };
      assert.deepEqual((await admin.post('/api/channel/test', { type: 'channel/http', details })).body, { ok: true });
      const posted = receiver.requests.filter((r) => r.url === '/body-auth').pop()!;
      assert.deepEqual(posted.json, { secret: 'in-the-body' });

      receiver.hold();
      try {
        const slow = await admin.post('/api/channel/test', { type: 'channel/http', details: { url: `${receiver.url}/slow`, 'auth-method': 'none' } });
        assert.equal(slow.status, 400);
        assert.match(slow.body.message, /No answer from 127\.0\.0\.1:\d+ within 2 s\./);
      } finally {
        receiver.release();
      }

      const empty = await sampleCard(admin, sample, { name: 'Empty today', query: { 'source-table': sample.table('PRODUCTS'), filter: ['=', ['field', sample.field('PRODUCTS', 'CATEGORY'), null], 'Nope'] } });
      const dashboard = await dashboardWith(admin, sample, [empty]);
      const pulse = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }], { schedule_type: 'hourly' })], { skip_if_empty: true }))).body;
      const m0 = sink.messages.length;
      await fireNow(pulse.id);
      assert.equal(messagesTo(ADMIN.email, m0).length, 0, 'nothing to show: nothing sent');
      const run = (await admin.get('/api/task', { query: { task: 'send-pulse' } })).body.data.find((t: any) => t.task_details['pulse-id'] === pulse.id);
      assert.equal(run.status, 'success');
      assert.match(run.task_details.skipped, /skip_if_empty/);
      await stop(pulse.id);
    });

    test('sends run with the creator\'s permissions: a question they can no longer read sends no data', async () => {
      const owner = await createUserClient(server, admin);
      const secret = await createCollection(admin);
      const card = await sampleCard(admin, sample, { name: 'Secret numbers', query: byCategory(sample), collection_id: secret.id });
      const dashboard = await dashboardWith(admin, sample, [card]);
      const pulse = (await owner.client.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: owner.user.id }], { schedule_type: 'hourly' })]))).body;
      assert.ok(pulse.id, JSON.stringify(pulse));
      await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
      const m0 = sink.messages.length;
      await fireNow(pulse.id);
      const mail = await waitForSend(owner.user.email, m0);
      assert.match(mail.html!, /There was a problem with this question\./);
      assert.ok(!/Doohickey|Gadget|Widget/.test(mail.html!), 'no values of the secret question');
      assert.equal(mail.attachments.filter((a) => a.contentType === 'image/png').length, 0);
      await admin.put(`/api/pulse/${pulse.id}`, { archived: true });
    });

    test('previews show the card as an email does; the PNG is 400 px wide; only for readers', async () => {
      const card = await sampleCard(admin, sample, { name: 'Preview me', display: 'bar', query: byCategory(sample) });
      const page = await admin.get(`/api/pulse/preview_card/${card.id}`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.match(page.text, /<html/);
      assert.match(page.text, /data:image\/png;base64,/);
      assert.match(page.text, />Preview me<\/a>/);
      const info = (await admin.get(`/api/pulse/preview_card_info/${card.id}`)).body;
      assert.deepEqual({ ...info, pulse_card_html: undefined }, { id: card.id, pulse_card_type: 'javascript_visualization', pulse_card_html: undefined, pulse_card_name: 'Preview me', pulse_card_url: `${SITE}/question/${card.id}`, row_count: 4, col_count: 2 });
      assert.match(info.pulse_card_html, /<img/);
      const png = await fetch(admin.url(`/api/pulse/preview_card_png/${card.id}`), { headers: { 'X-Metabase-Session': admin.session! } });
      assert.equal(png.headers.get('content-type'), 'image/png');
      assert.equal(pngSize(Buffer.from(await png.arrayBuffer())).width, 400);
      const dashboard = await dashboardWith(admin, sample, [card]);
      const dashPage = await admin.get(`/api/pulse/preview_dashboard/${dashboard.id}`);
      assert.match(dashPage.headers.get('content-type')!, /^text\/html/);
      assert.match(dashPage.text, new RegExp(`Backend Artifacts Preview for Dashboard ${dashboard.id}`));
      assert.match(dashPage.text, />Preview me<\/a>/);

      const secret = await createCollection(admin);
      const hidden = await sampleCard(admin, sample, { collection_id: secret.id });
      await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
      const { client } = await createUserClient(server, admin);
      for (const path of ['preview_card', 'preview_card_info', 'preview_card_png']) assert.equal((await client.get(`/api/pulse/${path}/${hidden.id}`)).status, 403, path);
    });
  });
}
