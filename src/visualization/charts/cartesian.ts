// Line, area, bar, combo and row charts as ECharts options: series from ./cartesian-data.ts, stacking
// (`stackable.stack_type` stacked / normalized — 100%; areas with a breakout stack by default), a goal line
// (`graph.show_goal`, `graph.goal_value`, `graph.goal_label`), value labels (`graph.show_values`), per-series
// line settings (`line.interpolate`, `line.marker_enabled`, `line.missing`, `line.style`), a right axis for
// series whose `axis` is "right", and a legend when there is more than one series.

import type { EChartsOption, SeriesOption } from 'echarts';
import { setting, type VizContext } from '../context.js';
import { COLORS } from '../palette.js';
import type { ChartVisualization } from '../types.js';
import { categoryAxis, valueAxis } from './cartesian-axes.js';
import { cartesianData, type CartesianData, type Series } from './cartesian-data.js';
import { formatNumber } from '../format/number.js';

export type CartesianDisplay = 'line' | 'area' | 'bar' | 'combo' | 'row';

const FONT_SIZE = 11;

function stackType(ctx: VizContext, display: CartesianDisplay, data: CartesianData): 'stacked' | 'normalized' | null {
  const explicit = ctx.settings['stackable.stack_type'];
  if (explicit === 'stacked' || explicit === 'normalized') return data.series.length > 1 ? explicit : explicit === 'normalized' ? explicit : null;
  if (explicit === null) return null;
  return display === 'area' && data.breakout !== null ? 'stacked' : null;
}

function missingMode(series: Series): 'interpolate' | 'zero' | 'none' {
  const m = series.settings['line.missing'];
  return m === 'zero' || m === 'none' ? m : 'interpolate';
}

function normalize(data: CartesianData): Array<Array<number | null>> {
  return data.series.map((s) =>
    s.values.map((v, i) => {
      if (v === null) return null;
      const total = data.series.reduce((sum, other) => sum + Math.abs(other.values[i] ?? 0), 0);
      return total === 0 ? 0 : v / total;
    }),
  );
}

function valueFormatter(ctx: VizContext, data: CartesianData, normalized: boolean): (value: number, compact?: boolean) => string {
  if (normalized) return (value) => formatNumber(value, { number_style: 'percent', decimals: 0 });
  const settings = ctx.columnSettings(data.series[0].metric);
  const largest = Math.max(0, ...data.series.flatMap((s) => s.values.map((v) => Math.abs(v ?? 0))));
  const compactAxis = largest >= 100_000;
  return (value, compact = compactAxis) => formatNumber(value, settings, { compact });
}

function tickFormatter(ctx: VizContext, metric: number, values: Array<number | null>): (value: number) => string {
  const settings = ctx.columnSettings(metric);
  const compact = Math.max(0, ...values.map((v) => Math.abs(v ?? 0))) >= 100_000;
  return (value) => formatNumber(value, settings, { compact, tick: true });
}

function labelMode(ctx: VizContext): boolean | undefined {
  const mode = ctx.settings['graph.label_value_formatting'];
  return mode === 'compact' ? true : mode === 'full' ? false : undefined;
}

/** Metabase's `graph.y_axis.auto_split`: a series whose values are 20× larger or smaller than the first's goes right. */
const SPLIT_RATIO = 20;

/** The series drawn against a right-hand axis: those set to it, else (auto split) those far out of the first's range. */
function rightAxisSeries(ctx: VizContext, display: CartesianDisplay, data: CartesianData, stack: string | null): Set<Series> {
  if (display === 'row') return new Set();
  const explicit = data.series.filter((s) => s.settings.axis === 'right' || s.settings.axis === 'left');
  if (explicit.length > 0) return new Set(explicit.filter((s) => s.settings.axis === 'right'));
  if (ctx.settings['graph.y_axis.auto_split'] === false || stack || data.breakout !== null || data.series.length < 2) return new Set();
  const extent = (s: Series) => Math.max(0, ...s.values.map((v) => Math.abs(v ?? 0)));
  const first = extent(data.series[0]);
  if (first === 0) return new Set();
  return new Set(data.series.slice(1).filter((s) => {
    const e = extent(s);
    return e > 0 && Math.max(e / first, first / e) >= SPLIT_RATIO;
  }));
}

