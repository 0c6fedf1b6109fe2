// The data permissions graph, v2 format (reference §9.1): GET /api/permissions/graph (and per database, per group)
// and PUT with revisions.
//
// {"revision": N, "groups": {"<group>": {"<db>": {"view-data": "unrestricted", "create-queries": {"PUBLIC": {"5":
// "query-builder"}}, "download": {"schemas": "full"}, "data-model": {"schemas": "all"}, "details": "yes"}}}}
//
// Sparse: the least-permissive value of a kind is left out (view-data is always shown); per-table values collapse to
// their schema when the schema's tables agree, and to the database when every table does; empty maps go. The
// Administrators group is shown with everything and stores nothing. A PUT changes only the groups, databases and
// kinds it names; inside a per-schema or per-table map, what is left out gets the least-permissive value (view-data:
// unrestricted). A stale revision is a 409 and changes nothing, unless `force`. Every accepted PUT adds a revision.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, badRequest, conflict, notFound, paymentRequired } from '../http/errors.js';
import { insertReturningId, nowIso, toJson, type Db } from '../appdb/portable.js';
import { lockForTransaction } from '../appdb/locks.js';
import { ADMIN_GROUP_ID } from '../users/memberships.js';
import { STALE_GRAPH_MESSAGE } from './collection-graph.js';
import { invalidateCallerCache } from '../http/auth.js';
import { databaseWide, loadPermissionSet, replaceGroupDatabase, rowsOf, schemaKey, tableValue, type GroupDatabasePerms, type TableRef } from './data-store.js';
import { DATABASE_ONLY_VALUES, GRANULAR, LEVELS, PAID_VIEW_DATA, PERM_TYPES, isValue, least, newTableDefault, omittedFromGraph, type PermType } from './data-values.js';

type Obj = Record<string, unknown>;
export type DatabaseEntry = Record<string, unknown>;
export interface DataGraph {
  revision: number;
  groups: Record<string, Record<string, DatabaseEntry>>;
}

/** Kinds whose value is wrapped as `{"schemas": …}`. */
const WRAPPED: ReadonlySet<PermType> = new Set(['download', 'data-model']);

export const PAID_FEATURE = (feature: string) =>
  `${feature} is a paid feature not currently available to your instance. Please upgrade to use it. Learn more at metabase.com/upgrade/`;

