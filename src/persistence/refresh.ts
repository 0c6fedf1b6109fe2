// Building a persisted model's table (reference B8): the model's query — compiled without row limits and without
// reading any persisted table, its values bound — becomes a table in Quarry's schema of the model's database, built under a temporary
// name and swapped in atomically (./ddl.ts), so readers never see a half-written table: during a refresh they go on
// reading the previous one. States: `refreshing` while it runs, then `persisted` (active, with the query hash and
// column definition it was built from) or `error` (inactive, with the message).
//
// Runs: a database's models on its schedule (./schedule.ts, `persist-refresh` on the cluster scheduler), or one model
// at once after POST /api/card/:id/persist or /refresh (in the background, `trigger: Manual`). One refresh of a model
// at a time in a cluster (a lease per model).

import type { AppContext } from '../context.js';
import { bool, nowIso, parseJson } from '../appdb/portable.js';
import { withLease } from '../tasks/lease.js';
import { recordTask, errorMessage } from '../tasks/history.js';
import { prepareQuery, acquireDatabaseSlot } from '../query/index.js';
import { loadDatabaseRow, warehouseDdl, enginePersists, databasePersists } from './warehouse.js';
import { datasetQueryHash, definitionOf, modelsOf, readyDatabase, REFRESHABLE, rowById, type ModelCard } from './store.js';
import { modelSlug } from './naming.js';
import { cacheInfo } from './site.js';

const LEASE_MS = 10 * 60_000;

export type RefreshOutcome = { status: 'success' } | { status: 'error'; error: string } | { status: 'skipped' };

async function modelCard(ctx: AppContext, cardId: number): Promise<ModelCard | undefined> {
  return ctx.db.selectFrom('report_card').select(['id', 'name', 'type', 'archived', 'database_id', 'dataset_query', 'result_metadata']).where('id', '=', cardId).executeTakeFirst();
}

/** Refreshes one model's table now (skipped when its row isn't refreshable, or another refresh of it is running). */
export async function refreshModel(ctx: AppContext, rowId: number): Promise<RefreshOutcome> {
  const outcome = await withLease(ctx, `persist-refresh:${rowId}`, LEASE_MS, () => refreshHeld(ctx, rowId));
  return outcome.ran ? outcome.value : { status: 'skipped' };
}

async function refreshHeld(ctx: AppContext, rowId: number): Promise<RefreshOutcome> {
  const row = await rowById(ctx.db, rowId);
  if (!row || row.card_id === null || !(REFRESHABLE as string[]).includes(row.state)) return { status: 'skipped' };
  const card = await modelCard(ctx, row.card_id);
  if (!card || card.type !== 'model' || bool(card.archived)) return { status: 'skipped' };
  const database = await loadDatabaseRow(ctx, row.database_id);
  if (!database || !enginePersists(database.engine) || !databasePersists(database)) return { status: 'skipped' };
  const definition = definitionOf(card);
  await ctx.db
    .updateTable('persisted_info')
    .set({ state: 'refreshing', refresh_begin: nowIso(), refresh_end: null, state_change_at: nowIso() })
    .where('id', '=', row.id)
    .execute();
  try {
    const datasetQuery = parseJson<Record<string, unknown>>(card.dataset_query, {});
    const prepared = await prepareQuery(ctx, {
      query: { ...datasetQuery, middleware: { ...((datasetQuery.middleware as object) ?? {}), 'disable-max-results?': true } },
      caller: null,
      skipPermissionCheck: true,
      context: 'persist-refresh',
      cardId: card.id,
      constraints: null,
      usePersistedModels: false,
    });
    const ddl = await warehouseDdl(ctx, database);
    await ddl.ensureSchema(await cacheInfo(ctx));
    const queryHash = datasetQueryHash(card.dataset_query, prepared.settings.reportTimezone);
    const release = await acquireDatabaseSlot(ctx, database, 'persist-refresh');
    try {
      // in the session time zone a live run uses, so the table holds what a live run returns
      await ddl.replaceTable(definition['table-name'], prepared.sql, prepared.params, { timezone: prepared.sessionTimezone });
    } finally {
      release();
    }
    // renamed since the last refresh: the table under the old name goes
    if (row.table_name !== definition['table-name']) await ddl.dropTable(row.table_name).catch(() => {});
    await ctx.db
      .updateTable('persisted_info')
      .set({
        state: 'persisted',
        active: true,
        error: null,
        refresh_end: nowIso(),
        state_change_at: nowIso(),
        query_hash: queryHash,
        definition: JSON.stringify(definition),
        table_name: definition['table-name'],
        question_slug: modelSlug(card.name),
      })
      .where('id', '=', row.id)
      .where('state', '=', 'refreshing')
      .execute();
    return { status: 'success' };
  } catch (error) {
    const message = errorMessage(error);
    await ctx.db
      .updateTable('persisted_info')
      .set({ state: 'error', active: false, error: message, state_change_at: nowIso() })
      .where('id', '=', row.id)
      .where('state', '=', 'refreshing')
      .execute();
    return { status: 'error', error: message };
  }
}

