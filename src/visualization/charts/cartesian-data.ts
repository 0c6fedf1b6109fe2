// The series of a line/area/bar/combo/row chart: which column is the x axis (`graph.dimensions`, else the
// breakouts, else the first date or category column), which are the series (`graph.metrics`, else the
// aggregations, else the number columns), or — with two dimensions and one metric — one series per value of the
// second dimension (ordered and hidden by `graph.series_order`). Each series has its title, colour and display from
// `series_settings`. Dates are in time order with missing periods filled, unless `graph.x_axis.scale` is ordinal.

import type { DateTime } from 'luxon';
import { isDimensionColumn, isMetricColumn, isNumberColumn, isTemporalColumn, namedColumns, unitOf } from '../columns.js';
import { numberOf, type VizContext } from '../context.js';
import { parseTemporal } from '../format/date.js';
import { seriesColor, validColor } from '../palette.js';
import { orderedByKey } from './ordering.js';

export interface Series {
  /** The key of `series_settings` (a metric's column name, or a breakout value as text). */
  key: string;
  title: string;
  color: string;
  /** line | area | bar (per series on combo charts). */
  display: string;
  /** The metric column the values come from. */
  metric: number;
  values: Array<number | null>;
  settings: Record<string, unknown>;
}

export interface CartesianData {
  dimension: number;
  /** Raw x values in axis order, and their labels. */
  xValues: unknown[];
  xLabels: string[];
  series: Series[];
  /** The second dimension, when series are its values. */
  breakout: number | null;
}

/** More series than this is not a readable chart: the card is shown as a table. */
export const MAX_SERIES = 50;

export function defaultAxes(ctx: VizContext): { dimensions: number[]; metrics: number[] } | null {
  const { cols } = ctx;
  const all = cols.map((_, i) => i);
  const breakouts = all.filter((i) => cols[i].source === 'breakout');
  const aggregations = all.filter((i) => cols[i].source === 'aggregation' && isNumberColumn(cols[i]));
  if (breakouts.length > 0 && aggregations.length > 0) return { dimensions: breakouts.slice(0, 2), metrics: aggregations };
  // Dates make the best x axis, ids the worst.
  const rank = (i: number) => (isTemporalColumn(cols[i]) ? 0 : cols[i].semantic_type === 'type/PK' || cols[i].semantic_type === 'type/FK' ? 2 : 1);
  const dimensions = all.filter((i) => isDimensionColumn(cols[i])).sort((a, b) => rank(a) - rank(b) || a - b);
  const metrics = all.filter((i) => isMetricColumn(cols[i]) && !dimensions.includes(i));
  if (dimensions.length === 0) {
    // Numbers only: the first is the x axis.
    const numbers = all.filter((i) => isNumberColumn(cols[i]));
    return numbers.length >= 2 ? { dimensions: [numbers[0]], metrics: numbers.slice(1) } : null;
  }
  if (metrics.length === 0) return null;
  // A second category splits the one metric into series; ids never do.
  const chosen = dimensions.length >= 2 && metrics.length === 1 && rank(dimensions[1]) === 1 ? dimensions.slice(0, 2) : [dimensions[0]];
  return { dimensions: chosen, metrics };
}

/** The chart's x column(s) (a second one splits the one metric into series) and its metric columns, or null. */
export function chartAxes(ctx: VizContext): { dimensions: number[]; metrics: number[] } | null {
  const defaults = defaultAxes(ctx);
  const dimensions = namedColumns(ctx.cols, ctx.settings['graph.dimensions']) ?? defaults?.dimensions;
  const metrics = namedColumns(ctx.cols, ctx.settings['graph.metrics']) ?? defaults?.metrics;
  if (!dimensions || !metrics || dimensions.length === 0 || metrics.length === 0) return null;
  if (!metrics.every((i) => isNumberColumn(ctx.cols[i]))) return null;
  return { dimensions: dimensions.slice(0, metrics.length === 1 ? 2 : 1), metrics };
}

function seriesSettings(ctx: VizContext, key: string): Record<string, unknown> {
  const all = ctx.settings.series_settings;
  const own = all && typeof all === 'object' ? (all as Record<string, unknown>)[key] : undefined;
  return own && typeof own === 'object' ? (own as Record<string, unknown>) : {};
}

