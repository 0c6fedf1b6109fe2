// The cluster-wide scheduler on real app DBs: occurrences claimed once (also by two instances on one app DB), the
// latest missed occurrence run once at start, `since`, retries with backoff, permanent failures, takeover of a run
// whose instance died (with its checkpointed progress), and the task history every run leaves.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appDbEnv, appDbKinds, setupAdmin, startServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../databases/helpers.js';
import { registerScheduledJobs, rescheduleJobs, retryDelay, schedulerOf, TransientError, type JobRun } from '../../src/tasks/scheduler.js';
import { latestFireTime } from '../../src/tasks/cron.js';
import type { Client } from '../helpers/client.js';
import { FAST_SCHEDULER } from '../helpers/fast-scheduler.js';


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let kindCounter = 0;
const uniqueKind = (label: string) => `test-${label}-${++kindCounter}`;

async function occurrenceRows(t: TestServer, kind: string) {
  return t.ctx.db.selectFrom('scheduled_occurrence').selectAll().where('job_kind', '=', kind).orderBy('occurrence').execute();
}

test('retries back off exponentially, with a little jitter, up to half an hour', () => {
  assert.deepEqual([1, 2, 3, 4].map((attempt) => retryDelay(30_000, attempt, 0.5)), [30_000, 60_000, 120_000, 240_000]);
  assert.equal(retryDelay(30_000, 1, 0), 27_000);
  assert.equal(retryDelay(30_000, 1, 0.999_999), 33_000);
  assert.equal(retryDelay(30_000, 20, 0.5), 30 * 60_000);
});