function buildSeries(ctx: VizContext, display: CartesianDisplay, data: CartesianData, stack: 'stacked' | 'normalized' | null, format: (v: number, compact?: boolean) => string, right: Set<Series>): SeriesOption[] {
  const normalizedValues = stack === 'normalized' ? normalize(data) : null;
  const showValues = ctx.settings['graph.show_values'] === true;
  const compactLabels = labelMode(ctx);
  const horizontal = display === 'row';
  return data.series.map((s, index): SeriesOption => {
    const values = normalizedValues ? normalizedValues[index] : s.values;
    const kind = display === 'row' ? 'bar' : s.display;
    const missing = missingMode(s);
    const plotted = missing === 'zero' ? values.map((v) => v ?? 0) : values;
    const stackName = stack && (kind === 'bar' || kind === 'area') ? `stack-${kind}` : undefined;
    const yAxisIndex = right.has(s) ? 1 : 0;
    const ownShowValues = typeof s.settings.show_series_values === 'boolean' ? s.settings.show_series_values && showValues : showValues;
    const label = {
      show: ownShowValues,
      position: horizontal ? ('right' as const) : ('top' as const),
      color: COLORS.textDark,
      fontSize: FONT_SIZE,
      formatter: (p: { value: unknown }) => (typeof p.value === 'number' ? format(p.value, compactLabels ?? true) : ''),
    };
    const common = { name: s.title, data: plotted, stack: stackName, color: s.color, yAxisIndex, label };
    if (kind === 'bar') return { type: 'bar', ...common, barMaxWidth: 60 };
    const interpolate = s.settings['line.interpolate'];
    const style = s.settings['line.style'];
    const markers = typeof s.settings['line.marker_enabled'] === 'boolean' ? (s.settings['line.marker_enabled'] as boolean) : data.xLabels.length <= 30;
    return {
      type: 'line',
      ...common,
      smooth: interpolate === 'cardinal',
      step: interpolate === 'step-after' ? 'end' : false,
      connectNulls: missing === 'interpolate',
      showSymbol: markers,
      symbolSize: 6,
      lineStyle: { width: 2, type: style === 'dashed' ? 'dashed' : style === 'dotted' ? 'dotted' : 'solid' },
      areaStyle: kind === 'area' ? { opacity: 0.3 } : undefined,
    };
  });
}

function goalLine(ctx: VizContext, normalized: boolean): Record<string, unknown> | null {
  if (ctx.settings['graph.show_goal'] !== true || normalized) return null;
  const goal = setting<number>(ctx, 'graph.goal_value', 'number');
  if (goal === undefined) return null;
  const label = setting<string>(ctx, 'graph.goal_label', 'string') ?? 'Goal';
  return {
    silent: true,
    symbol: 'none',
    data: [{ yAxis: goal }],
    lineStyle: { color: COLORS.textMedium, type: 'dashed', width: 1.5 },
    label: { formatter: label, position: 'insideEndTop', color: COLORS.textMedium, fontSize: FONT_SIZE, fontWeight: 'bold' },
  };
}

/** The value axis title: the series' name when it plots one series, the metric's when all plot the same one. */
function metricTitle(ctx: VizContext, series: Series[]): string | null {
  const metrics = new Set(series.map((s) => s.metric));
  if (metrics.size !== 1) return null;
  return series.length === 1 ? series[0].title : ctx.title(series[0].metric);
}

export function describeCartesian(ctx: VizContext, display: CartesianDisplay): ChartVisualization | null {
  const defaultDisplay = (index: number) => (display === 'combo' ? (index === 0 ? 'bar' : 'line') : display === 'row' ? 'bar' : display);
  const data = cartesianData(ctx, defaultDisplay);
  if (!data) return null;
  const stack = stackType(ctx, display, data);
  const normalized = stack === 'normalized';
  const format = valueFormatter(ctx, data, normalized);
  const right = rightAxisSeries(ctx, display, data, stack);
  const series = buildSeries(ctx, display, data, stack, format, right);
  const goal = goalLine(ctx, normalized);
  if (goal && series.length > 0) (series[0] as { markLine?: unknown }).markLine = goal;
  const horizontal = display === 'row';
  const width = ctx.options.width;
  const height = horizontal ? Math.max(Math.round(width * 0.6), 26 * data.xLabels.length + 90) : Math.round(width * 0.6);
  const legend = data.series.length > 1;
  const category = categoryAxis(ctx, data, horizontal);
  const rightSeries = data.series.filter((s) => right.has(s));
  const leftSeries = data.series.filter((s) => !rightSeries.includes(s));
  const leftFormat = normalized ? (v: number) => format(v) : tickFormatter(ctx, leftSeries[0]?.metric ?? data.series[0].metric, leftSeries.flatMap((s) => s.values));
  const values = valueAxis(ctx, { format: leftFormat, normalized, title: metricTitle(ctx, leftSeries) }, horizontal ? 'bottom' : 'left');
  const yAxes = [values];
  if (rightSeries.length > 0) {
    const rightFormat = tickFormatter(ctx, rightSeries[0].metric, rightSeries.flatMap((s) => s.values));
    yAxes.push(valueAxis(ctx, { format: rightFormat, normalized, title: metricTitle(ctx, rightSeries) }, 'right'));
  }
  const option: EChartsOption = {
    animation: false,
    color: data.series.map((s) => s.color),
    legend: legend ? { top: 0, left: 'center', type: 'plain', icon: 'circle', itemWidth: 10, itemHeight: 10, textStyle: { color: COLORS.textDark, fontSize: 12 } } : { show: false },
    grid: { top: legend ? 40 : 16, left: 16, right: rightSeries.length > 0 ? 16 : 24, bottom: 16 },
    xAxis: horizontal ? yAxes[0] as EChartsOption['xAxis'] : category,
    yAxis: horizontal ? (category as EChartsOption['yAxis']) : (yAxes as EChartsOption['yAxis']),
    series,
  };
  return { kind: 'chart', display, width, height, option };
}
