// The data-permission checker for one caller: what they may see and do with each database and table, the most
// permissive value over all of their groups (Metabase's rule), each kind on its own. Load it once per request with
// `dataAccess(ctx, caller)`; admins get everything without a query.
//
//   see a table / query it with the query builder   view-data not blocked and create-queries ≥ query-builder
//   see a database                                   some table of it (or the database itself) as above
//   native SQL on a database                         create-queries query-builder-and-native (database level) and
//                                                    view-data unrestricted on the whole database
//   download                                         full / limited (10,000 rows) / none; none where view is blocked
//   manage table metadata / database details         data-model all / details yes

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden } from '../http/errors.js';
import { ADMIN_GROUP_ID } from '../users/memberships.js';
import { databaseWide, loadPermissionSet, tableValue, type PermissionSet, type TableRef } from './data-store.js';
import { atLeast, maxValue, minValue, most, type PermType } from './data-values.js';

export type DownloadLevel = 'full' | 'limited' | 'none';

export class DataAccess {
  constructor(
    readonly caller: Caller | null,
    private readonly set: PermissionSet | null,
    private readonly groupIds: number[],
  ) {}

  get isSuperuser(): boolean {
    return this.set === null;
  }

  /** The best value of a kind on a table over the caller's groups. */
  tableValue(type: PermType, table: TableRef): string {
    if (!this.set) return most(type);
    let best: string | null = null;
    for (const g of this.groupIds) {
      const value = tableValue(this.set.of(g, table.db_id), type, table);
      best = best === null ? value : maxValue(type, best, value);
    }
    return best ?? 'no-groups';
  }

  /** The best over groups of each group's value over the whole database (its lowest or highest table). */
  databaseValue(type: PermType, databaseId: number, mode: 'min' | 'max'): string | null {
    if (!this.set) return most(type);
    let best: string | null = null;
    for (const g of this.groupIds) {
      const value = databaseWide(this.set.of(g, databaseId), type, mode);
      best = best === null ? value : maxValue(type, best, value);
    }
    return best;
  }

  private has(type: PermType, value: string | null, minimum: string): boolean {
    return value !== null && value !== 'no-groups' && atLeast(type, value, minimum);
  }

  isBlocked(table: TableRef): boolean {
    if (!this.set) return false;
    return !this.has('view-data', this.tableValue('view-data', table), 'legacy-no-self-service');
  }

  /** May build queries on this table (and so see its metadata). */
  canQueryTable(table: TableRef): boolean {
    if (!this.set) return true;
    return !this.isBlocked(table) && this.has('create-queries', this.tableValue('create-queries', table), 'query-builder');
  }

  /** May see the database at all: query some table of it. */
  canSeeDatabase(databaseId: number): boolean {
    if (!this.set) return true;
    return (
      this.has('view-data', this.databaseValue('view-data', databaseId, 'max'), 'legacy-no-self-service') &&
      this.has('create-queries', this.databaseValue('create-queries', databaseId, 'max'), 'query-builder')
    );
  }

  /** Any view at all of the database's data (not blocked everywhere): enough to run saved questions on it. */
  canViewDatabase(databaseId: number): boolean {
    if (!this.set) return true;
    return this.has('view-data', this.databaseValue('view-data', databaseId, 'max'), 'legacy-no-self-service');
  }

  /** View-data blocked somewhere in the database for every group: native SQL there could read blocked rows. */
  blockedSomewhere(databaseId: number): boolean {
    if (!this.set) return false;
    return !this.has('view-data', this.databaseValue('view-data', databaseId, 'min'), 'legacy-no-self-service');
  }

  /** May write native SQL against the database. */
  canNative(databaseId: number): boolean {
    if (!this.set) return true;
    for (const g of this.groupIds) {
      const perms = this.set.of(g, databaseId);
      if (perms.database.get('create-queries') === 'query-builder-and-native' && databaseWide(perms, 'view-data', 'min') === 'unrestricted') return true;
    }
    return false;
  }

  download(table: TableRef): DownloadLevel {
    if (!this.set) return 'full';
    if (this.isBlocked(table)) return 'none';
    const value = this.tableValue('download', table);
    return value === 'full' || value === 'limited' ? value : 'none';
  }

