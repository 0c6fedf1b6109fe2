// Dropping tables nobody may read any more (Metabase's PersistencePrune): rows made `deletable` (their database or
// the site turned persistence off) or `off` (the model opted out) for more than an hour — queries that started
// reading them meanwhile may finish — and rows of cards that were deleted, archived or are no longer models. The
// rows go too, except `off` ones (the model's choice stays; its row is kept without a table). Hourly on the
// scheduler (`persist-prune`, task history `unpersist-tables`).

import type { AppContext } from '../context.js';
import { bool } from '../appdb/portable.js';
import { recordTask } from '../tasks/history.js';
import { loadDatabaseRow, warehouseDdl, enginePersists } from './warehouse.js';
import { PRUNABLE } from './store.js';

/** Time a table stays after it was given up, for queries already reading it. */
export const GRACE_MS = 60 * 60_000;

export interface PruneTally {
  success: number;
  error: number;
  skipped: number;
}

export async function pruneTables(ctx: AppContext, now = new Date()): Promise<PruneTally> {
  const cutoff = new Date(now.getTime() - GRACE_MS).toISOString();
  const rows = await ctx.db
    .selectFrom('persisted_info')
    .leftJoin('report_card', 'report_card.id', 'persisted_info.card_id')
    .select(['persisted_info.id', 'persisted_info.database_id', 'persisted_info.table_name', 'persisted_info.state', 'persisted_info.state_change_at', 'report_card.id as card', 'report_card.archived', 'report_card.type'])
    .execute();
  const doomed = rows.filter((r) => {
    const given = (PRUNABLE as string[]).includes(r.state) && r.state_change_at !== null && r.state_change_at < cutoff;
    const gone = r.card === null || bool(r.archived) || r.type !== 'model';
    return given || gone;
  });
  const tally: PruneTally = { success: 0, error: 0, skipped: 0 };
  for (const row of doomed) {
    const database = await loadDatabaseRow(ctx, row.database_id);
    try {
      if (database && enginePersists(database.engine)) {
        const ddl = await warehouseDdl(ctx, database);
        await ddl.dropTable(row.table_name);
        await ddl.dropTable(`${row.table_name}__new`);
      } else tally.skipped += 1;
    } catch (error) {
      tally.error += 1;
      ctx.log.warn({ err: error, persistedInfo: row.id }, 'dropping a persisted model table failed');
      continue;
    }
    const keep = row.state === 'off' && row.card !== null && !bool(row.archived) && row.type === 'model';
    // a kept row has nothing left to drop: no state change time, so the next prune passes it by
    if (keep) await ctx.db.updateTable('persisted_info').set({ state_change_at: null, active: false }).where('id', '=', row.id).execute();
    else await ctx.db.deleteFrom('persisted_info').where('id', '=', row.id).execute();
    if (database && enginePersists(database.engine)) tally.success += 1;
  }
  return tally;
}

/** A prune with its task history. */
export function pruneWithHistory(ctx: AppContext, now?: Date): Promise<PruneTally> {
  return recordTask(ctx, 'unpersist-tables', {}, async (task) => {
    const tally = await pruneTables(ctx, now);
    Object.assign(task.details, tally);
    return tally;
  });
}
