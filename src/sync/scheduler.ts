// Background syncs on each database's own schedules (Quartz cron strings, read in UTC), as two kinds of jobs of the
// cluster-wide scheduler (src/tasks/scheduler.ts): `sync-and-analyze` (metadata sync, with analysis when the database
// is a "full sync" one) and `update-field-values` (the field-values scan, full-sync databases only). The scheduler
// runs each occurrence on one instance; the sync lease keeps it apart from manual syncs. The syncs write their own
// task history (sync-database.ts).

import type { AppContext } from '../context.js';
import { bool } from '../appdb/portable.js';
import { registerScheduledJobs, rescheduleJobs, type ScheduledJob } from '../tasks/scheduler.js';
import { runSync } from './runner.js';

/** Re-reads the schedules now (after this instance added, changed or removed a database). */
export async function reloadSchedules(ctx: AppContext): Promise<void> {
  await rescheduleJobs(ctx);
}

async function databaseSchedules(ctx: AppContext, which: 'metadata' | 'values'): Promise<ScheduledJob[]> {
  const rows = await ctx.db
    .selectFrom('metabase_database')
    .select(['id', 'name', 'metadata_sync_schedule', 'cache_field_values_schedule', 'is_full_sync', 'created_at'])
    .execute();
  return rows
    .filter((row) => which === 'metadata' || bool(row.is_full_sync))
    .map((row) => ({
      key: String(row.id),
      cron: which === 'metadata' ? row.metadata_sync_schedule : row.cache_field_values_schedule,
      timezone: 'UTC',
      // never an occurrence from before the database was added
      since: row.created_at,
      description: `${which === 'metadata' ? 'sync-and-analyze' : 'update-field-values'} Database ${row.id}`,
      data: { 'db-id': row.id },
    }));
}

export function startSyncScheduler(ctx: AppContext): void {
  registerScheduledJobs(ctx, {
    kind: 'sync-and-analyze',
    description: 'Sync and analyze a database on its metadata schedule.',
    history: false,
    dbIdOf: (key) => Number(key),
    list: (c) => databaseSchedules(c, 'metadata'),
    run: async (c, job) => void (await runSync(c, Number(job.key), 'metadata')),
  });
  registerScheduledJobs(ctx, {
    kind: 'update-field-values',
    description: 'Scan the field values of a database on its schedule.',
    history: false,
    dbIdOf: (key) => Number(key),
    list: (c) => databaseSchedules(c, 'values'),
    run: async (c, job) => void (await runSync(c, Number(job.key), 'values')),
  });
}
