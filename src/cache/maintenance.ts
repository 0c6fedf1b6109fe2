// Background work of the result cache, each under a lease so one instance of a cluster does it:
//   - purging: entries past `query-caching-max-ttl`, and the oldest while all of them exceed
//     `query-caching-max-total-kb` — after a store (at most once a minute per instance) and every hour;
//   - every minute, results of duration policies with `refresh_automatically` that are about to run out are run
//     again (./refresh.ts).

import type { AppContext } from '../context.js';
import { withLease } from '../tasks/lease.js';
import { purgeEntries } from './entries.js';
import { refreshExpiring } from './refresh.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const lastPurge = new WeakMap<AppContext, number>();

/** Purges in the background unless this instance did within the last minute. */
export function purgeSoon(ctx: AppContext): void {
  const now = Date.now();
  if (now - (lastPurge.get(ctx) ?? 0) < MINUTE) return;
  lastPurge.set(ctx, now);
  purgeEntries(ctx).catch((error) => ctx.log.warn({ err: error }, 'purging the result cache failed'));
}

export function startCacheMaintenance(ctx: AppContext): void {
  const purge = setInterval(() => {
    withLease(ctx, 'result-cache-purge', 10 * MINUTE, () => purgeEntries(ctx)).catch((error) => ctx.log.warn({ err: error }, 'purging the result cache failed'));
  }, HOUR);
  const refresh = setInterval(() => {
    withLease(ctx, 'result-cache-refresh', 10 * MINUTE, () => refreshExpiring(ctx)).catch((error) => ctx.log.warn({ err: error }, 'refreshing cached results failed'));
  }, MINUTE);
  purge.unref();
  refresh.unref();
  ctx.onClose.push(() => {
    clearInterval(purge);
    clearInterval(refresh);
  });
}
