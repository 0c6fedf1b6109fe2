// The simple builder's question ↔ MBQL. A builder state is what the person picked (table, filters, summaries,
// groupings, sort, limit); `toMbql` writes the query the server runs, `fromMbql` reads back the queries it wrote (and
// a bare table), returning null for anything richer (joins, expressions, nested queries) so it's never mangled.

export type FilterOp = '=' | '!=' | '>' | '<' | '>=' | '<=' | 'between' | 'contains' | 'does-not-contain' | 'starts-with' | 'is-null' | 'not-null' | 'past' ;
export type AggregationOp = 'count' | 'sum' | 'avg' | 'distinct' | 'min' | 'max' | 'cum-count' | 'cum-sum' | 'median' | 'stddev';
export type TemporalUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year' | 'hour-of-day' | 'day-of-week' | 'month-of-year' | 'quarter-of-year';

export interface BuilderFilter {
  fieldId: number;
  op: FilterOp;
  /** Values as typed or picked (numbers for number fields; for `past`: [count, unit]). */
  values: Array<string | number>;
}
export interface BuilderAggregation {
  op: AggregationOp;
  fieldId?: number;
}
export interface BuilderBreakout {
  fieldId: number;
  unit?: TemporalUnit;
  /** `default` binning, or a number of bins. */
  binning?: 'default' | number;
}
export interface BuilderSort {
  /** A breakout or aggregation (by position), or a field of the table when nothing is summarized. */
  target: { kind: 'breakout' | 'aggregation'; index: number } | { kind: 'field'; fieldId: number };
  direction: 'asc' | 'desc';
}
export interface BuilderState {
  databaseId: number | null;
  tableId: number | null;
  filters: BuilderFilter[];
  aggregations: BuilderAggregation[];
  breakouts: BuilderBreakout[];
  sort: BuilderSort[];
  limit: number | null;
  /** The query's `fields` (which columns raw rows show), kept as they came: the builder doesn't edit them. */
  fields?: unknown[];
}

export const EMPTY_STATE: BuilderState = { databaseId: null, tableId: null, filters: [], aggregations: [], breakouts: [], sort: [], limit: null };

/** Aggregations that need a column. */
export const NEEDS_FIELD: ReadonlySet<AggregationOp> = new Set(['sum', 'avg', 'distinct', 'min', 'max', 'cum-sum', 'median', 'stddev']);
/** Filter operators that take no value. */
export const NO_VALUE: ReadonlySet<FilterOp> = new Set(['is-null', 'not-null']);
const TEXT_OPS: ReadonlySet<string> = new Set(['contains', 'does-not-contain', 'starts-with']);

type Clause = unknown[];

const fieldRef = (id: number, options: Record<string, unknown> | null = null): Clause => ['field', id, options];

function breakoutRef(b: BuilderBreakout): Clause {
  if (b.unit) return fieldRef(b.fieldId, { 'temporal-unit': b.unit });
  if (b.binning === 'default') return fieldRef(b.fieldId, { binning: { strategy: 'default' } });
  if (typeof b.binning === 'number') return fieldRef(b.fieldId, { binning: { strategy: 'num-bins', 'num-bins': b.binning } });
  return fieldRef(b.fieldId);
}

function filterClause(f: BuilderFilter): Clause | null {
  const ref = fieldRef(f.fieldId);
  if (NO_VALUE.has(f.op)) return [f.op, ref];
  if (f.op === 'past') {
    const [count, unit] = f.values;
    return typeof count === 'number' && count > 0 && typeof unit === 'string' ? ['time-interval', ref, -count, unit] : null;
  }
  if (f.values.length === 0) return null;
  if (f.op === 'between') return f.values.length === 2 ? ['between', ref, f.values[0], f.values[1]] : null;
  if (TEXT_OPS.has(f.op)) return [f.op, ref, f.values[0], { 'case-sensitive': false }];
  if (f.op === '=' || f.op === '!=') return [f.op, ref, ...f.values];
  return [f.op, ref, f.values[0]];
}

function aggregationClause(a: BuilderAggregation): Clause | null {
  if (!NEEDS_FIELD.has(a.op)) return [a.op];
  return a.fieldId === undefined ? null : [a.op, fieldRef(a.fieldId)];
}

/** The MBQL `query` of a builder state (null until a table is picked). */
export function toMbql(state: BuilderState): { database: number; type: 'query'; query: Record<string, unknown> } | null {
  if (state.databaseId === null || state.tableId === null) return null;
  const query: Record<string, unknown> = { 'source-table': state.tableId };
  const filters = state.filters.map(filterClause).filter((c): c is Clause => c !== null);
  if (filters.length === 1) query.filter = filters[0];
  else if (filters.length > 1) query.filter = ['and', ...filters];
  const aggregations = state.aggregations.map(aggregationClause).filter((c): c is Clause => c !== null);
  if (aggregations.length > 0) query.aggregation = aggregations;
  if (state.breakouts.length > 0) query.breakout = state.breakouts.map(breakoutRef);
  const summarized = aggregations.length > 0 || state.breakouts.length > 0;
  if (state.fields && !summarized) query.fields = state.fields;
  const orderBy = state.sort.flatMap((s): Clause[] => {
    const t = s.target;
    if (t.kind === 'field') return summarized ? [] : [[s.direction, fieldRef(t.fieldId)]];
    if (t.kind === 'aggregation') return t.index < aggregations.length ? [[s.direction, ['aggregation', t.index]]] : [];
    const b = state.breakouts[t.index];
    return b ? [[s.direction, breakoutRef(b)]] : [];
  });
  if (orderBy.length > 0) query['order-by'] = orderBy;
  if (state.limit !== null && state.limit > 0) query.limit = state.limit;
  return { database: state.databaseId, type: 'query', query };
}

