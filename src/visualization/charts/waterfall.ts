// Waterfall: one metric's rows (the first, if there are several) as steps that rise or fall from where the previous one ended, in
// `waterfall.increase_color` / `waterfall.decrease_color`, and a "Total" bar at the end (`waterfall.show_total`,
// `waterfall.total_color`). Drawn as stacked bars over an invisible base.

import type { EChartsOption } from 'echarts';
import type { VizContext } from '../context.js';
import { COLORS, ACCENTS, validColor } from '../palette.js';
import type { ChartVisualization } from '../types.js';
import { categoryAxis, valueAxis } from './cartesian-axes.js';
import { cartesianData } from './cartesian-data.js';
import { formatNumber } from '../format/number.js';

export function describeWaterfall(ctx: VizContext): ChartVisualization | null {
  const data = cartesianData(ctx, () => 'bar');
  // One metric (the first) over one dimension: a waterfall has no series breakout.
  if (!data || data.breakout !== null) return null;
  const [series] = data.series;
  const increase = validColor(ctx.settings['waterfall.increase_color']) ?? ACCENTS[1];
  const decrease = validColor(ctx.settings['waterfall.decrease_color']) ?? ACCENTS[3];
  const totalColor = validColor(ctx.settings['waterfall.total_color']) ?? COLORS.textMedium;
  const showTotal = ctx.settings['waterfall.show_total'] !== false;
  const settings = ctx.columnSettings(series.metric);

  const base: number[] = [];
  const bars: Array<{ value: number; itemStyle: { color: string } }> = [];
  let running = 0;
  for (const value of series.values) {
    const delta = value ?? 0;
    const end = running + delta;
    base.push(Math.min(running, end));
    bars.push({ value: Math.abs(delta), itemStyle: { color: delta >= 0 ? increase : decrease } });
    running = end;
  }
  const labels = [...data.xLabels];
  if (showTotal) {
    base.push(Math.min(0, running));
    bars.push({ value: Math.abs(running), itemStyle: { color: totalColor } });
    labels.push('Total');
  }
  const largest = Math.max(...base.map((b, i) => Math.abs(b) + bars[i].value));
  const width = ctx.options.width;
  const option: EChartsOption = {
    animation: false,
    legend: { show: false },
    grid: { top: 16, left: 16, right: 24, bottom: 16 },
    xAxis: categoryAxis(ctx, { ...data, xLabels: labels }, false),
    yAxis: valueAxis(ctx, { format: (v) => formatNumber(v, settings, { compact: largest >= 100_000, tick: true }), normalized: false, title: series.title }),
    series: [
      { type: 'bar', stack: 'waterfall', stackStrategy: 'all', data: base, itemStyle: { color: 'transparent' }, silent: true },
      { type: 'bar', stack: 'waterfall', stackStrategy: 'all', name: series.title, data: bars, barMaxWidth: 60 },
    ],
  };
  return { kind: 'chart', display: 'waterfall', width, height: Math.round(width * 0.6), option };
}
