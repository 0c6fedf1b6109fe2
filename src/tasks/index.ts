// Starts the background work of an instance: the cluster-wide scheduler (./scheduler.ts) with the housekeeping
// jobs every install has. Other modules register their own kinds of jobs (sync, sends, cache refreshes).

import type { AppContext } from '../context.js';
import { purgeExpiredSessions } from '../users/sessions.js';
import { purgeOldAttempts } from '../users/throttle.js';
import { registerScheduledJobs, schedulerOf, startScheduler } from './scheduler.js';
import { purgeTaskHistory } from './history.js';
import { pruneOccurrences } from './claims.js';

const HOURLY = '0 0 * * * ? *';
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long task history and finished claims are kept. */
export const TASK_HISTORY_RETENTION_DAYS = 30;

export function startBackgroundTasks(ctx: AppContext): void {
  registerScheduledJobs(ctx, {
    kind: 'session-cleanup',
    description: 'Removes expired sessions and old login attempts.',
    list: async () => [{ key: 'hourly', cron: HOURLY, timezone: 'UTC', since: null }],
    run: async (c, job) => {
      await Promise.all([purgeExpiredSessions(c), purgeOldAttempts(c)]);
      job.details.done = ['sessions', 'login-attempts'];
    },
  });
  registerScheduledJobs(ctx, {
    kind: 'task-history-cleanup',
    description: `Removes task history and finished scheduler claims older than ${TASK_HISTORY_RETENTION_DAYS} days.`,
    list: async () => [{ key: 'hourly', cron: HOURLY, timezone: 'UTC', since: null }],
    run: async (c, job) => {
      const before = new Date(Date.now() - TASK_HISTORY_RETENTION_DAYS * DAY_MS);
      const live = new Map<string, Set<string>>();
      for (const kind of schedulerOf(c).kinds.values()) live.set(kind.kind, new Set((await kind.list(c)).map((j) => j.key)));
      job.details.task_history_deleted = await purgeTaskHistory(c, before);
      job.details.claims_deleted = await pruneOccurrences(c, before, live);
    },
  });
  startScheduler(ctx);
}