for (const kind of appDbKinds()) {
  describe(`scheduler [${kind}]`, () => {
    let server: TestServer;
    let admin: Client;
    before(async () => {
      server = await startServer(kind, FAST_SCHEDULER);
      admin = await setupAdmin(server);
    });
    after(async () => {
      await server?.close();
    });

    test('an every-second job runs each occurrence once and leaves task history', async () => {
      const name = uniqueKind('tick');
      const runs: JobRun[] = [];
      registerScheduledJobs(server.ctx, {
        kind: name,
        list: async () => [{ key: 'k', cron: '* * * * * ? *', timezone: 'UTC', since: null }],
        run: async (_ctx, job) => {
          runs.push(job);
          job.details.note = 'ran';
        },
      });
      await waitFor('three runs', async () => runs.length >= 3, 15_000);
      const stamps = runs.map((r) => r.occurrence.toISOString());
      assert.equal(new Set(stamps).size, stamps.length, 'no occurrence ran twice');
      assert.ok(runs.every((r) => r.attempt === 1 && r.occurrence.getMilliseconds() === 0));
      const rows = await occurrenceRows(server, name);
      assert.ok(rows.length >= 3);
      const history = await admin.get('/api/task', { query: { task: name, limit: 2, offset: 0 } });
      assert.equal(history.status, 200);
      assert.equal(history.body.limit, 2);
      assert.equal(history.body.offset, 0);
      assert.ok(history.body.total >= 3);
      assert.equal(history.body.data.length, 2);
      const item = history.body.data[0];
      assert.equal(item.task, name);
      assert.ok(['success', 'started'].includes(item.status));
      const done = history.body.data.find((d: any) => d.status === 'success') ?? (await admin.get('/api/task', { query: { task: name, status: 'success' } })).body.data[0];
      assert.equal(done.task_details.note, 'ran');
      assert.equal(done.task_details.attempt, 1);
      assert.equal(typeof done.duration, 'number');
      assert.ok(done.ended_at >= done.started_at);
      const one = await admin.get(`/api/task/${done.id}`);
      assert.deepEqual(one.body, done);
      schedulerOf(server.ctx).kinds.delete(name);
    });

    test('the latest missed occurrence runs once on start, older ones never; nothing fires before `since`', async () => {
      const name = uniqueKind('missed');
      const runs: Date[] = [];
      const now = new Date();
      // daily at the current UTC hour minus one: a fire time passed an hour ago, and one a day earlier, and so on
      const hour = (now.getUTCHours() + 23) % 24;
      const cron = `0 0 ${hour} * * ? *`;
      registerScheduledJobs(server.ctx, {
        kind: name,
        list: async () => [
          { key: 'old', cron, timezone: 'UTC', since: new Date(Date.now() - 5 * 86_400_000) },
          { key: 'new', cron, timezone: 'UTC', since: new Date() },
        ],
        run: async (_ctx, job) => void runs.push(job.occurrence),
      });
      await rescheduleJobs(server.ctx);
      await schedulerOf(server.ctx).idle();
      await rescheduleJobs(server.ctx);
      await schedulerOf(server.ctx).idle();
      assert.deepEqual(runs.map((d) => d.toISOString()), [latestFireTime(cron, 'UTC', now)!.toISOString()]);
      const rows = await occurrenceRows(server, name);
      assert.deepEqual(rows.map((r) => [r.job_key, r.status]), [['old', 'success']]);
      schedulerOf(server.ctx).kinds.delete(name);
    });

    test('a job in a time zone fires at its local time', async () => {
      const name = uniqueKind('zone');
      const runs: Date[] = [];
      registerScheduledJobs(server.ctx, {
        kind: name,
        list: async () => [{ key: 'tokyo', cron: '0 0 9 * * ? *', timezone: 'Asia/Tokyo', since: null }],
        run: async (_ctx, job) => void runs.push(job.occurrence),
      });
      await rescheduleJobs(server.ctx);
      await schedulerOf(server.ctx).idle();
      assert.equal(runs.length, 1);
      assert.equal(runs[0].getUTCHours(), 0, '09:00 in Tokyo is 00:00 UTC');
      schedulerOf(server.ctx).kinds.delete(name);
    });

    test('transient failures retry with backoff until they succeed; permanent ones fail at once', async () => {
      const name = uniqueKind('flaky');
      const attempts: Array<{ key: string; attempt: number; progress: Record<string, unknown> }> = [];
      registerScheduledJobs(server.ctx, {
        kind: name,
        list: async () => [
          { key: 'flaky', cron: '0 0 0 * * ? *', timezone: 'UTC', since: null },
          { key: 'broken', cron: '0 0 0 * * ? *', timezone: 'UTC', since: null },
          { key: 'hopeless', cron: '0 0 0 * * ? *', timezone: 'UTC', since: null },
        ],
        run: async (_ctx, job) => {
          attempts.push({ key: job.key, attempt: job.attempt, progress: job.progress });
          if (job.key === 'broken') throw new Error('no such channel');
          if (job.key === 'hopeless') throw new TransientError('SMTP 451: try again later');
          if (job.attempt === 1) {
            await job.checkpoint({ delivered: ['email'] });
            throw new TransientError('webhook answered 503');
          }
        },
      });
      await rescheduleJobs(server.ctx);
      await waitFor('the retries', async () => {
        const rows = await occurrenceRows(server, name);
        return rows.length === 3 && rows.every((r) => r.status === 'success' || r.status === 'failed');
      }, 15_000);
      const rows = Object.fromEntries((await occurrenceRows(server, name)).map((r) => [r.job_key, r]));
      assert.equal(rows.flaky.status, 'success');
      assert.equal(Number(rows.flaky.attempt), 2);
      assert.equal(rows.broken.status, 'failed');
      assert.equal(rows.broken.last_error, 'no such channel');
      assert.equal(Number(rows.broken.attempt), 1, 'a permanent failure is not retried');
      assert.equal(rows.hopeless.status, 'failed');
      assert.equal(Number(rows.hopeless.attempt), 3, 'QUARRY_SCHEDULER_MAX_ATTEMPTS attempts in all');
      const flaky = attempts.filter((a) => a.key === 'flaky');
      assert.deepEqual(flaky.map((a) => a.attempt), [1, 2]);
      assert.deepEqual(flaky[1].progress, { delivered: ['email'] }, 'the retry sees what the first attempt delivered');
      const hopeless = attempts.filter((a) => a.key === 'hopeless');
      assert.deepEqual(hopeless.map((a) => a.attempt), [1, 2, 3]);
      const history = (await admin.get('/api/task', { query: { task: name } })).body.data;
      assert.equal(history.length, 6);
      const failed = history.filter((h: any) => h.status === 'failed');
      assert.equal(failed.length, 5);
      assert.ok(failed.some((h: any) => h.task_details.message === 'webhook answered 503' && h.task_details.retry_at));
      schedulerOf(server.ctx).kinds.delete(name);
    });

    test('a run whose instance died is taken over once its lease lapses, with its progress; one that keeps dying is given up', async () => {
      const name = uniqueKind('orphan');
      const now = new Date().toISOString();
      const occurrence = latestFireTime('0 0 0 * * ? *', 'UTC', new Date())!.toISOString();
      const dead = { job_kind: name, status: 'running', owner: 'a-dead-instance', lease_expires_at: Date.now() + 3000, next_attempt_at: null, last_error: null, created_at: now, updated_at: now, occurrence };
      await server.ctx.db.insertInto('scheduled_occurrence').values([
        { ...dead, job_key: 'orphan', attempt: 1, progress: JSON.stringify({ delivered: ['email'] }) },
        { ...dead, job_key: 'cursed', attempt: 3, progress: null },
      ]).execute();
      const runs: JobRun[] = [];
      registerScheduledJobs(server.ctx, {
        kind: name,
        list: async () => [
          { key: 'orphan', cron: '0 0 0 * * ? *', timezone: 'UTC', since: null },
          { key: 'cursed', cron: '0 0 0 * * ? *', timezone: 'UTC', since: null },
        ],
        run: async (_ctx, job) => void runs.push(job),
      });
      await rescheduleJobs(server.ctx);
      await schedulerOf(server.ctx).idle();
      assert.equal(runs.length, 0, 'not while the lease holds');
      // both rows settled: the orphan taken over and finished, the cursed one given up
      await waitFor('the takeover', async () => {
        const rows = await occurrenceRows(server, name);
        return rows.every((r) => r.status === 'success' || r.status === 'failed');
      }, 20_000);
      await schedulerOf(server.ctx).idle();
      assert.equal(runs.length, 1);
      assert.equal(runs[0].key, 'orphan');
      assert.equal(runs[0].attempt, 2);
      assert.deepEqual(runs[0].progress, { delivered: ['email'] });
      const rows = Object.fromEntries((await occurrenceRows(server, name)).map((r) => [r.job_key, r]));
      assert.equal(rows.orphan.status, 'success');
      assert.equal(rows.cursed.status, 'failed');
      assert.match(rows.cursed.last_error!, /stopped 3 times/);
      schedulerOf(server.ctx).kinds.delete(name);
    });

    test('GET /api/task/info lists the jobs and their triggers; the task endpoints are for admins only', async () => {
      const info = await admin.get('/api/task/info');
      assert.equal(info.status, 200);
      assert.ok(Array.isArray(info.body.scheduler) && info.body.scheduler[0].includes('instanceId'));
      const cleanup = info.body.jobs.find((j: any) => j.key === 'metabase.task.session-cleanup.job');
      assert.ok(cleanup);
      const [trigger] = cleanup.triggers;
      assert.equal(trigger.key, 'metabase.task.session-cleanup.trigger.hourly');
      assert.equal(trigger.schedule, '0 0 * * * ? *');
      assert.equal(trigger.timezone, 'UTC');
      assert.equal(trigger['may-fire-again?'], true);
      assert.ok(Date.parse(trigger['next-fire-time']) > Date.now());
      assert.equal(trigger['previous-fire-time'], latestFireTime('0 0 * * * ? *', 'UTC', new Date())!.toISOString(), 'it ran once at start');
      assert.ok((await admin.get('/api/task/unique-tasks')).body.includes('session-cleanup'));

      const { createUserClient } = await import('../helpers/server.js');
      const { client } = await createUserClient(server, admin);
      for (const path of ['/api/task', '/api/task/info', '/api/task/unique-tasks', '/api/task/1']) {
        assert.equal((await client.get(path)).status, 403, path);
        assert.equal((await server.anon.get(path)).status, 401, path);
      }
      assert.equal((await admin.get('/api/task/999999')).status, 404);
      assert.equal((await admin.get('/api/task', { query: { status: 'exploded' } })).status, 400);
      const ascending = (await admin.get('/api/task', { query: { sort_column: 'started_at', sort_direction: 'asc' } })).body;
      assert.deepEqual(ascending.data.map((d: any) => d.started_at), [...ascending.data.map((d: any) => d.started_at)].sort());
      assert.equal(ascending.limit, null);
    });
  });
}

