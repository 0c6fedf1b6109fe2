// Data permissions on the metadata endpoints (through the one checker, src/permissions/data-access.ts): databases
// and tables a caller can't query are left out of lists, and reading one of them directly is a 403.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden, notFound } from '../http/errors.js';
import { dataAccess, type DataAccess } from '../permissions/data-access.js';
import type { FieldRow, TableRow } from './database-row.js';

export { dataAccess, type DataAccess };

/** The caller's access, after a 403 unless they may see the database. */
export async function checkDatabaseVisible(ctx: AppContext, caller: Caller, databaseId: number): Promise<DataAccess> {
  const access = await dataAccess(ctx, caller);
  access.checkSeeDatabase(databaseId);
  return access;
}

/** The caller's access, after a 403 unless they may query the table. */
export async function checkTableVisible(ctx: AppContext, caller: Caller, table: Pick<TableRow, 'id' | 'db_id' | 'schema'>): Promise<DataAccess> {
  const access = await dataAccess(ctx, caller);
  access.checkQueryTable(table);
  return access;
}

/** 404 for a missing field, 403 unless the caller may query its table. */
export async function checkFieldsVisible(ctx: AppContext, caller: Caller, fieldIds: number[]): Promise<void> {
  const rows = await ctx.db
    .selectFrom('metabase_field')
    .innerJoin('metabase_table', 'metabase_table.id', 'metabase_field.table_id')
    .select(['metabase_field.id as id', 'metabase_table.id as table_id', 'metabase_table.db_id as db_id', 'metabase_table.schema as schema'])
    .where('metabase_field.id', 'in', [...new Set(fieldIds)])
    .execute();
  if (rows.length !== new Set(fieldIds).size) throw notFound();
  if (caller.isSuperuser) return;
  const access = await dataAccess(ctx, caller);
  for (const row of rows) if (!access.canQueryTable({ id: row.table_id, db_id: row.db_id, schema: row.schema })) throw forbidden();
}

export function visibleTablesOf<T extends Pick<TableRow, 'id' | 'db_id' | 'schema'>>(access: DataAccess, tables: T[]): T[] {
  return access.isSuperuser ? tables : tables.filter((t) => access.canQueryTable(t));
}

export type { FieldRow };

/**
 * Query metadata made without the caller's permissions: databases they can't see are dropped, the others get
 * `native_permissions` and `can-manage` from their data permissions.
 */
export async function applyDatabaseAccess<T>(ctx: AppContext, caller: Caller, metadata: T): Promise<T> {
  const holder = metadata as { databases?: unknown };
  if (caller.isSuperuser || !Array.isArray(holder.databases)) return metadata;
  const access = await dataAccess(ctx, caller);
  holder.databases = (holder.databases as Array<Record<string, unknown>>).filter((db) => {
    if (typeof db.id !== 'number' || db.id < 0) return true;
    if (!access.canSeeDatabase(db.id)) return false;
    db.native_permissions = access.canNative(db.id) ? 'write' : 'none';
    db['can-manage'] = access.canManageDatabase(db.id);
    return true;
  });
  return metadata;
}
