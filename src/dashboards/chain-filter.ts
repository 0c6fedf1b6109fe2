// Dashboard filter values (reference §7.5): GET …/params/:key/values and …/search/:query. A parameter's values come
// from its static list or source card, or from the fields it is wired to — narrowed by the values of the dashboard's
// other parameters ("chain filters", `?<other parameter id>=value`). Constraints on fields of other tables are
// reached by joining along foreign keys (the shortest path, either direction); a constraint with no path is left out.
//
// Without constraints a field keeping a list of values answers from its cached field values (when complete, for a
// search); otherwise one DISTINCT query per field runs through the query engine, the search text filtering in SQL
// (non-text values compared as text). At most 1,000 values, with `has_more_values`.
//
// GET /api/dashboard/params/valid-filter-fields tells which filtering fields could narrow a filtered field.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { parameterValuesCaller } from '../permissions/sharing.js';
import { viewableFieldIds } from '../permissions/data-access.js';
import type { MetabaseFieldTable } from '../databases/tables.js';
import { loadFieldValues, valuePairs } from '../databases/field-values.js';
import { cardsByIds } from '../cards/store.js';
import { runQueryToMemory } from '../query/index.js';
import { parameterValues as sourcedValues } from '../query/parameter-values.js';
import type { Clause } from '../query/mbql/types.js';
import { readableDashboard } from './dashboards.js';
import { dashcardsOf, parametersOf, type DashboardRow } from './store.js';
import { parameterFieldIds } from './parameters.js';

type Obj = Record<string, unknown>;
type FieldRow = Selectable<MetabaseFieldTable>;

export const VALUES_LIMIT = 1000;

export interface ValuesResult {
  values: unknown[][];
  has_more_values: boolean;
}

interface Constraint {
  type: string;
  value: unknown;
  fieldIds: number[];
}

// ----- the foreign-key graph of one database ------------------------------------------------------------------------

interface Edge {
  /** The table reached. */
  to: number;
  /** Field on the table we come from, and on the table reached, that are equal. */
  fromField: number;
  toField: number;
}

/** Tables of a database as a graph whose edges are foreign keys, walkable both ways. */
export async function foreignKeyGraph(ctx: AppContext, databaseId: number): Promise<Map<number, Edge[]>> {
  const fks = await ctx.db
    .selectFrom('metabase_field as f')
    .innerJoin('metabase_table as t', 't.id', 'f.table_id')
    .innerJoin('metabase_field as target', 'target.id', 'f.fk_target_field_id')
    .select(['f.id as fk', 'f.table_id as from_table', 'target.id as target', 'target.table_id as to_table'])
    .where('t.db_id', '=', databaseId)
    .where('f.active', '=', true)
    .where('target.active', '=', true)
    .execute();
  const graph = new Map<number, Edge[]>();
  const add = (from: number, edge: Edge) => {
    const list = graph.get(from) ?? [];
    list.push(edge);
    graph.set(from, list);
  };
  for (const r of fks) {
    if (r.from_table === r.to_table) continue;
    add(r.from_table, { to: r.to_table, fromField: r.fk, toField: r.target });
    add(r.to_table, { to: r.from_table, fromField: r.target, toField: r.fk });
  }
  return graph;
}

/** The edges of the shortest path from one table to another (empty for the same table), or null when none. */
export function joinPath(graph: Map<number, Edge[]>, from: number, to: number): Edge[] | null {
  if (from === to) return [];
  const previous = new Map<number, { table: number; edge: Edge }>();
  const queue = [from];
  const seen = new Set([from]);
  while (queue.length) {
    const table = queue.shift()!;
    for (const edge of [...(graph.get(table) ?? [])].sort((a, b) => a.fromField - b.fromField)) {
      if (seen.has(edge.to)) continue;
      seen.add(edge.to);
      previous.set(edge.to, { table, edge });
      if (edge.to === to) {
        const path: Edge[] = [];
        let at = to;
        while (at !== from) {
          const step = previous.get(at)!;
          path.unshift(step.edge);
          at = step.table;
        }
        return path;
      }
      queue.push(edge.to);
    }
  }
  return null;
}

