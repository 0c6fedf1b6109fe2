// Background work of the result cache, on the cluster scheduler (src/tasks/scheduler.ts: each occurrence runs once
// in a cluster, with task history):
//   - `cache-refresh`: each schedule policy with `refresh_automatically` — when its cron fires, the results stored
//     under it (which just went stale) run again (./refresh.ts);
//   - `cache-expiry-refresh`, every minute: results of duration policies with `refresh_automatically` that are about
//     to run out and were viewed during their period run again (no task history: it would be a row a minute);
//   - `cache-purge`, hourly: entries past `query-caching-max-ttl`, then the oldest while all of them exceed
//     `query-caching-max-total-kb`. A purge also follows a store, at most once a minute per instance.

import type { AppContext } from '../context.js';
import { registerScheduledJobs, rescheduleJobs } from '../tasks/scheduler.js';
import { purgeEntries } from './entries.js';
import { recipesFor, refreshExpiring, runRefreshes } from './refresh.js';
import { scheduleZone } from './policy.js';
import { strategyOfRow } from './strategy.js';

const MINUTE = 60_000;
const lastPurge = new WeakMap<AppContext, number>();

/** Purges in the background unless this instance did within the last minute. */
export function purgeSoon(ctx: AppContext): void {
  const now = Date.now();
  if (now - (lastPurge.get(ctx) ?? 0) < MINUTE) return;
  lastPurge.set(ctx, now);
  purgeEntries(ctx).catch((error) => ctx.log.warn({ err: error }, 'purging the result cache failed'));
}

/** After a schedule policy was created, changed or removed on this instance: its refresh job is seen at once. */
export function schedulesChanged(ctx: AppContext): void {
  void rescheduleJobs(ctx);
}

export function startCacheMaintenance(ctx: AppContext): void {
  registerScheduledJobs(ctx, {
    kind: 'cache-refresh',
    description: 'Reruns the cached results of a schedule cache policy with refresh_automatically when it fires.',
    list: async (c) => {
      const rows = await c.db
        .selectFrom('cache_config')
        .select(['id', 'model', 'model_id', 'strategy', 'config', 'refresh_automatically', 'updated_at'])
        .where('strategy', '=', 'schedule')
        .where('refresh_automatically', '=', true)
        .execute();
      const timezone = await scheduleZone(c);
      return rows.flatMap((row) => {
        const strategy = strategyOfRow(row);
        if (strategy.type !== 'schedule') return [];
        return [{ key: String(row.id), cron: strategy.schedule, timezone, since: row.updated_at, data: { model: row.model, model_id: row.model_id } }];
      });
    },
    run: async (c, job) => {
      job.details.refreshed = await runRefreshes(c, await recipesFor(c, { configIds: [Number(job.key)] }));
    },
  });
  registerScheduledJobs(ctx, {
    kind: 'cache-expiry-refresh',
    description: 'Reruns viewed results of duration cache policies with refresh_automatically before they run out.',
    history: false,
    list: async () => [{ key: 'minutely', cron: '0 * * * * ? *', timezone: 'UTC', since: null }],
    run: async (c) => {
      await refreshExpiring(c);
    },
  });
  registerScheduledJobs(ctx, {
    kind: 'cache-purge',
    description: 'Removes cached results past query-caching-max-ttl, and the oldest beyond query-caching-max-total-kb.',
    list: async () => [{ key: 'hourly', cron: '0 0 * * * ? *', timezone: 'UTC', since: null }],
    run: async (c, job) => {
      job.details.removed = await purgeEntries(c);
    },
  });
}
