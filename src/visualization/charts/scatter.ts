// Scatter: points of each metric against a number or date x axis (`graph.dimensions`, else the first two numbers),
// sized by `scatter.bubble` when set (that column is not plotted itself), one colour per metric or per value of a second dimension, as the other
// cartesian charts name and colour their series.

import type { EChartsOption, ScatterSeriesOption } from 'echarts';
import { columnIndex, isNumberColumn, isTemporalColumn } from '../columns.js';
import { numberOf, type VizContext } from '../context.js';
import { parseTemporal } from '../format/date.js';
import { formatNumber } from '../format/number.js';
import type { ChartVisualization } from '../types.js';
import { valueAxis } from './cartesian-axes.js';
import { cartesianData } from './cartesian-data.js';
import { COLORS } from '../palette.js';

export function describeScatter(ctx: VizContext): ChartVisualization | null {
  const data = cartesianData(ctx, () => 'scatter');
  if (!data) return null;
  const dimension = ctx.cols[data.dimension];
  const temporal = isTemporalColumn(dimension);
  if (!temporal && !isNumberColumn(dimension)) return null;
  const xOf = (value: unknown): number | null => (temporal ? parseTemporal(value, ctx.options.timezone)?.toMillis() ?? null : numberOf(value));
  const bubble = columnIndex(ctx.cols, ctx.settings['scatter.bubble']);
  const sizes = bubble >= 0 ? ctx.rows.map((r) => numberOf(r[bubble]) ?? 0) : [];
  const largest = Math.max(1, ...sizes.map(Math.abs));

  // Points come from the rows themselves (a scatter keeps repeated x values apart).
  const plotted = data.series.filter((s) => s.metric !== bubble);
  if (plotted.length === 0) return null;
  const series: ScatterSeriesOption[] = plotted.map((s) => {
    const points: number[][] = [];
    ctx.rows.forEach((row, i) => {
      if (data.breakout !== null && (row[data.breakout] === null || row[data.breakout] === undefined ? 'null' : String(row[data.breakout])) !== s.key) return;
      const x = xOf(row[data.dimension]);
      const y = numberOf(row[s.metric]);
      if (x !== null && y !== null) points.push(bubble >= 0 ? [x, y, sizes[i]] : [x, y]);
    });
    return {
      type: 'scatter',
      name: s.title,
      color: s.color,
      data: points,
      symbolSize: bubble >= 0 ? (p: number[]) => 4 + 26 * Math.sqrt(Math.abs(p[2]) / largest) : 8,
      itemStyle: { opacity: 0.8 },
    };
  });
  const xFormat = ctx.format(data.dimension);
  const xAxis = valueAxis(ctx, { format: (v) => (temporal ? xFormat(new Date(v).toISOString(), { abbreviateDates: true }) : formatNumber(v, ctx.columnSettings(data.dimension), { compact: true, tick: true })), normalized: false, title: null }, 'bottom');
  const xName = ctx.settings['graph.x_axis.labels_enabled'] === false ? undefined : (ctx.settings['graph.x_axis.title_text'] as string | undefined) || ctx.title(data.dimension);
  const metricSettings = ctx.columnSettings(plotted[0].metric);
  const legend = plotted.length > 1;
  const width = ctx.options.width;
  const option: EChartsOption = {
    animation: false,
    legend: legend ? { top: 0, icon: 'circle', itemWidth: 10, itemHeight: 10, textStyle: { color: COLORS.textDark, fontSize: 12 } } : { show: false },
    grid: { top: legend ? 40 : 16, left: 16, right: 24, bottom: 16 },
    xAxis: { ...xAxis, scale: true, name: xName, splitLine: { show: false } } as EChartsOption['xAxis'],
    yAxis: valueAxis(ctx, { format: (v) => formatNumber(v, metricSettings, { compact: Math.abs(v) >= 100_000, tick: true }), normalized: false, title: plotted.length === 1 ? plotted[0].title : null }),
    series,
  };
  return { kind: 'chart', display: 'scatter', width, height: Math.round(width * 0.6), option };
}
