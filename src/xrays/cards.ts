// From a template and the bound fields to the cards of an X-ray: every card template is grounded on the fields of
// its dimensions and metrics (one card per combination, the best few kept), given a query on the source, a title
// and chart settings. Cards whose dimensions aren't bound, or whose breakout can't say anything (one value, a number
// that never varies, a field a cell already fixes), are left out. Nothing here reads a database.

import { isa } from '../databases/type-hierarchy.js';
import { fieldKey, type Binding, type Bindings } from './bind.js';
import { fill, hasPlaceholder, unitWords } from './names.js';
import { distinctCount, refWith, type XField, type XSource } from './source.js';
import type { CardTemplate, MetricDef, Template } from './templates/index.js';

type Obj = Record<string, unknown>;

export interface PlannedCard {
  title: string;
  description: string | null;
  group: string;
  display: string;
  width: number;
  height: number;
  score: number;
  /** The inner MBQL query, on the source. */
  query: Obj;
  /** The card's own filter (without the root's), for the other side of a comparison. */
  ownFilter: unknown[] | null;
  settings: Obj;
}

/** A metric grounded on a field (or on none: count, a question's own aggregation). */
interface MetricInstance {
  clause: unknown[];
  title: string;
  columnName: string;
  score: number;
  values: Record<string, string>;
}

export interface PlanInput {
  template: Template;
  source: XSource;
  bindings: Bindings;
  /** {{this}} in card titles. */
  thisName: string;
  /** Filter of the root (segment, question, cell), applied to every card. */
  rootFilter: unknown[] | null;
  /** Fields a cell's `=` fixes: never a breakout. */
  fixed: Set<string>;
  /** An aggregated question's aggregations, as the `Metric` metric (GenericMetric). */
  metric?: { clause: unknown[]; title: string; columnName: string };
}

export function fieldTitle(field: XField): string {
  return field.viaName ? `${field.viaName} → ${field.displayName}` : field.displayName;
}

const COLUMN_NAMES: Record<string, string> = { count: 'count', distinct: 'count', sum: 'sum', avg: 'avg', min: 'min', max: 'max', stddev: 'stddev' };

function metricInstances(def: MetricDef, input: PlanInput): MetricInstance[] {
  if (def.name === 'Metric' && input.metric) return [{ ...input.metric, score: 100, values: { Metric: input.metric.title } }];
  if (def.aggregation === 'count') return [{ clause: ['count'], title: fill(def.title, { this: input.thisName }), columnName: 'count', score: 100, values: {} }];
  const bound = (def.dimension && input.bindings.get(def.dimension)) || [];
  return bound
    .filter((b) => def.aggregation === 'distinct' || isa(b.field.effectiveType, 'type/Number') || isa(b.field.baseType, 'type/Number'))
    .slice(0, 3)
    .map((b) => {
      const values = { this: input.thisName, [def.dimension as string]: fieldTitle(b.field) };
      return { clause: [def.aggregation, b.field.ref], title: fill(def.title, values), columnName: COLUMN_NAMES[def.aggregation], score: b.score, values };
    });
}

/** The temporal unit a time breakout gets from the field's span (fingerprint); day without one. */
export function unitFromSpan(field: XField): string {
  const dt = field.fingerprint?.type?.['type/DateTime'];
  const dateOnly = isa(field.effectiveType, 'type/Date');
  if (!dt?.earliest || !dt.latest) return 'day';
  const hours = (Date.parse(dt.latest) - Date.parse(dt.earliest)) / 3_600_000;
  if (!Number.isFinite(hours)) return 'day';
  if (!dateOnly && hours < 3) return 'minute';
  if (!dateOnly && hours < 24 * 7) return 'hour';
  if (hours < 24 * 183) return 'day';
  if (hours < 24 * 365 * 10) return 'month';
  return 'year';
}

const isTemporal = (f: XField) => isa(f.effectiveType, 'type/Temporal');
const isNumber = (f: XField) => isa(f.effectiveType, 'type/Number');

/** Every combination of one item from each list, in order. */
function product<T>(lists: T[][]): T[][] {
  return lists.reduce<T[][]>((acc, list) => acc.flatMap((combo) => list.map((item) => [...combo, item])), [[]]);
}

export function andFilters(parts: Array<unknown[] | null | undefined>): unknown[] | null {
  const flat = parts.filter((p): p is unknown[] => Array.isArray(p)).flatMap((p) => (p[0] === 'and' ? p.slice(1) : [p]));
  if (flat.length === 0) return null;
  return flat.length === 1 ? (flat[0] as unknown[]) : ['and', ...flat];
}