// ---- reading back --------------------------------------------------------------------------------------------

const isArr = Array.isArray;

function readField(ref: unknown): { id: number; options: Record<string, unknown> } | null {
  if (!isArr(ref) || ref[0] !== 'field' || typeof ref[1] !== 'number') return null;
  const options = ref[2] && typeof ref[2] === 'object' ? (ref[2] as Record<string, unknown>) : {};
  return { id: ref[1], options };
}

function readBreakout(ref: unknown): BuilderBreakout | null {
  const f = readField(ref);
  if (!f) return null;
  const b: BuilderBreakout = { fieldId: f.id };
  if (typeof f.options['temporal-unit'] === 'string') b.unit = f.options['temporal-unit'] as TemporalUnit;
  const binning = f.options.binning as Record<string, unknown> | undefined;
  if (binning?.strategy === 'default') b.binning = 'default';
  else if (binning?.strategy === 'num-bins' && typeof binning['num-bins'] === 'number') b.binning = binning['num-bins'];
  else if (binning) return null;
  return b;
}

function readFilter(clause: unknown): BuilderFilter | null {
  if (!isArr(clause) || typeof clause[0] !== 'string') return null;
  const f = readField(clause[1]);
  if (!f || Object.keys(f.options).length > 0) return null;
  const [op, , ...rest] = clause as [string, unknown, ...unknown[]];
  const scalars = rest.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  if (op === 'time-interval' && typeof rest[0] === 'number' && rest[0] < 0 && typeof rest[1] === 'string') return { fieldId: f.id, op: 'past', values: [-rest[0], rest[1]] };
  if (op === 'is-null' || op === 'not-null') return { fieldId: f.id, op, values: [] };
  if (['=', '!=', '>', '<', '>=', '<=', 'between', 'contains', 'does-not-contain', 'starts-with'].includes(op)) {
    return { fieldId: f.id, op: op as FilterOp, values: TEXT_OPS.has(op) ? scalars.slice(0, 1) : scalars };
  }
  return null;
}

function readAggregation(clause: unknown): BuilderAggregation | null {
  if (!isArr(clause) || typeof clause[0] !== 'string') return null;
  const op = clause[0] as AggregationOp;
  if (!NEEDS_FIELD.has(op)) return ['count', 'cum-count'].includes(op) && clause.length === 1 ? { op } : null;
  const f = readField(clause[1]);
  return f ? { op, fieldId: f.id } : null;
}

/** The builder state of an MBQL dataset query, or null when the builder can't show all of it. */
export function fromMbql(datasetQuery: { database?: unknown; type?: unknown; query?: unknown; [key: string]: unknown }): BuilderState | null {
  const q = datasetQuery.query as Record<string, unknown> | undefined;
  const database = typeof datasetQuery.database === 'number' ? datasetQuery.database : null;
  if (datasetQuery.type === 'query' && (!q || Object.keys(q).length === 0)) return { ...EMPTY_STATE, databaseId: database };
  if (datasetQuery.type !== 'query' || !q || typeof q['source-table'] !== 'number' || typeof datasetQuery.database !== 'number') return null;
  const known = new Set(['source-table', 'fields', 'filter', 'aggregation', 'breakout', 'order-by', 'limit']);
  if (Object.keys(q).some((k) => !known.has(k))) return null;
  const state: BuilderState = { ...EMPTY_STATE, databaseId: datasetQuery.database, tableId: q['source-table'] };
  if (q.fields !== undefined) {
    if (!isArr(q.fields) || !q.fields.every((f) => readField(f) !== null)) return null;
    state.fields = q.fields;
  }
  if (q.filter !== undefined) {
    const list = isArr(q.filter) && q.filter[0] === 'and' ? q.filter.slice(1) : [q.filter];
    const filters = list.map(readFilter);
    if (filters.some((f) => f === null)) return null;
    state.filters = filters as BuilderFilter[];
  }
  const list = <T>(value: unknown, read: (x: unknown) => T | null): T[] | null => {
    if (value === undefined) return [];
    if (!isArr(value)) return null;
    const items = value.map(read);
    return items.some((x) => x === null) ? null : (items as T[]);
  };
  const aggregations = list(q.aggregation, readAggregation);
  const breakouts = list(q.breakout, readBreakout);
  if (!aggregations || !breakouts) return null;
  state.aggregations = aggregations;
  state.breakouts = breakouts;
  state.sort = [];
  if (q['order-by'] !== undefined) {
    if (!isArr(q['order-by'])) return null;
    for (const clause of q['order-by']) {
      if (!isArr(clause) || (clause[0] !== 'asc' && clause[0] !== 'desc')) return null;
      const direction = clause[0];
      const ref = clause[1];
      if (isArr(ref) && ref[0] === 'aggregation' && typeof ref[1] === 'number') {
        state.sort.push({ target: { kind: 'aggregation', index: ref[1] }, direction });
        continue;
      }
      const b = readBreakout(ref);
      if (!b) return null;
      const at = state.breakouts.findIndex((x) => x.fieldId === b.fieldId && x.unit === b.unit && x.binning === b.binning);
      if (at >= 0) state.sort.push({ target: { kind: 'breakout', index: at }, direction });
      else if (!b.unit && b.binning === undefined) state.sort.push({ target: { kind: 'field', fieldId: b.fieldId }, direction });
      else return null;
    }
  }
  if (q.limit !== undefined) {
    if (typeof q.limit !== 'number') return null;
    state.limit = q.limit;
  }
  return state;
}
