// Background syncs on each database's own schedules (Quartz cron strings): metadata sync (with analysis when the
// database is a "full sync" one) and the field-values scan. Every instance schedules every database; the sync
// lease makes sure only one of them runs each occurrence. Schedules are re-read every minute, so databases added
// or changed on another instance are picked up.

import { Cron } from 'croner';
import type { AppContext } from '../context.js';
import { bool } from '../appdb/portable.js';
import { triggerSync } from './runner.js';

const RELOAD_MS = 60_000;
const reloaders = new WeakMap<AppContext, () => Promise<void>>();

/** Re-reads the schedules now (after this instance added, changed or removed a database). */
export async function reloadSchedules(ctx: AppContext): Promise<void> {
  await reloaders.get(ctx)?.();
}

interface Scheduled {
  metadata: string;
  values: string;
  full: boolean;
  jobs: Cron[];
}

function cronFor(pattern: string, run: () => void): Cron | null {
  try {
    return new Cron(pattern, { timezone: 'UTC', alternativeWeekdays: true, protect: true, paused: false }, run);
  } catch {
    return null;
  }
}

export function startSyncScheduler(ctx: AppContext): void {
  const scheduled = new Map<number, Scheduled>();
  let stopped = false;

  async function reload(): Promise<void> {
    const rows = await ctx.db.selectFrom('metabase_database').select(['id', 'metadata_sync_schedule', 'cache_field_values_schedule', 'is_full_sync']).execute();
    if (stopped) return;
    const seen = new Set<number>();
    for (const row of rows) {
      seen.add(row.id);
      const current = scheduled.get(row.id);
      const full = bool(row.is_full_sync);
      if (current && current.metadata === row.metadata_sync_schedule && current.values === row.cache_field_values_schedule && current.full === full) continue;
      current?.jobs.forEach((j) => j.stop());
      const id = row.id;
      const jobs = [
        cronFor(row.metadata_sync_schedule, () => triggerSync(ctx, id, 'metadata')),
        full ? cronFor(row.cache_field_values_schedule, () => triggerSync(ctx, id, 'values')) : null,
      ].filter((j): j is Cron => j !== null);
      scheduled.set(id, { metadata: row.metadata_sync_schedule, values: row.cache_field_values_schedule, full, jobs });
    }
    for (const [id, entry] of scheduled) {
      if (seen.has(id)) continue;
      entry.jobs.forEach((j) => j.stop());
      scheduled.delete(id);
    }
  }

  const tick = () => reload().catch((error) => ctx.log.warn({ err: error }, 'reloading sync schedules failed'));
  reloaders.set(ctx, tick);
  void tick();
  const timer = setInterval(tick, RELOAD_MS);
  timer.unref();
  ctx.onClose.push(() => {
    stopped = true;
    reloaders.delete(ctx);
    clearInterval(timer);
    for (const entry of scheduled.values()) entry.jobs.forEach((j) => j.stop());
    scheduled.clear();
  });
}