export async function latestDataRevision(db: Db): Promise<number> {
  const row = await db.selectFrom('data_permission_graph_revision').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Active tables per database, as permissions see them. */
async function tablesByDatabase(db: Db, databaseIds: number[]): Promise<Map<number, TableRef[]>> {
  const out = new Map<number, TableRef[]>(databaseIds.map((id) => [id, []]));
  if (!databaseIds.length) return out;
  const rows = await db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('db_id', 'in', databaseIds).where('active', '=', true).execute();
  for (const row of rows.sort((a, b) => a.id - b.id)) out.get(row.db_id)?.push(row);
  return out;
}

// ----- reading ------------------------------------------------------------------------------------------------------

/** One kind of a group's permissions on a database, as the graph shows it (undefined: left out). */
function graphValue(perms: GroupDatabasePerms, type: PermType, tables: TableRef[]): unknown {
  const shown = (value: string) => (omittedFromGraph(type, value) ? undefined : value);
  const own = perms.database.get(type);
  if (own !== undefined) return shown(own);
  if (!GRANULAR.has(type) || !perms.tables.get(type)?.size || tables.length === 0) return shown(newTableDefault(type));
  const schemas = new Map<string, Map<number, string>>();
  for (const table of tables) {
    const key = schemaKey(table.schema);
    const values = schemas.get(key) ?? new Map<number, string>();
    schemas.set(key, values);
    values.set(table.id, tableValue(perms, type, table));
  }
  const uniform = (values: Iterable<string>): string | null => {
    const set = new Set(values);
    return set.size === 1 ? [...set][0] : null;
  };
  const whole = uniform([...schemas.values()].flatMap((m) => [...m.values()]));
  if (whole !== null) return shown(whole);
  const out: Obj = {};
  for (const [schema, values] of [...schemas].sort(([a], [b]) => a.localeCompare(b))) {
    const same = uniform(values.values());
    if (same !== null) {
      if (shown(same) !== undefined) out[schema] = same;
      continue;
    }
    const byTable: Obj = {};
    for (const [id, value] of values) if (shown(value) !== undefined) byTable[String(id)] = value;
    if (Object.keys(byTable).length) out[schema] = byTable;
  }
  return Object.keys(out).length ? out : undefined;
}

export function graphEntry(perms: GroupDatabasePerms, tables: TableRef[]): DatabaseEntry {
  const entry: DatabaseEntry = {};
  for (const type of PERM_TYPES) {
    const value = graphValue(perms, type, tables);
    if (value === undefined) continue;
    entry[type] = WRAPPED.has(type) ? { schemas: value } : value;
  }
  return entry;
}

function adminEntry(): DatabaseEntry {
  return {
    'view-data': 'unrestricted',
    'create-queries': 'query-builder-and-native',
    download: { schemas: 'full' },
    'data-model': { schemas: 'all' },
    details: 'yes',
  };
}

export interface GraphFilter {
  groupId?: number;
  databaseId?: number;
}

export async function dataGraph(ctx: AppContext, filter: GraphFilter = {}, db: Db = ctx.db): Promise<DataGraph> {
  let groupQuery = db.selectFrom('permissions_group').select('id').orderBy('id');
  if (filter.groupId !== undefined) groupQuery = groupQuery.where('id', '=', filter.groupId);
  let databaseQuery = db.selectFrom('metabase_database').select('id').where('is_audit', '=', false).orderBy('id');
  if (filter.databaseId !== undefined) databaseQuery = databaseQuery.where('id', '=', filter.databaseId);
  const [revision, groups, databases] = await Promise.all([latestDataRevision(db), groupQuery.execute(), databaseQuery.execute()]);
  if (filter.groupId !== undefined && groups.length === 0) throw notFound();
  if (filter.databaseId !== undefined && databases.length === 0) throw notFound();
  const groupIds = groups.map((g) => g.id).filter((id) => id !== ADMIN_GROUP_ID);
  const [set, tables] = await Promise.all([loadPermissionSet(db, groupIds), tablesByDatabase(db, databases.map((d) => d.id))]);
  const out: DataGraph['groups'] = {};
  for (const { id: groupId } of groups) {
    const entries: Record<string, DatabaseEntry> = {};
    for (const { id: databaseId } of databases) {
      entries[String(databaseId)] = groupId === ADMIN_GROUP_ID ? adminEntry() : graphEntry(set.of(groupId, databaseId), tables.get(databaseId) ?? []);
    }
    out[String(groupId)] = entries;
  }
  return { revision, groups: out };
}

// ----- writing ------------------------------------------------------------------------------------------------------

function invalid(detail: string): ApiError {
  return badRequest(`Cannot parse permissions graph because it is invalid: ${detail}`);
}

const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);

function checkValue(type: PermType, value: unknown, where: string, granular: boolean): string {
  if (type === 'view-data' && typeof value === 'string' && PAID_VIEW_DATA.has(value)) {
    throw paymentRequired(PAID_FEATURE(value === 'sandboxed' ? 'Sandboxing' : 'Connection impersonation'));
  }
  if (!isValue(type, value)) throw invalid(`${where}: ${JSON.stringify(value)} is not one of ${LEVELS[type].join(', ')}`);
  if (granular && DATABASE_ONLY_VALUES[type].has(value)) throw invalid(`${where}: ${value} can only be set for a whole database`);
  return value;
}

/** Sets one kind of `perms` from its graph value (string, or a per-schema / per-table map). */
function applyValue(perms: GroupDatabasePerms, type: PermType, raw: unknown, tables: TableRef[], where: string): void {
  let value = raw;
  if (WRAPPED.has(type) && isObj(raw)) {
    if (!('schemas' in raw)) throw invalid(`${where}: expected a map with the key "schemas"`);
    value = raw.schemas;
  }
  perms.database.delete(type);
  perms.tables.delete(type);
  if (typeof value === 'string') {
    perms.database.set(type, checkValue(type, value, where, false));
    return;
  }
  if (!isObj(value) || !GRANULAR.has(type)) throw invalid(`${where}: ${JSON.stringify(value)} is not a valid value`);
  // per schema, or per table within a schema
  const bySchema = new Map<string, string | Map<string, string>>();
  const schemaOf = new Map(tables.map((t) => [String(t.id), schemaKey(t.schema)]));
  const schemas = new Set(schemaOf.values());
  for (const [schema, entry] of Object.entries(value)) {
    // a typo here would silently reset the whole database to its least-permissive value
    if (!schemas.has(schema)) throw invalid(`${where}: the database has no schema ${JSON.stringify(schema)}`);
    if (typeof entry === 'string') bySchema.set(schema, checkValue(type, entry, `${where} schema ${schema}`, true));
    else if (isObj(entry)) {
      const byTable = new Map<string, string>();
      for (const [tableId, v] of Object.entries(entry)) {
        if (!/^\d+$/.test(tableId)) throw invalid(`${where}: ${JSON.stringify(tableId)} is not a table id`);
        if (schemaOf.get(tableId) !== schema) throw invalid(`${where}: table ${tableId} is not in schema ${JSON.stringify(schema)}`);
        byTable.set(tableId, checkValue(type, v, `${where} table ${tableId}`, true));
      }
      bySchema.set(schema, byTable);
    } else throw invalid(`${where} schema ${schema}: ${JSON.stringify(entry)} is not a valid value`);
  }
  const left = newTableDefault(type);
  const values = new Map<number, { schema: string; value: string }>();
  for (const table of tables) {
    const schema = schemaKey(table.schema);
    const entry = bySchema.get(schema);
    const v = entry === undefined ? left : typeof entry === 'string' ? entry : entry.get(String(table.id)) ?? left;
    values.set(table.id, { schema, value: v });
  }
  setPerTable(perms, type, values, left);
}

