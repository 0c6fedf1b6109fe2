// A database as model persistence writes to it: its connection, its dialect, and Quarry's schema there.

import type { AppContext } from '../context.js';
import { parseJson } from '../appdb/portable.js';
import { connectionForRow, loadDatabaseRow } from '../databases/connections.js';
import type { DatabaseRow } from '../databases/database-row.js';
import { findDriver } from '../drivers/registry.js';
import { dialectFor } from '../query/dialects.js';
import { PersistDdl, PERSISTABLE_ENGINES } from './ddl.js';
import { schemaName } from './naming.js';
import { siteUuid } from './site.js';

/** Whether the engine can hold persisted models (PostgreSQL, MySQL/MariaDB, DuckDB). */
export function enginePersists(engine: string): boolean {
  return PERSISTABLE_ENGINES.has(engine) && Boolean(findDriver(engine)?.features.has('persist-models'));
}

/** Whether the admin turned persistence on for this database. */
export function databasePersists(database: Pick<DatabaseRow, 'settings'>): boolean {
  return parseJson<Record<string, unknown>>(database.settings, {})['persist-models-enabled'] === true;
}

export async function warehouseDdl(ctx: AppContext, database: DatabaseRow): Promise<PersistDdl> {
  const { connection } = connectionForRow(ctx, database);
  return new PersistDdl(database.engine, connection, dialectFor(database.engine, database.dbms_version), schemaName(await siteUuid(ctx), database.id));
}

export { loadDatabaseRow };
