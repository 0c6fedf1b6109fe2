// Starts what subscriptions and alerts need on an instance: their scheduled sends (a kind of job of the cluster-wide
// scheduler) and, at shutdown, the render workers' stop — after the scheduler has stopped, so no send still under
// way renders with workers that are gone.

import type { AppContext } from '../context.js';
import { schedulerOf } from '../tasks/scheduler.js';
import { closeRenderer } from './render/index.js';
import { registerPulseSends } from './send/scheduled.js';
import './user-deactivation.js';

export function startNotifications(ctx: AppContext): void {
  registerPulseSends(ctx);
  ctx.onClose.push(async () => {
    await schedulerOf(ctx).stop();
    await closeRenderer();
  });
}