// ----- values of one field ---------------------------------------------------------------------------------------

const NUMERIC = /^type\/(Integer|BigInteger|Float|Decimal|Number|Currency)$/;

function typeOf(field: FieldRow): string {
  return field.effective_type ?? field.base_type;
}

/** Query-string values arrive as strings: numbers for numeric fields, as numbers. */
function typedValue(value: unknown, field: FieldRow | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => typedValue(v, field));
  if (field && typeof value === 'string' && NUMERIC.test(typeOf(field)) && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (field && typeof value === 'string' && typeOf(field) === 'type/Boolean' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}

function matches(pair: unknown[], search: string | null): boolean {
  if (search === null) return true;
  const s = search.toLowerCase();
  return pair.some((v) => v !== null && v !== undefined && String(v).toLowerCase().includes(s));
}

/** The field shown for a field's values: an external remapping (dimension), if any. */
async function labelFields(ctx: AppContext, fieldIds: number[]): Promise<Map<number, number>> {
  if (fieldIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('dimension')
    .select(['field_id', 'human_readable_field_id'])
    .where('field_id', 'in', fieldIds)
    .where('type', '=', 'external')
    .execute();
  return new Map(rows.filter((r) => r.human_readable_field_id !== null).map((r) => [r.field_id, r.human_readable_field_id as number]));
}

async function distinctValues(
  ctx: AppContext,
  caller: Caller | null,
  field: FieldRow,
  databaseId: number,
  label: number | null,
  constraints: Constraint[],
  fields: Map<number, FieldRow>,
  search: string | null,
): Promise<ValuesResult> {
  const ref: Clause = ['field', field.id, null];
  const labelRef: Clause | null = label === null ? null : ['field', label, { 'source-field': field.id }];
  const parameters: Obj[] = [];
  const joins: Obj[] = [];
  const constraining = constraints.flatMap((c) => c.fieldIds.map((id) => ({ c, f: fields.get(id) }))).filter((x) => x.f);
  const graph = constraining.some((x) => x.f!.table_id !== field.table_id) ? await foreignKeyGraph(ctx, databaseId) : new Map<number, Edge[]>();
  const aliasOf = new Map<number, string | null>([[field.table_id, null]]);
  for (const { c, f } of constraining) {
    const path = joinPath(graph, field.table_id, f!.table_id);
    if (path === null) continue;
    let at = field.table_id;
    for (const edge of path) {
      if (!aliasOf.has(edge.to)) {
        const alias = `chain_${edge.to}`;
        const fromAlias = aliasOf.get(at) ?? null;
        joins.push({
          'source-table': edge.to,
          alias,
          condition: ['=', ['field', edge.fromField, fromAlias ? { 'join-alias': fromAlias } : null], ['field', edge.toField, { 'join-alias': alias }]],
          fields: 'none',
          strategy: 'left-join',
        });
        aliasOf.set(edge.to, alias);
      }
      at = edge.to;
    }
    const alias = aliasOf.get(f!.table_id) ?? null;
    parameters.push({ type: c.type, value: typedValue(c.value, f), target: ['dimension', ['field', f!.id, alias ? { 'join-alias': alias } : null]] });
  }
  const filters: Clause[] = [['not-null', ref]];
  // Search runs in the database: on the label, or the value itself — numbers and other non-text values compared as
  // their text (2499 found by "249"), as Metabase searches them.
  if (search !== null) filters.push(['contains', labelRef ?? ref, search, { 'case-sensitive': false }]);
  const limit = VALUES_LIMIT + 1;
  const result = await runQueryToMemory(ctx, {
    query: {
      database: databaseId,
      type: 'query',
      query: {
        'source-table': field.table_id,
        ...(joins.length ? { joins } : {}),
        breakout: labelRef ? [ref, labelRef] : [ref],
        filter: filters.length === 1 ? filters[0] : ['and', ...filters],
        'order-by': [['asc', labelRef ?? ref]],
        limit,
      },
    },
    parameters,
    caller,
    // The caller may read the dashboard, and only fields wired to it are read: no data permissions are asked, as
    // Metabase's parameter-values queries (public links and embeds run this with no caller at all).
    skipPermissionCheck: true,
    context: 'ad-hoc',
    constraints: { 'max-results': limit, 'max-results-bare-rows': limit },
  });
  if (result.status !== 'completed') {
    if (result.error_type === 'missing-required-permissions') throw forbidden();
    throw new ApiError(400, { message: String(result.error ?? 'Error running query') });
  }
  const pairs = result.data.rows.map((r) => (labelRef ? [r[0], r[1]] : [r[0]]));
  return { values: pairs.slice(0, VALUES_LIMIT), has_more_values: result.data.rows.length > VALUES_LIMIT };
}

/** Values of the fields, narrowed by the constraints and the search text; merged and sorted. */
export async function chainFilterValues(ctx: AppContext, caller: Caller | null, fieldIds: number[], constraints: Constraint[], search: string | null): Promise<ValuesResult> {
  const allIds = [...new Set([...fieldIds, ...constraints.flatMap((c) => c.fieldIds)])];
  const rows = allIds.length ? await ctx.db.selectFrom('metabase_field').selectAll().where('id', 'in', allIds).execute() : [];
  const fields = new Map(rows.map((r) => [r.id, r]));
  const tables = new Map(
    rows.length
      ? (await ctx.db.selectFrom('metabase_table').select(['id', 'db_id']).where('id', 'in', [...new Set(rows.map((r) => r.table_id))]).execute()).map((t) => [t.id, t.db_id])
      : [],
  );
  const targets = fieldIds.map((id) => fields.get(id)).filter((f): f is FieldRow => f !== undefined);
  const [labels, cached] = await Promise.all([
    labelFields(ctx, targets.map((f) => f.id)),
    constraints.length === 0 ? loadFieldValues(ctx, targets.filter((f) => f.has_field_values === 'list' || f.has_field_values === 'auto-list').map((f) => f.id)) : Promise.resolve(new Map()),
  ]);
  const seen = new Set<string>();
  const values: unknown[][] = [];
  let more = false;
  for (const field of targets) {
    const databaseId = tables.get(field.table_id);
    if (databaseId === undefined) continue;
    // only constraints on fields of the same database can narrow this one
    const own = constraints
      .map((c) => ({ ...c, fieldIds: c.fieldIds.filter((id) => fields.has(id) && tables.get(fields.get(id)!.table_id) === databaseId) }))
      .filter((c) => c.fieldIds.length);
    const stored = cached.get(field.id);
    // cached values answer when they are all the values there are (a search can't miss any)
    const result =
      own.length === 0 && stored && !labels.has(field.id) && (search === null || !stored.hasMoreValues)
        ? { values: valuePairs(stored).filter((p) => matches(p, search)), has_more_values: stored.hasMoreValues }
        : await distinctValues(ctx, caller, field, databaseId, labels.get(field.id) ?? null, own, fields, search);
    more ||= result.has_more_values;
    for (const pair of result.values) {
      const key = JSON.stringify(pair[0]);
      if (seen.has(key)) continue;
      seen.add(key);
      values.push(pair);
    }
  }
  if (targets.length > 1) values.sort((a, b) => compareValues(a[a.length - 1], b[b.length - 1]));
  return { values: values.slice(0, VALUES_LIMIT), has_more_values: more || values.length > VALUES_LIMIT };
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

// ----- endpoints -------------------------------------------------------------------------------------------------

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}

export async function dashboardParameterValues(
  ctx: AppContext,
  caller: Caller,
  dashboardId: number,
  key: string,
  query: Record<string, unknown>,
  search: string | null,
): Promise<ValuesResult> {
  const access = await collectionAccess(ctx, caller);
  const dashboard = await readableDashboard(ctx, access, dashboardId);
  return parameterValuesOfDashboard(ctx, caller, dashboard, key, query, search);
}

/**
 * The values of a dashboard's filter, narrowed by the other filters' values (`query`: parameter id → value), for a
 * dashboard already known to be readable (through a session, a public link or an embedding token).
 */
export async function parameterValuesOfDashboard(
  ctx: AppContext,
  caller: Caller,
  dashboard: DashboardRow,
  key: string,
  query: Record<string, unknown>,
  search: string | null,
): Promise<ValuesResult> {
  const dashboardId = dashboard.id;
  const parameters = parametersOf(dashboard);
  const parameter = parameters.find((p) => p.id === key);
  if (!parameter) throw badRequest(`Dashboard does not have a parameter with the ID ${JSON.stringify(key)}.`);
  if (parameter.values_source_type === 'static-list' || parameter.values_source_type === 'card') {
    return sourcedValues(ctx, caller, parameter, [], search);
  }
  const dashcards = await dashcardsOf(ctx.db, [dashboardId]);
  const cards = await cardsByIds(ctx.db, dashcards.map((d) => d.card_id).filter((id): id is number => id !== null));
  const wiring = parameterFieldIds(dashcards, cards);
  const wired = [...(wiring.get(key) ?? [])];
  if (wired.length === 0) throw badRequest(`Parameter ${JSON.stringify(key)} does not have any Fields associated with it`);
  // Fields whose data is blocked for the caller neither offer values nor narrow others (a narrowing answers
  // questions about the blocked rows too).
  const viewable = await viewableFieldIds(ctx, caller, [...wiring.values()].flatMap((ids) => [...ids]));
  const fieldIds = wired.filter((id) => viewable.has(id));
  if (fieldIds.length === 0) return { values: [], has_more_values: false };
  const constraints: Constraint[] = [];
  for (const other of parameters) {
    const id = other.id;
    if (typeof id !== 'string' || id === key || !hasValue(query[id])) continue;
    const ids = [...(wiring.get(id) ?? [])].filter((f) => viewable.has(f));
    if (ids.length) constraints.push({ type: String(other.type ?? 'category'), value: query[id], fieldIds: ids });
  }
  return chainFilterValues(ctx, parameterValuesCaller(caller), fieldIds, constraints, search);
}

/** For each filtered field, the filtering fields that could narrow it (same table, or joined by foreign keys). */
export async function validFilterFields(ctx: AppContext, _caller: Caller, filtered: number[], filtering: number[]): Promise<Record<string, number[]>> {
  const ids = [...new Set([...filtered, ...filtering])];
  const rows = ids.length
    ? await ctx.db
        .selectFrom('metabase_field')
        .innerJoin('metabase_table', 'metabase_table.id', 'metabase_field.table_id')
        .select(['metabase_field.id as id', 'metabase_field.table_id as table_id', 'metabase_field.active as active', 'metabase_table.db_id as db_id'])
        .where('metabase_field.id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) if (!byId.has(id)) throw notFound();
  const graphs = new Map<number, Map<number, Edge[]>>();
  const graphOf = async (db: number) => {
    if (!graphs.has(db)) graphs.set(db, await foreignKeyGraph(ctx, db));
    return graphs.get(db)!;
  };
  const out: Record<string, number[]> = {};
  for (const id of new Set(filtered)) {
    const field = byId.get(id)!;
    const usable: number[] = [];
    for (const other of new Set(filtering)) {
      const f = byId.get(other)!;
      if (other === id || f.db_id !== field.db_id || !bool(f.active)) continue;
      if (f.table_id === field.table_id || joinPath(await graphOf(field.db_id), field.table_id, f.table_id) !== null) usable.push(other);
    }
    out[String(id)] = usable.sort((a, b) => a - b);
  }
  return out;
}