/** Sets a kind from one value per table: database-wide when they all agree (`fallback` without tables), else per table. */
function setPerTable(perms: GroupDatabasePerms, type: PermType, values: Map<number, { schema: string; value: string }>, fallback: string): void {
  const distinct = new Set([...values.values()].map((v) => v.value));
  perms.database.delete(type);
  perms.tables.delete(type);
  if (distinct.size <= 1) perms.database.set(type, distinct.size === 1 ? [...distinct][0] : fallback);
  else perms.tables.set(type, values);
}

/**
 * Blocked data can't be queried or downloaded (as in Metabase, blocking a database or table takes its
 * create-queries and download away); native SQL reads any table, so it gives way to the query builder where part of
 * the database is blocked. A request that blocks a whole database and grants query or download access to it in the
 * same breath is a 400.
 */
function cascadeBlocked(perms: GroupDatabasePerms, entry: Obj, tables: TableRef[], where: string): void {
  const databaseBlocked = perms.database.get('view-data') === 'blocked';
  const blocked = new Set(tables.filter((t) => tableValue(perms, 'view-data', t) === 'blocked').map((t) => t.id));
  if (!databaseBlocked && blocked.size === 0) return;
  for (const type of ['create-queries', 'download'] as const) {
    const low = least(type);
    if (databaseBlocked && 'view-data' in entry && type in entry && databaseWide(perms, type, 'max') !== low) {
      throw invalid(`${where}: ${type} must be ${low} where view-data is blocked`);
    }
    if (databaseBlocked) {
      perms.tables.delete(type);
      perms.database.set(type, low);
      continue;
    }
    const values = new Map<number, { schema: string; value: string }>();
    for (const table of tables) {
      let value = blocked.has(table.id) ? low : tableValue(perms, type, table);
      if (type === 'create-queries' && value === 'query-builder-and-native') value = 'query-builder';
      values.set(table.id, { schema: schemaKey(table.schema), value });
    }
    setPerTable(perms, type, values, low);
  }
}

function clonePerms(perms: GroupDatabasePerms): GroupDatabasePerms {
  return {
    database: new Map(perms.database),
    tables: new Map([...perms.tables].map(([type, m]) => [type, new Map(m)])),
  };
}

function canonical(groupId: number, databaseId: number, perms: GroupDatabasePerms): string {
  return JSON.stringify(
    rowsOf(groupId, databaseId, perms)
      .map((r) => [r.perm_type, r.table_id ?? -1, r.perm_value])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1])),
  );
}

/** Every kind set (what a new-database default leaves implicit is written out, so it no longer moves). */
function complete(perms: GroupDatabasePerms): GroupDatabasePerms {
  for (const type of PERM_TYPES) {
    if (!perms.database.has(type) && !perms.tables.get(type)?.size) perms.database.set(type, newTableDefault(type));
  }
  return perms;
}

export interface DataGraphUpdate {
  revision: unknown;
  groups: unknown;
  force: boolean;
}

