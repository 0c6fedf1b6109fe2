// Keeping the stored results within bounds: entries past `query-caching-max-ttl`, and the oldest while all of them
// exceed `query-caching-max-total-kb`. A purge follows a store (at most once a minute per instance, in the
// background) and runs every hour under a lease, so one instance of a cluster does it.

import type { AppContext } from '../context.js';
import { withLease } from '../tasks/lease.js';
import { purgeEntries } from './entries.js';

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
  const timer = setInterval(() => {
    withLease(ctx, 'result-cache-purge', 10 * MINUTE, () => purgeEntries(ctx)).catch((error) => ctx.log.warn({ err: error }, 'purging the result cache failed'));
  }, HOUR);
  timer.unref();
  ctx.onClose.push(() => clearInterval(timer));
}
