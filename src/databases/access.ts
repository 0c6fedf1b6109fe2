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

type Obj = Record<string, unknown>;

/**
 * Query metadata made without the caller's permissions: databases they can't see are dropped, the others get
 * `native_permissions` and `can-manage` from their data permissions; tables and fields are kept only where the
 * caller may query them (`query`, an ad-hoc query), or — describing saved cards and dashboards they may view —
 * where their data isn't blocked (`view`).
 */
export async function applyDatabaseAccess<T>(ctx: AppContext, caller: Caller, metadata: T, level: 'query' | 'view' = 'query'): Promise<T> {
  const holder = metadata as { databases?: unknown; tables?: unknown; fields?: unknown };
  if (caller.isSuperuser) return metadata;
  const access = await dataAccess(ctx, caller);
  if (Array.isArray(holder.databases)) {
    holder.databases = (holder.databases as Obj[]).filter((db) => {
      if (typeof db.id !== 'number' || db.id < 0) return true;
      if (!access.canSeeDatabase(db.id)) return false;
      db.native_permissions = access.canNative(db.id) ? 'write' : 'none';
      db['can-manage'] = access.canManageDatabase(db.id);
      return true;
    });
  }
  const allowed = (t: Pick<TableRow, 'id' | 'db_id' | 'schema'>) => (level === 'query' ? access.canQueryTable(t) : !access.isBlocked(t));
  if (Array.isArray(holder.tables)) {
    // saved questions described as tables ("card__N") carry no table of their own
    holder.tables = (holder.tables as Obj[]).filter((t) => typeof t.id !== 'number' || typeof t.db_id !== 'number' || allowed(t as Pick<TableRow, 'id' | 'db_id' | 'schema'>));
  }
  if (Array.isArray(holder.fields) && holder.fields.length) {
    const fields = holder.fields as Obj[];
    const tableIds = [...new Set(fields.map((f) => f.table_id).filter((id): id is number => typeof id === 'number'))];
    const tables = tableIds.length ? await ctx.db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('id', 'in', tableIds).execute() : [];
    const visible = new Set(tables.filter(allowed).map((t) => t.id));
    holder.fields = fields.filter((f) => typeof f.table_id !== 'number' || visible.has(f.table_id));
  }
  return metadata;
}