export interface RefreshTally {
  success: number;
  error: number;
  'error-details': Array<{ 'persisted-info-id': number; error: string }>;
}

/** A database's scheduled refresh: rows for new models first, then every refreshable model, one after another. */
export async function refreshDatabase(ctx: AppContext, databaseId: number, done: Set<number> = new Set(), onDone?: (id: number) => Promise<void>): Promise<RefreshTally> {
  await readyDatabase(ctx, databaseId, null);
  const models = new Set((await modelsOf(ctx.db, databaseId)).map((m) => m.id));
  const rows = await ctx.db.selectFrom('persisted_info').select(['id', 'card_id']).where('database_id', '=', databaseId).where('state', 'in', REFRESHABLE).orderBy('id').execute();
  const tally: RefreshTally = { success: 0, error: 0, 'error-details': [] };
  for (const row of rows) {
    if (done.has(row.id) || row.card_id === null || !models.has(row.card_id)) continue;
    const outcome = await refreshModel(ctx, row.id);
    if (outcome.status === 'success') tally.success += 1;
    if (outcome.status === 'error') {
      tally.error += 1;
      tally['error-details'].push({ 'persisted-info-id': row.id, error: outcome.error });
    }
    await onDone?.(row.id);
  }
  return tally;
}

const pending = new WeakMap<AppContext, Map<number, Promise<void>>>();

/** Refreshes one model in the background (Metabase's individual refresh); one already queued is not queued again. */
export function refreshSoon(ctx: AppContext, rowId: number, databaseId: number): void {
  let queued = pending.get(ctx);
  if (!queued) pending.set(ctx, (queued = new Map()));
  if (queued.has(rowId)) return;
  const map = queued;
  const run = recordTask(ctx, 'persist-refresh', { dbId: databaseId, details: { trigger: 'Manual' } }, async (task) => {
    const outcome = await refreshModel(ctx, rowId);
    task.details.success = outcome.status === 'success' ? 1 : 0;
    task.details.error = outcome.status === 'error' ? 1 : 0;
    task.details['error-details'] = outcome.status === 'error' ? [{ 'persisted-info-id': rowId, error: outcome.error }] : [];
    if (outcome.status === 'error') throw new Error(outcome.error);
  })
    .catch((error) => ctx.log.warn({ err: error, persistedInfo: rowId }, 'refreshing a persisted model failed'))
    .finally(() => map.delete(rowId));
  map.set(rowId, run);
}

/** Waits for this instance's background refreshes (tests). */
export async function refreshesDone(ctx: AppContext): Promise<void> {
  const queued = pending.get(ctx);
  while (queued && queued.size) await Promise.all(queued.values());
}
