// Starts what subscriptions and alerts need on an instance: their scheduled sends (a kind of job of the cluster-wide
// scheduler) and the render workers' shutdown.

import type { AppContext } from '../context.js';
import { closeRenderer } from './render/index.js';
import { registerPulseSends } from './send/scheduled.js';

export function startNotifications(ctx: AppContext): void {
  registerPulseSends(ctx);
  ctx.onClose.push(closeRenderer);
}
