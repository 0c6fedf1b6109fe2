// Turning model persistence on and off — for the site, a database, a model — with Metabase's rules and messages
// (reference B8). Nothing is ever written to a database unless an admin switched it on and the probe (create
// Quarry's schema, create, read and drop a table in it) passed there.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, forbidden, messageError, notFound } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { rescheduleJobs } from '../tasks/scheduler.js';
import type { DatabaseRow } from '../databases/database-row.js';
import { writePersistFlag, persistingDatabaseIds } from '../databases/persist-flag.js';
import { loadDatabaseRow, warehouseDdl, enginePersists, databasePersists } from './warehouse.js';
import { probeMessage } from './ddl.js';
import { cacheInfo } from './site.js';
import { markForPruning, readyDatabase, rowOfCard, turnOnModel, type ModelCard } from './store.js';
import { refreshSoon } from './refresh.js';

export const NOT_ENABLED = 'Persisting models is not enabled.';
export const NO_SUPPORT = 'Database does not support persisting';

function checkAdmin(caller: Caller): void {
  if (!caller.isSuperuser) throw forbidden();
}

/** POST /api/persist/enable. */
export async function enableSite(ctx: AppContext, caller: Caller): Promise<void> {
  await ctx.settings.set('persisted-models-enabled', true, caller);
  await rescheduleJobs(ctx);
}

/** POST /api/persist/disable: every database's switch off, every row deletable (their tables dropped by the prune). */
export async function disableSite(ctx: AppContext, caller: Caller): Promise<void> {
  if (!(await ctx.settings.getBoolean('persisted-models-enabled'))) return;
  await ctx.settings.set('persisted-models-enabled', false, caller);
  try {
    for (const id of await persistingDatabaseIds(ctx.db)) await writePersistFlag(ctx.db, id, false);
    await markForPruning(ctx.db, { all: true }, 'deletable');
  } catch (error) {
    // put the switch back, so the clean-up can be tried again
    await ctx.settings.set('persisted-models-enabled', true, caller);
    throw error;
  }
  await rescheduleJobs(ctx);
}

/**
 * POST /api/database/:id/persist (and the database's settings switch): the site switch must be on and the engine
 * able; the probe must pass; then the switch, rows for its models, and its refresh schedule. On already: nothing.
 */
export async function enableDatabase(ctx: AppContext, caller: Caller, database: DatabaseRow): Promise<void> {
  if (!(await ctx.settings.getBoolean('persisted-models-enabled'))) throw badRequest(NOT_ENABLED);
  checkAdmin(caller);
  if (databasePersists(database)) return;
  if (!enginePersists(database.engine)) throw badRequest(NO_SUPPORT);
  const ddl = await warehouseDdl(ctx, database);
  const failure = await ddl.probe(await cacheInfo(ctx));
  if (failure) throw messageError(400, probeMessage(failure, ddl.schema), { error: `persist.check/${failure}`, database: database.name });
  await writePersistFlag(ctx.db, database.id, true);
  await readyDatabase(ctx, database.id, caller.user.id);
  await rescheduleJobs(ctx);
}

/** POST /api/database/:id/unpersist (and the settings switch): off, its rows deletable; 204 either way. */
export async function disableDatabase(ctx: AppContext, caller: Caller, database: DatabaseRow): Promise<void> {
  checkAdmin(caller);
  if (!databasePersists(database)) return;
  await writePersistFlag(ctx.db, database.id, false);
  await markForPruning(ctx.db, { databaseIds: [database.id] }, 'deletable');
  await rescheduleJobs(ctx);
}

async function cardOr404(ctx: AppContext, cardId: number): Promise<ModelCard> {
  const card = await ctx.db.selectFrom('report_card').select(['id', 'name', 'type', 'archived', 'database_id', 'dataset_query', 'result_metadata']).where('id', '=', cardId).executeTakeFirst();
  if (!card) throw notFound();
  return card;
}

async function databaseOf(ctx: AppContext, databaseId: number | null): Promise<DatabaseRow> {
  const database = databaseId === null ? undefined : await loadDatabaseRow(ctx, databaseId);
  if (!database) throw notFound();
  return database;
}

/** POST /api/card/:id/persist: the model's row (back) to `creating`, and its table built right away. */
export async function persistCard(ctx: AppContext, caller: Caller, cardId: number): Promise<void> {
  const card = await cardOr404(ctx, cardId);
  const database = await databaseOf(ctx, card.database_id);
  checkAdmin(caller);
  if (!enginePersists(database.engine)) throw messageError(400, NO_SUPPORT, { database: database.name });
  if (!databasePersists(database) || !(await ctx.settings.getBoolean('persisted-models-enabled'))) {
    throw messageError(400, 'Persisting models not enabled for database', { database: database.name });
  }
  if (card.type !== 'model') throw badRequest('Card is not a model');
  const row = await turnOnModel(ctx, caller.user.id, card);
  refreshSoon(ctx, row.id, database.id);
}

/** POST /api/card/:id/refresh: the model's table rebuilt right away. */
export async function refreshCard(ctx: AppContext, caller: Caller, cardId: number): Promise<void> {
  const card = await cardOr404(ctx, cardId);
  const row = await rowOfCard(ctx.db, cardId);
  if (!row) throw notFound();
  if (card.type !== 'model') throw badRequest('Cannot refresh a non-model question');
  if (bool(card.archived)) throw badRequest('Cannot refresh an archived model');
  await databaseOf(ctx, row.database_id);
  checkAdmin(caller);
  refreshSoon(ctx, row.id, row.database_id);
}

/** POST /api/card/:id/unpersist: the model is switched off; queries use its query again, its table is dropped. */
export async function unpersistCard(ctx: AppContext, caller: Caller, cardId: number): Promise<void> {
  await cardOr404(ctx, cardId);
  const row = await rowOfCard(ctx.db, cardId);
  if (!row) return;
  await databaseOf(ctx, row.database_id);
  checkAdmin(caller);
  await markForPruning(ctx.db, { ids: [row.id] }, 'off');
}
