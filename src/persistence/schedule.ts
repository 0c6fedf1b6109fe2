// Model persistence on the cluster scheduler (src/tasks/scheduler.ts: each occurrence runs once in a cluster):
//   - `persist-refresh`: one job per database with persistence on, on `persisted-model-refresh-cron-schedule` in the
//     report time zone, first firing after the switch was turned on — rows for new models, then every refreshable model (checkpointed, so a takeover after a crash
//     does only the rest); task details `{success, error, trigger: "Scheduled", error-details}`; admins are mailed
//     the failures (Metabase's "Model cache refresh failed for <database>");
//   - `persist-prune`: hourly, tables nobody may read any more are dropped (./prune.ts, history `unpersist-tables`).

import type { AppContext } from '../context.js';
import { registerScheduledJobs } from '../tasks/scheduler.js';
import { persistingDatabaseIds } from '../databases/persist-flag.js';
import { refreshDatabase, type RefreshTally } from './refresh.js';
import { pruneTables } from './prune.js';
import { loadDatabaseRow } from './warehouse.js';

async function refreshSchedule(ctx: AppContext): Promise<{ cron: string; timezone: string }> {
  const cron = (await ctx.settings.getString('persisted-model-refresh-cron-schedule')) ?? '0 0 0/6 * * ? *';
  const zone = await ctx.settings.getString('report-timezone');
  return { cron, timezone: zone && zone.trim() ? zone : 'UTC' };
}

/** Tells the admins which models failed to refresh (nothing when none did). */
async function mailFailures(ctx: AppContext, databaseId: number, tally: RefreshTally): Promise<void> {
  if (!tally.error) return;
  const [database, admins, siteName, failed] = await Promise.all([
    loadDatabaseRow(ctx, databaseId),
    ctx.db.selectFrom('core_user').select('email').where('is_superuser', '=', true).where('is_active', '=', true).execute(),
    ctx.settings.getString('site-name'),
    ctx.db
      .selectFrom('persisted_info')
      .leftJoin('report_card', 'report_card.id', 'persisted_info.card_id')
      .select(['persisted_info.id', 'persisted_info.card_id', 'persisted_info.error', 'persisted_info.refresh_begin', 'report_card.name'])
      .where('persisted_info.id', 'in', tally['error-details'].map((d) => d['persisted-info-id']))
      .execute(),
  ]);
  const siteUrl = (await ctx.settings.getString('site-url')) ?? '';
  const lines = failed.map((f) => `- ${f.name ?? `Model ${f.card_id}`} (${siteUrl}/model/${f.card_id}): ${f.error ?? 'unknown error'}\n  last run ${f.refresh_begin}, trigger Scheduled`);
  const subject = `[${siteName ?? 'Metabase'}] Model cache refresh failed for ${database?.name ?? `database ${databaseId}`}`;
  const text = `There was an issue with model caching for ${database?.name ?? `database ${databaseId}`}:\n\n${lines.join('\n')}\n`;
  for (const admin of admins) await ctx.mailer.send({ to: admin.email, subject, text }).catch((error) => ctx.log.warn({ err: error }, 'mailing a model refresh failure failed'));
}

export function startModelPersistence(ctx: AppContext): void {
  registerScheduledJobs(ctx, {
    kind: 'persist-refresh',
    description: 'Refreshes the persisted models of a database.',
    list: async (c) => {
      if (!(await c.settings.getBoolean('persisted-models-enabled'))) return [];
      const { cron, timezone } = await refreshSchedule(c);
      const ids = await persistingDatabaseIds(c.db);
      if (!ids.length) return [];
      // from the database's last change (its switch turned on): the first refresh is at the next fire, as Metabase
      const rows = await c.db.selectFrom('metabase_database').select(['id', 'updated_at']).where('id', 'in', ids).execute();
      return rows.map((row) => ({ key: String(row.id), cron, timezone, since: row.updated_at, data: { 'db-id': row.id } }));
    },
    run: async (c, job) => {
      const databaseId = Number(job.key);
      const done = new Set<number>(Array.isArray(job.progress.done) ? (job.progress.done as number[]) : []);
      const tally = await refreshDatabase(c, databaseId, done, async (id) => {
        done.add(id);
        await job.checkpoint({ done: [...done] });
      });
      Object.assign(job.details, tally, { trigger: 'Scheduled' });
      await mailFailures(c, databaseId, tally);
    },
    dbIdOf: (key) => Number(key),
  });
  registerScheduledJobs(ctx, {
    kind: 'persist-prune',
    description: 'Drops the tables of persisted models that were turned off.',
    history: 'unpersist-tables',
    list: async () => [{ key: 'hourly', cron: '0 0 * * * ? *', timezone: 'UTC', since: null }],
    run: async (c, job) => {
      Object.assign(job.details, await pruneTables(c));
    },
  });
}
