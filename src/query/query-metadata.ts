// POST /api/dataset/query_metadata: everything the query builder needs to show an ad-hoc query — its database,
// the tables it reads (source tables, joins, the targets of implicit joins, saved questions used as tables) and
// the fields it refers to outside those tables (template-tag fields, FK targets).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { queryMetadata as tableQueryMetadata, tablesQueryMetadata } from '../databases/table-metadata.js';
import { virtualTableMetadata } from '../databases/saved-questions.js';
import { databaseJson, fieldJson } from '../databases/json.js';
import { normalizeQuery } from './mbql/normalize.js';
import { walkClauses } from './mbql/clauses.js';
import type { MbqlQuery, NativeSource, TemplateTag } from './mbql/types.js';

type Obj = Record<string, unknown>;

function references(query: Obj): { databaseId: number | null; tableIds: Set<number>; cardIds: Set<number>; fieldIds: Set<number> } {
  const tableIds = new Set<number>();
  const cardIds = new Set<number>();
  const fieldIds = new Set<number>();
  let q;
  try {
    q = normalizeQuery(query);
  } catch {
    return { databaseId: null, tableIds, cardIds, fieldIds };
  }
  const fromTags = (tags: Record<string, TemplateTag> | undefined) => {
    for (const tag of Object.values(tags ?? {})) {
      if (tag.type === 'dimension') walkClauses(tag.dimension, (c) => c[0] === 'field' && typeof c[1] === 'number' && fieldIds.add(c[1]));
      if (tag.type === 'card' && Number(tag['card-id']) > 0) cardIds.add(Number(tag['card-id']));
    }
  };
  const visit = (stage: MbqlQuery | NativeSource | undefined) => {
    if (!stage) return;
    if ('native' in stage) return fromTags((stage as NativeSource)['template-tags']);
    const s = stage as MbqlQuery;
    for (const src of [s['source-table'], ...(s.joins ?? []).map((j) => j['source-table'])]) {
      if (typeof src === 'number') tableIds.add(src);
      const m = typeof src === 'string' ? /^card__(\d+)$/.exec(src) : null;
      if (m) cardIds.add(Number(m[1]));
    }
    walkClauses([s.fields, s.breakout, s.aggregation, s.filter, s['order-by'], s.expressions, (s.joins ?? []).map((j) => [j.condition, j.fields])], (c) => {
      if (c[0] !== 'field') return;
      if (typeof c[1] === 'number') fieldIds.add(c[1]);
      const sf = (c[2] as Obj | null)?.['source-field'];
      if (typeof sf === 'number') fieldIds.add(sf);
    });
    visit(s['source-query']);
    for (const j of s.joins ?? []) visit(j['source-query']);
  };
  if (q.type === 'native') fromTags(q.native?.['template-tags']);
  else visit(q.query);
  return { databaseId: typeof q.database === 'number' && q.database > 0 ? q.database : null, tableIds, cardIds, fieldIds };
}

/**
 * What one request already looked up, shared by the queries it describes: a dashboard's cards mostly read the same
 * few tables of one database, through the same fields.
 */
export interface MetadataMemo {
  /** Table descriptions by table id. */
  tables: Map<number, Promise<Obj | null>>;
  /** The table an implicit join through a field reads (its FK target's table; null: not a foreign key), by field id. */
  fkTables: Map<number, Promise<number | null>>;
  /** Database rows, by the sorted list of database ids. */
  databases: Map<string, Promise<DatabaseRows>>;
}

type DatabaseRows = Array<Parameters<typeof databaseJson>[1]>;

export function newMetadataMemo(): MetadataMemo {
  return { tables: new Map(), fkTables: new Map(), databases: new Map() };
}

function memoized<V>(memo: Map<string, Promise<V>>, ids: Iterable<number>, load: (ids: number[]) => Promise<V>): Promise<V> {
  const list = [...ids].sort((a, b) => a - b);
  const key = list.join(',');
  let value = memo.get(key);
  if (!value) memo.set(key, (value = load(list)));
  return value;
}