function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n}_${k}`;
  });
}

function planOne(card: CardTemplate, input: PlanInput, metrics: MetricInstance[], dims: Binding[]): PlannedCard | null {
  const breakout: unknown[] = [];
  let unit: string | null = null;
  const values: Record<string, string> = { this: input.thisName };
  for (const m of metrics) Object.assign(values, m.values);
  for (const [i, spec] of (card.dimensions ?? []).entries()) {
    const field = dims[i].field;
    if (input.fixed.has(fieldKey(field))) return null;
    const distinct = distinctCount(field);
    if (distinct !== null && distinct < 2) return null;
    if (card.maxDistinct !== undefined && distinct !== null && distinct > card.maxDistinct) return null;
    values[spec.dimension] = fieldTitle(field);
    if (isTemporal(field)) {
      const u = spec.unit ?? unitFromSpan(field);
      if (['hour-of-day', 'minute', 'hour'].includes(u) && !isa(field.effectiveType, 'type/DateTime')) return null;
      unit = u;
      breakout.push(refWith(field, { 'temporal-unit': u }));
    } else if (spec.unit) {
      return null;
    } else if (spec.binning) {
      const n = field.fingerprint?.type?.['type/Number'];
      if (!isNumber(field) || (n && n.min === n.max)) return null;
      breakout.push(refWith(field, { binning: { strategy: 'default' } }));
    } else {
      breakout.push(field.ref);
    }
  }
  if (unit) values.unit = unitWords(unit);
  const title = fill(card.title, values);
  if (hasPlaceholder(title)) return null;

  let cardFilter: unknown[] | null = null;
  if (card.filter) {
    const bound = input.bindings.get(card.filter.dimension)?.[0]?.field;
    if (!bound) return null;
    cardFilter = card.filter.kind === 'last-30-days' ? ['time-interval', bound.ref, -30, 'day'] : ['is-null', bound.ref];
  }
  const query: Obj = { 'source-table': input.source.sourceTable, aggregation: metrics.map((m) => m.clause) };
  if (breakout.length) query.breakout = breakout;
  const filter = andFilters([input.rootFilter, cardFilter]);
  if (filter) query.filter = filter;
  if (card.top && breakout.length) {
    query['order-by'] = [['desc', ['aggregation', 0]]];
    query.limit = card.top;
  }

  const metricNames = uniqueNames(metrics.map((m) => m.columnName));
  const dimensionNames = dims.map((d) => d.field.name);
  let settings: Obj = {};
  if (card.display === 'map') {
    settings = { 'map.type': 'region', 'map.region': card.region ?? 'us_states', 'map.metric': metricNames[0], 'map.dimension': dimensionNames[0] };
  } else if (['line', 'bar', 'row', 'area'].includes(card.display)) {
    settings = { 'graph.dimensions': dimensionNames, 'graph.metrics': metricNames };
    if (metrics.length > 1) settings['graph.series_labels'] = metrics.map((m) => m.title);
  }
  const fieldScore = dims.length ? dims.reduce((s, d) => s + d.score, 0) / dims.length : 100;
  return {
    title,
    description: card.description ? fill(card.description, values) : null,
    group: card.group,
    display: card.display,
    width: card.width ?? (card.display === 'scalar' ? 6 : 12),
    height: card.height ?? (card.display === 'scalar' ? 3 : 6),
    score: card.score + fieldScore / 1000,
    query,
    ownFilter: cardFilter,
    settings,
  };
}

/** The cards of `cardTemplates` grounded on the bindings, best first. */
export function planCards(cardTemplates: CardTemplate[], input: PlanInput): PlannedCard[] {
  const out: PlannedCard[] = [];
  for (const card of cardTemplates) {
    const metricLists = card.metrics.map((name) => {
      const def = input.template.metrics.find((m) => m.name === name);
      return def ? metricInstances(def, input) : [];
    });
    const dimLists = (card.dimensions ?? []).map((d) => input.bindings.get(d.dimension) ?? []);
    if ([...metricLists, ...dimLists].some((l) => l.length === 0)) continue;
    const combos = product<MetricInstance | Binding>([...metricLists, ...dimLists] as Array<Array<MetricInstance | Binding>>)
      .map((combo) => ({ metrics: combo.slice(0, metricLists.length) as MetricInstance[], dims: combo.slice(metricLists.length) as Binding[] }))
      // one field plays one part in a card
      .filter(({ metrics, dims }) => new Set(dims.map((d) => fieldKey(d.field))).size === dims.length && metrics.every((m) => dims.every((d) => JSON.stringify(m.clause[1]) !== JSON.stringify(d.field.ref))))
      .map((c) => ({ ...c, score: [...c.metrics, ...c.dims].reduce((s, x) => s + x.score, 0) }))
      .sort((a, b) => b.score - a.score);
    let made = 0;
    for (const combo of combos) {
      if (made >= (card.each ?? 1)) break;
      const planned = planOne(card, input, combo.metrics, combo.dims);
      if (planned) {
        out.push(planned);
        made++;
      }
    }
  }
  // the same question under two templates' names is shown once
  const seen = new Set<string>();
  return out
    .sort((a, b) => b.score - a.score)
    .filter((c) => {
      const key = JSON.stringify(c.query);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
