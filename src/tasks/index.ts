// Periodic housekeeping. Each job is safe to run on every instance of a cluster at once (idempotent deletes).

import type { AppContext } from '../context.js';
import { purgeExpiredSessions } from '../users/sessions.js';
import { purgeOldAttempts } from '../users/throttle.js';

const HOUR = 60 * 60 * 1000;

export function startBackgroundTasks(ctx: AppContext): void {
  const housekeeping = setInterval(() => {
    Promise.all([purgeExpiredSessions(ctx), purgeOldAttempts(ctx)]).catch((error) => ctx.log.warn({ err: error }, 'housekeeping failed'));
  }, HOUR);
  housekeeping.unref();
  ctx.onClose.push(() => clearInterval(housekeeping));
}
