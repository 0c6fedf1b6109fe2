// Stored data permissions, read into a PermissionSet that answers "what does group G have on table T of database
// D", and the defaults groups and databases start with (reference §9.1).
//
// Storage (table `data_permission`): per group, database and kind, either one database-level row or one row per
// table. Reading fills two gaps without writing anything:
//   - a table with no row in a per-table database (synced after the permissions were set) gets what the rest of
//     its schema shares, else the kind's new-table default (./data-values.ts);
//   - a group with no row at all on a database (a database that arrived without going through the API) gets the
//     defaults of a new database — the same values `grantNewDatabasePermissions` stores for databases added through
//     the API.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Db } from '../appdb/portable.js';
import { ADMIN_GROUP_ID } from '../users/memberships.js';
import type { DataPermissionTable } from './data-tables.js';
import { GRANULAR, PERM_TYPES, least, maxValue, minValue, newTableDefault, type PermType } from './data-values.js';

export type DataPermissionRow = Selectable<DataPermissionTable>;

/** A table as permissions see it: its id and schema ('' when none). */
export interface TableRef {
  id: number;
  db_id: number;
  schema: string | null;
}

/** What one group has on one database: database-level values, and per-table values where set per table. */
export interface GroupDatabasePerms {
  database: Map<PermType, string>;
  tables: Map<PermType, Map<number, { schema: string; value: string }>>;
}

export function schemaKey(schema: string | null | undefined): string {
  return schema ?? '';
}

function emptyPerms(): GroupDatabasePerms {
  return { database: new Map(), tables: new Map() };
}

/** The values a group gets on a database it has no rows for (reference §9.1 "defaults for a newly added database"). */
export function newDatabaseDefaults(others: GroupDatabasePerms[]): GroupDatabasePerms {
  const lowest = (type: PermType, none: string): string => {
    let result: string | null = null;
    for (const perms of others) {
      const value = databaseWide(perms, type, 'min');
      result = result === null ? value : minValue(type, result, value);
    }
    return result ?? none;
  };
  const perms = emptyPerms();
  perms.database.set('view-data', 'unrestricted');
  perms.database.set('create-queries', lowest('create-queries', 'query-builder-and-native'));
  perms.database.set('download', lowest('download', 'full'));
  perms.database.set('data-model', 'none');
  perms.database.set('details', 'no');
  return perms;
}

/** A group's value of a kind over a whole database: the database-level one, or the lowest/highest of its tables. */
export function databaseWide(perms: GroupDatabasePerms, type: PermType, mode: 'min' | 'max'): string {
  const own = perms.database.get(type);
  if (own !== undefined) return own;
  const tables = perms.tables.get(type);
  if (!tables || tables.size === 0) return newTableDefault(type);
  let result: string | null = null;
  for (const { value } of tables.values()) {
    result = result === null ? value : mode === 'min' ? minValue(type, result, value) : maxValue(type, result, value);
  }
  return result!;
}

/** A group's value of a kind on one table. */
export function tableValue(perms: GroupDatabasePerms, type: PermType, table: TableRef): string {
  const own = perms.database.get(type);
  if (own !== undefined) return own;
  const tables = perms.tables.get(type);
  if (!tables || tables.size === 0) return newTableDefault(type);
  const row = tables.get(table.id);
  if (row) return row.value;
  // A table without a row: what the rest of its schema shares, else the new-table default.
  const schema = schemaKey(table.schema);
  let shared: string | null = null;
  for (const other of tables.values()) {
    if (other.schema !== schema) continue;
    if (shared === null) shared = other.value;
    else if (shared !== other.value) return newTableDefault(type);
  }
  return shared ?? newTableDefault(type);
}

/** Rows of many groups, indexed by group and database, with the new-database defaults filled in on demand. */
export class PermissionSet {
  private readonly byGroup = new Map<number, Map<number, GroupDatabasePerms>>();
  private readonly defaults = new Map<number, GroupDatabasePerms>();

  constructor(rows: DataPermissionRow[]) {
    for (const row of rows) {
      if (!(PERM_TYPES as readonly string[]).includes(row.perm_type)) continue;
      const type = row.perm_type as PermType;
      const dbs = this.byGroup.get(row.group_id) ?? new Map<number, GroupDatabasePerms>();
      this.byGroup.set(row.group_id, dbs);
      const perms = dbs.get(row.db_id) ?? emptyPerms();
      dbs.set(row.db_id, perms);
      if (row.table_id === null || !GRANULAR.has(type)) perms.database.set(type, row.perm_value);
      else {
        const tables = perms.tables.get(type) ?? new Map();
        perms.tables.set(type, tables);
        tables.set(row.table_id, { schema: schemaKey(row.schema_name), value: row.perm_value });
      }
    }
  }