/** Checks the shape of the request's `groups` before anything is read. */
function parseRequest(groups: unknown): Map<number, Map<number, Obj>> {
  if (!isObj(groups)) throw invalid('groups must be a map');
  const out = new Map<number, Map<number, Obj>>();
  for (const [groupKey, dbs] of Object.entries(groups)) {
    if (!/^\d+$/.test(groupKey)) throw invalid(`${JSON.stringify(groupKey)} is not a group id`);
    if (!isObj(dbs)) throw invalid(`the permissions of group ${groupKey} must be a map`);
    const entries = new Map<number, Obj>();
    for (const [dbKey, entry] of Object.entries(dbs)) {
      if (!/^\d+$/.test(dbKey)) throw invalid(`${JSON.stringify(dbKey)} is not a database id`);
      if (!isObj(entry)) throw invalid(`the permissions of group ${groupKey} on database ${dbKey} must be a map`);
      for (const key of Object.keys(entry)) {
        if (!(PERM_TYPES as readonly string[]).includes(key)) throw invalid(`${JSON.stringify(key)} is not a data permission (${PERM_TYPES.join(', ')})`);
      }
      entries.set(Number(dbKey), entry);
    }
    out.set(Number(groupKey), entries);
  }
  return out;
}

/** Applies the groups, databases and kinds present in the request. Returns the ids of the groups it names. */
export async function updateDataGraph(ctx: AppContext, caller: Caller, update: DataGraphUpdate): Promise<number[]> {
  const requested = parseRequest(update.groups);
  await ctx.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, ctx.dialect, 'data-permission-graph');
    const current = await latestDataRevision(trx);
    if (!update.force && Number(update.revision) !== current) throw conflict(STALE_GRAPH_MESSAGE);
    const [groups, databases] = await Promise.all([
      trx.selectFrom('permissions_group').select('id').execute(),
      trx.selectFrom('metabase_database').select('id').where('is_audit', '=', false).execute(),
    ]);
    const groupIds = new Set(groups.map((g) => g.id));
    const databaseIds = new Set(databases.map((d) => d.id));
    // Administrators always have everything; unknown groups and databases have nothing to change.
    const targets = [...requested].filter(([g]) => g !== ADMIN_GROUP_ID && groupIds.has(g));
    const touched = [...new Set(targets.flatMap(([, dbs]) => [...dbs.keys()]))].filter((id) => databaseIds.has(id));
    const [set, tables] = await Promise.all([loadPermissionSet(trx, targets.map(([g]) => g)), tablesByDatabase(trx, touched)]);
    const before: Obj = {};
    const after: Obj = {};
    const writes: Array<{ groupId: number; databaseId: number; perms: GroupDatabasePerms }> = [];
    for (const [groupId, dbs] of targets) {
      for (const [databaseId, entry] of dbs) {
        if (!databaseIds.has(databaseId)) continue;
        const dbTables = tables.get(databaseId) ?? [];
        const old = set.of(groupId, databaseId);
        const next = complete(clonePerms(old));
        const where = `group ${groupId} database ${databaseId}`;
        for (const type of PERM_TYPES) {
          if (type in entry) applyValue(next, type, entry[type], dbTables, `${where} ${type}`);
        }
        cascadeBlocked(next, entry, dbTables, where);
        if (set.stored(groupId, databaseId) && canonical(groupId, databaseId, old) === canonical(groupId, databaseId, next)) continue;
        writes.push({ groupId, databaseId, perms: next });
        ((before[String(groupId)] ??= {}) as Obj)[String(databaseId)] = graphEntry(old, dbTables);
        ((after[String(groupId)] ??= {}) as Obj)[String(databaseId)] = graphEntry(next, dbTables);
      }
    }
    for (const w of writes) await replaceGroupDatabase(trx, w.groupId, w.databaseId, w.perms);
    // Every accepted PUT is a revision, also one that changed nothing (as in Metabase): a client that sends the
    // revision it read gets a 409 once anyone else has saved the graph since.
    await insertReturningId(trx, ctx.dialect, 'data_permission_graph_revision', {
      before: toJson(before),
      after: toJson(after),
      user_id: caller.user.id,
      remark: null,
      created_at: nowIso(),
    });
  });
  // callers (and the data permissions kept with them) are read again
  invalidateCallerCache();
  return [...requested.keys()];
}

/** 402 for the enterprise-only parts of a graph update (sandboxes, impersonations). */
export function checkEditionOnlyKeys(body: Obj): void {
  if (body.sandboxes !== undefined && body.sandboxes !== null) throw paymentRequired(PAID_FEATURE('Sandboxes'));
  if (body.impersonations !== undefined && body.impersonations !== null) throw paymentRequired(PAID_FEATURE('Connection impersonation'));
}