/** Field id → the table of its FK target (null when it has none), for fields not looked up yet. */
async function loadFkTables(ctx: AppContext, fieldIds: number[]): Promise<Map<number, number | null>> {
  const fks = await ctx.db.selectFrom('metabase_field').select(['id', 'fk_target_field_id']).where('id', 'in', fieldIds).execute();
  const targets = [...new Set(fks.map((f) => f.fk_target_field_id).filter((x): x is number => typeof x === 'number'))];
  const targetRows = targets.length ? await ctx.db.selectFrom('metabase_field').select(['id', 'table_id']).where('id', 'in', targets).execute() : [];
  const tableOf = new Map(targetRows.map((t) => [t.id, t.table_id]));
  return new Map(fks.map((f) => [f.id, f.fk_target_field_id === null ? null : tableOf.get(f.fk_target_field_id) ?? null]));
}

/** The tables that implicit joins through these fields read. */
async function fkTargetTables(ctx: AppContext, memo: MetadataMemo, fieldIds: Set<number>): Promise<number[]> {
  const missing = [...fieldIds].filter((id) => !memo.fkTables.has(id));
  if (missing.length) {
    const loaded = loadFkTables(ctx, missing);
    for (const id of missing) memo.fkTables.set(id, loaded.then((m) => m.get(id) ?? null));
  }
  const tables = await Promise.all([...fieldIds].map((id) => memo.fkTables.get(id)!));
  return tables.filter((t): t is number => t !== null);
}

const DESCRIBED = { includeSensitive: false, includeHidden: false };

/**
 * Looks up, all at once, the tables that several queries read (their source tables, joins and implicit joins), so
 * that describing each query afterwards with the same memo costs no more statements for tables.
 */
export async function prefetchQueryMetadata(ctx: AppContext, caller: Caller, queries: Obj[], memo: MetadataMemo): Promise<void> {
  const refs = queries.map(references);
  const fieldIds = new Set(refs.flatMap((r) => [...r.fieldIds]));
  const viaKeys = fieldIds.size ? await fkTargetTables(ctx, memo, fieldIds) : [];
  const tableIds = [...new Set([...refs.flatMap((r) => [...r.tableIds]), ...viaKeys])].filter((id) => !memo.tables.has(id));
  if (!tableIds.length) return;
  // Tables missing or out of the caller's reach are simply not described, as one at a time.
  const described = tablesQueryMetadata(ctx, caller, tableIds, DESCRIBED).catch(() => new Map<number, Obj>());
  for (const id of tableIds) memo.tables.set(id, described.then((tables) => tables.get(id) ?? null));
}

export async function queryMetadata(ctx: AppContext, caller: Caller, query: Obj, memo: MetadataMemo = newMetadataMemo()) {
  const refs = references(query);
  if (refs.fieldIds.size) {
    // Implicit joins read the FK targets' tables too.
    for (const tableId of await fkTargetTables(ctx, memo, refs.fieldIds)) refs.tableIds.add(tableId);
  }
  const described = memo.tables;
  const tables: Obj[] = [];
  for (const tableId of refs.tableIds) {
    let table = described.get(tableId);
    if (!table) {
      // a table that no longer exists is simply not described
      table = tableQueryMetadata(ctx, caller, tableId, DESCRIBED).catch(() => null);
      described.set(tableId, table);
    }
    const json = await table;
    if (json) tables.push(json);
  }
  for (const cardId of refs.cardIds) {
    const virtual = await virtualTableMetadata(ctx, caller, cardId);
    if (virtual) tables.push(virtual);
  }
  const inTables = new Set(tables.flatMap((t) => (Array.isArray(t.fields) ? (t.fields as Obj[]).map((f) => f.id) : [])));
  const extra = [...refs.fieldIds].filter((id) => !inTables.has(id));
  const fieldRows = extra.length ? await ctx.db.selectFrom('metabase_field').selectAll().where('id', 'in', extra).execute() : [];
  const databaseIds = new Set<number>(refs.databaseId ? [refs.databaseId] : []);
  for (const t of tables) if (Number.isInteger(t.db_id) && Number(t.db_id) > 0) databaseIds.add(Number(t.db_id));
  const databases = databaseIds.size
    ? await memoized(memo.databases, databaseIds, (ids) => ctx.db.selectFrom('metabase_database').selectAll().where('id', 'in', ids).execute())
    : [];
  return {
    databases: databases.map((row) => databaseJson(ctx, row, caller)),
    tables,
    fields: fieldRows.map((row) => fieldJson(row)),
  };
}
