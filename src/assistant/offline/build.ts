// A Plan → an MBQL query on the database (or a model, `card__N`), and the card's display, name and
// visualization settings as Metabase's assistant returned them.

import type { Filter, Plan, Ref } from './plan.js';

export type FieldRefMaker = (ref: Ref, options: Record<string, unknown>) => unknown[];

/** Field refs by id (tables), with `source-field` for columns reached through a foreign key. */
export const fieldIdRef: FieldRefMaker = (ref, options) => {
  const opts = { ...options, ...(ref.via ? { 'source-field': ref.via.id } : {}) };
  return ['field', ref.column.id, Object.keys(opts).length ? opts : null];
};

function filterClause(f: Filter, field: (ref: Ref, o?: Record<string, unknown>) => unknown[]): unknown[] {
  switch (f.kind) {
    case 'equals':
      return [f.negate ? '!=' : '=', field(f.ref), ...f.values];
    case 'compare':
      return [f.op, field(f.ref), f.value];
    case 'between-numbers':
      return ['between', field(f.ref), Math.min(f.from, f.to), Math.max(f.from, f.to)];
    case 'interval':
      return ['time-interval', field(f.ref), f.n, f.unit];
    case 'dates':
      return f.op === 'between' ? ['between', field(f.ref), f.from, f.to] : [f.op, field(f.ref), f.from];
    case 'present':
      // "accounts with an active subscription": a yes/no column is true, anything else is filled in
      if (/^type\/Boolean/.test(f.ref.column.baseType)) return ['=', field(f.ref), !f.negate];
      return [f.negate ? 'is-null' : 'not-null', field(f.ref)];
  }
}

export function planToMbql(plan: Plan, databaseId: number, sourceTable: number | string, makeRef: FieldRefMaker = fieldIdRef): Record<string, unknown> {
  const field = (ref: Ref, o: Record<string, unknown> = {}) => makeRef(ref, o);
  const query: Record<string, unknown> = { 'source-table': sourceTable };
  if (plan.aggregation) query.aggregation = [plan.aggregation.ref ? [plan.aggregation.op, field(plan.aggregation.ref)] : ['count']];
  if (plan.breakouts.length) query.breakout = plan.breakouts.map((b) => field(b.ref, b.unit ? { 'temporal-unit': b.unit } : {}));
  const filters = plan.filters.map((f) => filterClause(f, field));
  if (filters.length === 1) query.filter = filters[0];
  if (filters.length > 1) query.filter = ['and', ...filters];
  if (plan.order) query['order-by'] = [[plan.order.direction, plan.order.target === 'aggregation' ? ['aggregation', 0] : field(plan.order.target)]];
  if (plan.limit !== null) query.limit = plan.limit;
  return { database: databaseId, type: 'query', query };
}

const OP_NAMES: Record<string, string> = { count: 'Count', sum: 'Sum', avg: 'Average', min: 'Minimum', max: 'Maximum', distinct: 'Distinct values', median: 'Median' };

/** The card's name, display and visualization settings (Metabase's infer_viz shapes). */
export function describePlan(plan: Plan): { name: string; display: string; visualization_settings: Record<string, unknown> } {
  const agg = plan.aggregation;
  const metric = agg ? (agg.ref ? `${OP_NAMES[agg.op]} of ${agg.ref.column.displayName}` : `Count of ${plan.table.displayName}`) : plan.table.displayName;
  const by = plan.breakouts.map((b) => (b.unit ? `${b.ref.column.displayName}: ${b.unit[0].toUpperCase()}${b.unit.slice(1)}` : b.ref.column.displayName));
  const name = by.length ? `${metric} by ${by.join(' and ')}` : metric;
  if (!agg) return { name, display: 'table', visualization_settings: {} };
  const metricName = agg.op === 'count' ? 'count' : agg.op;
  if (!plan.breakouts.length) return { name, display: 'scalar', visualization_settings: { 'graph.metrics': [metricName], 'graph.dimensions': [] } };
  const temporal = plan.breakouts.some((b) => b.unit);
  const display = plan.breakouts.length > 2 ? 'table' : temporal ? 'line' : 'bar';
  return { name, display, visualization_settings: display === 'table' ? {} : { 'graph.dimensions': plan.breakouts.map((b) => b.ref.column.name), 'graph.metrics': [metricName] } };
}
