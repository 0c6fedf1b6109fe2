// How long this server took to start (app DB opened and migrated, settings read, routes registered, databases'
// services started): Metabase's `startup_time_millis`.

import type { AppContext } from '../context.js';

const startupTimes = new WeakMap<AppContext, number>();

export function noteStartupTime(ctx: AppContext, millis: number): void {
  startupTimes.set(ctx, Math.round(millis));
}

export function startupTimeMillis(ctx: AppContext): number | null {
  return startupTimes.get(ctx) ?? null;
}