test('two instances on one app DB run every occurrence of a job exactly once between them', async () => {
  const kinds = appDbKinds().filter((k) => k !== 'sqlite');
  for (const kind of kinds.length ? kinds : ['postgres' as const]) {
    const appDb = await appDbEnv(kind);
    const [a, b] = await Promise.all([startServer(kind, FAST_SCHEDULER, appDb.env), startServer(kind, FAST_SCHEDULER, appDb.env)]);
    try {
      const runs: Array<{ instance: string; key: string; occurrence: string }> = [];
      for (const [instance, t] of [['a', a], ['b', b]] as const) {
        registerScheduledJobs(t.ctx, {
          kind: 'test-shared',
          // more jobs than one instance runs at a time (3), each taking a while: both instances get work
          list: async () => ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((key) => ({ key, cron: '* * * * * ? *', timezone: 'UTC', since: null })),
          run: async (_ctx, job) => {
            runs.push({ instance, key: job.key, occurrence: job.occurrence.toISOString() });
            await sleep(300);
          },
        });
      }
      await waitFor('work on both instances', async () => runs.length >= 6 && new Set(runs.map((r) => r.instance)).size === 2, 30_000);
      await Promise.all([a.server.close(), b.server.close()]);
      const seen = runs.map((r) => `${r.key}@${r.occurrence}`);
      assert.ok(runs.length >= 6, `ran ${runs.length} times`);
      assert.equal(new Set(seen).size, seen.length, 'no occurrence ran on both instances');
      assert.ok(new Set(runs.map((r) => r.instance)).size === 2, 'both instances took work');
    } finally {
      await appDb.cleanup();
    }
  }
});
