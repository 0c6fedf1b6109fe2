// GET /api/task/info: the scheduler's jobs and triggers in Metabase's shape (Quartz's vocabulary): one job per kind
// (`metabase.task.<kind>.job`), one trigger per scheduled job (`metabase.task.<kind>.trigger.<key>`), with the last
// fire time claimed in the app DB by any instance and the next one.

import type { AppContext } from '../context.js';
import { latestOccurrences } from './claims.js';
import { latestFireTime, nextFireTime } from './cron.js';
import { schedulerOf } from './scheduler.js';

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export async function taskInfo(ctx: AppContext) {
  const scheduler = schedulerOf(ctx);
  const now = new Date();
  const runningHere = new Set(scheduler.runningKeys().map((r) => `${r.kind}\u0000${r.key}`));
  const jobs = [];
  for (const kind of scheduler.kinds.values()) {
    const listed = await kind.list(ctx).catch(() => []);
    const last = await latestOccurrences(ctx, kind.kind);
    jobs.push({
      key: `metabase.task.${kind.kind}.job`,
      class: `quarry.tasks.${kind.kind}`,
      description: kind.description ?? kind.kind,
      'concurrent-execution-disallowed?': true,
      'durable?': true,
      'requests-recovery?': true,
      triggers: listed.map((job) => {
        const next = nextFireTime(job.cron, job.timezone, now);
        const previous = last.get(job.key);
        const blocked = runningHere.has(`${kind.kind}\u0000${job.key}`) || previous?.status === 'running';
        return {
          key: `metabase.task.${kind.kind}.trigger.${job.key}`,
          description: job.description ?? null,
          schedule: job.cron,
          timezone: job.timezone,
          data: job.data ?? { key: job.key },
          state: latestFireTime(job.cron, job.timezone, now) || next ? (blocked ? 'BLOCKED' : 'NORMAL') : 'COMPLETE',
          priority: 5,
          'start-time': job.since === null ? null : job.since instanceof Date ? job.since.toISOString() : job.since,
          'end-time': null,
          'final-fire-time': null,
          'may-fire-again?': next !== null,
          'misfire-instruction': 'FIRE_ONCE_NOW',
          'previous-fire-time': previous?.occurrence ?? null,
          'next-fire-time': iso(next),
        };
      }),
    });
  }
  const o = scheduler.options;
  return {
    scheduler: [
      `Quarry scheduler with instanceId '${scheduler.owner}'`,
      `  Running since: ${scheduler.startedAt.toISOString()}`,
      `  ${scheduler.isRunning ? 'Started' : o.enabled ? 'Not started' : 'Disabled (MB_DISABLE_SCHEDULER)'}; occurrences are claimed in the application database (clustered).`,
      `  Polls every ${o.pollMs} ms; leases of ${o.leaseMs} ms; ${o.concurrency} runs at a time; up to ${o.maxAttempts} attempts, backoff from ${o.retryBaseMs} ms.`,
    ],
    jobs,
  };
}
