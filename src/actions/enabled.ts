// Actions write to a database only when its engine can (feature `actions`: PostgreSQL, MySQL/MariaDB) and an admin
// switched them on for it (database setting `database-enable-actions`).

import type { AppContext } from '../context.js';
import { messageError, notFound } from '../http/errors.js';
import { parseJson } from '../appdb/portable.js';
import { findDriver } from '../drivers/registry.js';
import type { DatabaseRow } from '../databases/database-row.js';

export function engineSupportsActions(engine: string): boolean {
  return findDriver(engine)?.features.has('actions') ?? false;
}

export function actionsEnabledOn(database: DatabaseRow): boolean {
  return engineSupportsActions(database.engine) && parseJson<Record<string, unknown>>(database.settings, {})['database-enable-actions'] === true;
}

/** 400 unless actions may run on the database (Metabase's messages). */
export async function checkActionsEnabled(ctx: AppContext, databaseId: number | null): Promise<DatabaseRow> {
  const database = databaseId === null ? undefined : await ctx.db.selectFrom('metabase_database').selectAll().where('id', '=', databaseId).executeTakeFirst();
  if (!database) throw notFound();
  if (!engineSupportsActions(database.engine)) {
    throw messageError(400, `${database.engine} Database ${database.id} ${JSON.stringify(database.name)} does not support actions.`, { 'database-id': database.id });
  }
  if (!actionsEnabledOn(database)) throw messageError(400, 'Actions are not enabled.', { 'database-id': database.id });
  return database;
}