function identity(value: unknown): string {
  return value === null || value === undefined ? '\u0000null' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** Sort key of an x value for axes that are ordered by value (dates and linear numbers). */
function orderKey(ctx: VizContext, dimension: number, value: unknown): number | null {
  if (isTemporalColumn(ctx.cols[dimension])) return parseTemporal(value, ctx.options.timezone)?.toMillis() ?? null;
  return numberOf(value);
}

/** Date units whose buckets the axis lists in full, so missing periods show as gaps (or zeros, per `line.missing`). */
const FILLED_UNITS = new Set(['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);
const MAX_FILLED = 1000;

interface XAxis {
  values: unknown[];
  /** Position of a row's x value on the axis (-1 if it has none). */
  indexOf(value: unknown): number;
}

/** Every period from the first to the last bucket, matched to rows by wall-clock time in the report time zone. */
function filledTimeAxis(ctx: VizContext, dimension: number, values: unknown[]): XAxis | null {
  const unit = unitOf(ctx.cols[dimension]);
  if (!unit || !FILLED_UNITS.has(unit)) return null;
  const zone = ctx.options.timezone;
  const parsed = values.map((v) => parseTemporal(v, zone)?.setZone(zone));
  if (parsed.some((d) => !d || !d.isValid)) return null;
  const times = parsed.map((d) => (d as DateTime).toMillis());
  const first = parsed[times.indexOf(Math.min(...times))] as DateTime;
  const last = Math.max(...times);
  const wall = (d: DateTime) => d.toFormat("yyyy-MM-dd'T'HH:mm");
  const axis: unknown[] = [];
  const at = new Map<string, number>();
  for (let d = first; d.toMillis() <= last; d = d.plus({ [`${unit}s`]: 1 })) {
    if (axis.length >= MAX_FILLED) return null;
    at.set(wall(d), axis.length);
    axis.push(d.toISO());
  }
  if (!parsed.every((d) => at.has(wall(d as DateTime)))) return null;
  return {
    values: axis,
    indexOf: (value) => {
      const d = parseTemporal(value, zone)?.setZone(zone);
      return d ? at.get(wall(d)) ?? -1 : -1;
    },
  };
}

function xAxisOf(ctx: VizContext, dimension: number): XAxis {
  const index = new Map<string, number>();
  const distinct: unknown[] = [];
  for (const row of ctx.rows) {
    const id = identity(row[dimension]);
    if (!index.has(id)) {
      index.set(id, distinct.length);
      distinct.push(row[dimension]);
    }
  }
  const temporal = isTemporalColumn(ctx.cols[dimension]);
  if (temporal && ctx.settings['graph.x_axis.scale'] !== 'ordinal') {
    const filled = filledTimeAxis(ctx, dimension, distinct);
    if (filled) return filled;
  }
  let order = distinct.map((_, i) => i);
  if (temporal || ctx.settings['graph.x_axis.scale'] === 'linear') {
    const keys = distinct.map((v) => orderKey(ctx, dimension, v));
    if (keys.every((k) => k !== null)) order = order.sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
  }
  const position = new Map<number, number>(order.map((original, at) => [original, at]));
  return { values: order.map((i) => distinct[i]), indexOf: (value) => position.get(index.get(identity(value)) ?? -1) ?? -1 };
}

export function cartesianData(ctx: VizContext, defaultDisplay: (index: number) => string): CartesianData | null {
  const axes = chartAxes(ctx);
  if (!axes || ctx.rows.length === 0) return null;
  const [dimension, breakout = null] = axes.dimensions;
  const axis = xAxisOf(ctx, dimension);
  const sortedX = axis.values;
  const format = ctx.format(dimension);

  const groups: Array<{ key: string; title: string; metric: number; match: (row: unknown[]) => boolean }> = [];
  if (breakout !== null) {
    const seen = new Map<string, unknown>();
    for (const row of ctx.rows) if (!seen.has(identity(row[breakout]))) seen.set(identity(row[breakout]), row[breakout]);
    if (seen.size > MAX_SERIES) return null;
    for (const [id, value] of seen) {
      const key = value === null || value === undefined ? 'null' : String(value);
      const title = value === null || value === undefined ? '(empty)' : ctx.format(breakout)(value);
      groups.push({ key, title, metric: axes.metrics[0], match: (row) => identity(row[breakout]) === id });
    }
  } else {
    if (axes.metrics.length > MAX_SERIES) return null;
    for (const metric of axes.metrics) groups.push({ key: ctx.cols[metric].name, title: ctx.title(metric), metric, match: () => true });
  }

  const series: Series[] = orderedByKey(ctx.settings['graph.series_order'], groups).map((group, index) => {
    const values: Array<number | null> = sortedX.map(() => null);
    for (const row of ctx.rows) {
      if (!group.match(row)) continue;
      const at = axis.indexOf(row[dimension]);
      if (at < 0) continue;
      const n = numberOf(row[group.metric]);
      if (n !== null) values[at] = (values[at] ?? 0) + n;
    }
    const own = seriesSettings(ctx, group.key);
    return {
      key: group.key,
      title: typeof own.title === 'string' && own.title ? own.title : group.title,
      color: validColor(own.color) ?? seriesColor(index),
      display: typeof own.display === 'string' && ['line', 'area', 'bar'].includes(own.display) ? own.display : defaultDisplay(index),
      metric: group.metric,
      values,
      settings: own,
    };
  });
  return {
    dimension,
    xValues: sortedX,
    xLabels: sortedX.map((v) => (v === null || v === undefined ? '(empty)' : format(v, { abbreviateDates: true }))),
    series,
    breakout,
  };
}