  /** Whether the group has rows of its own on the database. */
  stored(groupId: number, databaseId: number): boolean {
    return this.byGroup.get(groupId)?.has(databaseId) ?? false;
  }

  /** The group's permissions on the database (stored, or the new-database defaults). */
  of(groupId: number, databaseId: number): GroupDatabasePerms {
    const own = this.byGroup.get(groupId)?.get(databaseId);
    if (own) return own;
    let fallback = this.defaults.get(groupId);
    if (!fallback) {
      fallback = newDatabaseDefaults([...(this.byGroup.get(groupId)?.values() ?? [])]);
      this.defaults.set(groupId, fallback);
    }
    return fallback;
  }
}

export async function loadPermissionSet(db: Db, groupIds: number[] | null): Promise<PermissionSet> {
  if (groupIds !== null && groupIds.length === 0) return new PermissionSet([]);
  let query = db.selectFrom('data_permission').selectAll();
  if (groupIds !== null) query = query.where('group_id', 'in', groupIds);
  return new PermissionSet(await query.execute());
}

// ----- writing ------------------------------------------------------------------------------------------------------

type NewRow = Omit<DataPermissionRow, 'id'>;

/** The rows that store `perms` for a group on a database. */
export function rowsOf(groupId: number, databaseId: number, perms: GroupDatabasePerms): NewRow[] {
  const rows: NewRow[] = [];
  for (const [type, value] of perms.database) {
    rows.push({ group_id: groupId, db_id: databaseId, perm_type: type, schema_name: null, table_id: null, perm_value: value });
  }
  for (const [type, tables] of perms.tables) {
    if (perms.database.has(type)) continue;
    for (const [tableId, { schema, value }] of tables) {
      rows.push({ group_id: groupId, db_id: databaseId, perm_type: type, schema_name: schema, table_id: tableId, perm_value: value });
    }
  }
  return rows;
}

export async function insertRows(db: Db, rows: NewRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('data_permission').values(rows.slice(i, i + 500)).execute();
}

/** Replaces everything a group has on a database. */
export async function replaceGroupDatabase(db: Db, groupId: number, databaseId: number, perms: GroupDatabasePerms): Promise<void> {
  await db.deleteFrom('data_permission').where('group_id', '=', groupId).where('db_id', '=', databaseId).execute();
  await insertRows(db, rowsOf(groupId, databaseId, perms));
}

/** A new group starts able to see data but not to query it, on every database (Metabase's default). */
export async function grantNewGroupPermissions(db: Db, groupId: number): Promise<void> {
  const databases = await db.selectFrom('metabase_database').select('id').execute();
  const rows: NewRow[] = [];
  for (const { id } of databases) {
    const perms = emptyPerms();
    perms.database.set('view-data', 'unrestricted');
    for (const type of ['create-queries', 'download', 'data-model', 'details'] as const) perms.database.set(type, least(type));
    rows.push(...rowsOf(groupId, id, perms));
  }
  await insertRows(db, rows);
}

/** A new database: every group (but Administrators) gets the new-database defaults, computed from what it has. */
export async function grantNewDatabasePermissions(ctx: AppContext, databaseId: number, db: Db = ctx.db): Promise<void> {
  const groups = await db.selectFrom('permissions_group').select('id').where('id', '!=', ADMIN_GROUP_ID).execute();
  const set = await loadPermissionSet(db, groups.map((g) => g.id));
  const rows: NewRow[] = [];
  for (const { id } of groups) {
    if (set.stored(id, databaseId)) continue;
    rows.push(...rowsOf(id, databaseId, set.of(id, databaseId)));
  }
  await insertRows(db, rows);
}

export async function dropDatabasePermissions(db: Db, databaseId: number): Promise<void> {
  await db.deleteFrom('data_permission').where('db_id', '=', databaseId).execute();
}

export async function dropGroupPermissions(db: Db, groupId: number): Promise<void> {
  await db.deleteFrom('data_permission').where('group_id', '=', groupId).execute();
}