  /** Downloads of native queries: what the caller's groups allow on the whole database. */
  nativeDownload(databaseId: number): DownloadLevel {
    if (!this.set) return 'full';
    const value = this.databaseValue('download', databaseId, 'min');
    return value === 'full' || value === 'limited' ? value : 'none';
  }

  /** May edit the metadata of this table (or, without a table, of some table of the database). */
  canManageMetadata(databaseId: number, table?: TableRef): boolean {
    if (!this.set) return true;
    const value = table ? this.tableValue('data-model', table) : this.databaseValue('data-model', databaseId, 'max');
    return value === 'all';
  }

  /** May see and edit the database's connection details. */
  canManageDatabase(databaseId: number): boolean {
    if (!this.set) return true;
    return this.databaseValue('details', databaseId, 'max') === 'yes';
  }

  checkSeeDatabase(databaseId: number): void {
    if (!this.canSeeDatabase(databaseId)) throw forbidden();
  }

  checkQueryTable(table: TableRef): void {
    if (!this.canQueryTable(table)) throw forbidden();
  }
}

export function lowestDownload(a: DownloadLevel, b: DownloadLevel): DownloadLevel {
  return minValue('download', a, b) as DownloadLevel;
}

/** Admins: everything. */
export function fullDataAccess(caller: Caller | null = null): DataAccess {
  return new DataAccess(caller, null, []);
}

/**
 * Whether the caller may write native SQL against some database — what Metabase's open-source edition asks of
 * anyone reading or writing native query snippets.
 */
export async function hasNativeAccessSomewhere(ctx: AppContext, caller: Caller): Promise<boolean> {
  if (caller.isSuperuser) return true;
  const [access, databases] = await Promise.all([dataAccess(ctx, caller), ctx.db.selectFrom('metabase_database').select('id').where('is_audit', '=', false).execute()]);
  return databases.some((d) => access.canNative(d.id));
}

// A dashboard page asks for the same caller's permissions once per card: they are kept for a second, per resolved
// caller (the auth layer keeps a caller for a second too, and drops them all when permissions change).
const TTL_MS = 1000;
const cache = new WeakMap<Caller, { ctx: AppContext; expires: number; access: Promise<DataAccess> }>();

/** Loads the caller's data permissions (one query, shared for a second; none for admins). */
export async function dataAccess(ctx: AppContext, caller: Caller): Promise<DataAccess> {
  if (caller.isSuperuser) return fullDataAccess(caller);
  const hit = cache.get(caller);
  const now = Date.now();
  if (hit && hit.ctx === ctx && hit.expires > now) return hit.access;
  const groups = caller.groupIds.filter((g) => g !== ADMIN_GROUP_ID);
  const access = loadPermissionSet(ctx.db, groups).then((set) => new DataAccess(caller, set, groups));
  cache.set(caller, { ctx, expires: now + TTL_MS, access });
  access.catch(() => cache.delete(caller));
  return access;
}

/**
 * The fields, of those given, whose tables' data the caller may view (not blocked) — what a filter on content they
 * may read can offer them as values. Admins: all of them.
 */
export async function viewableFieldIds(ctx: AppContext, caller: Caller, fieldIds: Iterable<number>): Promise<Set<number>> {
  const ids = [...new Set(fieldIds)];
  if (caller.isSuperuser || ids.length === 0) return new Set(ids);
  const [access, rows] = await Promise.all([
    dataAccess(ctx, caller),
    ctx.db
      .selectFrom('metabase_field')
      .innerJoin('metabase_table', 'metabase_table.id', 'metabase_field.table_id')
      .select(['metabase_field.id as id', 'metabase_table.id as table_id', 'metabase_table.db_id as db_id', 'metabase_table.schema as schema'])
      .where('metabase_field.id', 'in', ids)
      .execute(),
  ]);
  return new Set(rows.filter((r) => access.canViewDatabase(r.db_id) && !access.isBlocked({ id: r.table_id, db_id: r.db_id, schema: r.schema })).map((r) => r.id));
}
