// Two Quarry processes on one PostgreSQL app DB, each running the scheduler, with schedules due: every occurrence
// is delivered exactly once between them; and when the instance sending an alert dies mid-send (its webhook held
// by a slow receiver), the other takes the send over once its lease lapses and completes it once — the email it
// had already sent is not sent again. A third, in-process instance with MB_DISABLE_SCHEDULER serves the API.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appDbEnv, setupAdmin, startServer, ADMIN } from '../helpers/server.js';
import { spawnInstance, type Instance } from '../helpers/instances.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { Client } from '../helpers/client.js';
import { installSample } from '../cards/sample.js';
import { waitFor } from '../databases/helpers.js';
import { byCategory, emailAndWebhookAlert, sampleCard, startReceiver } from './fixtures.js';

const FAST = { QUARRY_SCHEDULER_POLL_MS: '300', QUARRY_SCHEDULER_LEASE_MS: '2000', QUARRY_SCHEDULER_RETRY_MS: '200', QUARRY_WEBHOOK_TIMEOUT_MS: '30000' };

test('two instances on one PostgreSQL app DB: each occurrence once; a send whose instance dies is completed once by the other', async () => {
  const appDb = await appDbEnv('postgres');
  const api = await startServer('postgres', { MB_DISABLE_SCHEDULER: 'true' }, appDb.env);
  const sink = await startSmtpSink();
  const receiver = await startReceiver();
  const instances: Instance[] = [];
  try {
    const admin = await setupAdmin(api);
    const adminId = (await admin.get('/api/user/current')).body.id;
    const sample = await installSample(admin);
    assert.equal((await admin.put('/api/email', sink.settings())).status, 200);
    assert.equal((await admin.put('/api/setting', { 'http-channel-host-strategy': 'allow-all', 'site-url': 'http://quarry.test' })).status, 204);
    const hook = (await admin.post('/api/channel', { name: 'Cluster hook', type: 'channel/http', details: { url: `${receiver.url}/hook`, 'auth-method': 'none' } })).body;
    const card = await sampleCard(admin, sample, { name: 'Cluster counts', query: byCategory(sample) });
    instances.push(await spawnInstance({ ...appDb.env, ...FAST }), await spawnInstance({ ...appDb.env, ...FAST }));
    const ownerOf = async (instance: Instance) => {
      const line = (await new Client(instance.url, admin.session).get('/api/task/info')).body.scheduler[0] as string;
      return /instanceId '([^']+)'/.exec(line)![1];
    };
    const owners = await Promise.all(instances.map(ownerOf));

    // 1. Three alerts firing every two seconds on their own cron, for a while: each occurrence arrives once.
    const webhookOnly = { channel_type: 'channel/http', channel_id: hook.id, recipients: [] };
    const everyMinute = [{ type: 'notification-subscription/cron', cron_schedule: '0 * * * * ? *' }];
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await admin.post('/api/notification', { payload_type: 'notification/card', payload: { card_id: card.id, send_condition: 'has_result', send_once: false }, handlers: [webhookOnly], subscriptions: everyMinute });
      assert.equal(created.status, 200, created.text);
      ids.push(created.body.id);
    }
    // the API refuses crons of less than a minute; the scheduler runs one stored behind its back, for a quick test
    await api.ctx.db.updateTable('pulse_channel').set({ cron_schedule: '0/2 * * * * ? *' }).where('pulse_id', 'in', ids).execute();
    await waitFor('two sends of each alert', async () => {
      const rows = await api.ctx.db.selectFrom('scheduled_occurrence').select(['job_key', 'status']).where('job_kind', '=', 'send-pulse').where('status', '=', 'success').execute();
      if (!ids.every((id) => rows.filter((r) => r.job_key.startsWith(`${id}.`)).length >= 2)) return false;
      const runners = (await admin.get('/api/task', { query: { task: 'send-pulse' } })).body.data.map((t: any) => t.task_details.instance);
      return owners.every((o) => runners.includes(o));
    }, 60_000);
    for (const id of ids) assert.equal((await admin.put(`/api/alert/${id}`, { archived: true })).status, 200);
    // sends already under way finish (however slow the machine)
    const claimed = await waitFor('the sends under way', async () => {
      const rows = await api.ctx.db.selectFrom('scheduled_occurrence').select(['job_key', 'occurrence', 'status', 'attempt']).where('job_kind', '=', 'send-pulse').execute();
      return rows.every((r) => r.status === 'success' || r.status === 'failed') && rows;
    }, 60_000);
    let total = 0;
    for (const id of ids) {
      const arrivals = receiver.requests.filter((r) => r.json?.alert_id === id).length;
      const occurrences = claimed.filter((c) => c.job_key.startsWith(`${id}.`));
      assert.ok(occurrences.every((o) => o.status === 'success' && Number(o.attempt) === 1));
      assert.ok(occurrences.length >= 2, `alert ${id} fired ${occurrences.length} times`);
      assert.equal(arrivals, occurrences.length, `alert ${id}: one webhook per occurrence (${arrivals} for ${occurrences.length})`);
      assert.equal(new Set(occurrences.map((o) => o.occurrence)).size, occurrences.length);
      total += arrivals;
    }
    const runners = (await admin.get('/api/task', { query: { task: 'send-pulse' } })).body.data.map((t: any) => t.task_details.instance);
    assert.deepEqual([...new Set(runners)].sort(), [...owners].sort(), `both instances sent (${total} sends)`);

    // 2. An alert by email and webhook; the receiver holds the webhook; the instance sending it is killed.
    receiver.hold();
    const before = receiver.requests.length;
    const alert = (await admin.post('/api/alert', emailAndWebhookAlert(card.id, [{ id: adminId }], hook.id))).body;
    const sends = () => sink.messages.filter((m) => m.subject === 'Alert: Cluster counts has results');
    await api.ctx.db.updateTable('pulse_channel').set({ updated_at: new Date(Date.now() - 3 * 3600_000).toISOString() }).where('pulse_id', '=', alert.id).execute();
    await receiver.waitFor(before + 1, 30_000); // the email went out, the webhook is held
    assert.equal(sends().length, 1);
    const running = await api.ctx.db.selectFrom('scheduled_occurrence').selectAll().where('job_key', 'like', `${alert.id}.%`).executeTakeFirstOrThrow();
    assert.equal(running.status, 'running');
    const dying = instances[owners.indexOf(running.owner!)];
    await dying.kill();
    // the survivor takes the run over once the lease lapses, and posts the webhook again (held too)
    await receiver.waitFor(before + 2, 30_000);
    receiver.release();
    const done = await waitFor('the takeover to finish', async () => {
      const row = await api.ctx.db.selectFrom('scheduled_occurrence').selectAll().where('id', '=', running.id).executeTakeFirstOrThrow();
      return row.status === 'success' ? row : null;
    }, 30_000);
    assert.equal(Number(done.attempt), 2);
    assert.equal(sends().length, 1, 'the email is not sent again');
    assert.deepEqual(sends()[0].recipients, [ADMIN.email]);
    const posts = receiver.requests.slice(before).filter((r) => r.json?.alert_id === alert.id);
    assert.equal(posts.length, 2, 'one post died with its instance, the other completed');
    const history = (await admin.get('/api/task', { query: { task: 'send-pulse' } })).body.data.filter((t: any) => t.task_details['pulse-id'] === alert.id);
    const survivor = owners.find((o) => o !== running.owner);
    assert.ok(history.some((t: any) => t.status === 'success' && t.task_details.attempt === 2 && t.task_details.instance === survivor));
    const channelSends = (await admin.get('/api/task', { query: { task: 'channel-send' } })).body.data.filter((t: any) => t.task_details['pulse-id'] === alert.id && t.status === 'success');
    assert.deepEqual(channelSends.map((t: any) => t.task_details.channel_type).sort(), ['email', 'http']);
  } finally {
    receiver.release();
    for (const instance of instances) await instance.stop();
    await api.close();
    await sink.close();
    await receiver.close();
    await appDb.cleanup();
  }
});
