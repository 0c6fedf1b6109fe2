// Progress: a bar filled to value ÷ `progress.goal` in `progress.color` (Metabase's accent green by default), the
// value above the bar where the fill ends, "0" and "Goal <goal>" under its ends, "Goal met" / "Goal exceeded" when
// reached (the bar then full, the goal marked where it falls). Drawn with ECharts graphic elements.

import type { EChartsOption } from 'echarts';
import { numberOf, setting, type VizContext } from '../context.js';
import { ACCENTS, COLORS, shade, validColor } from '../palette.js';
import type { ChartVisualization } from '../types.js';
import { scalarColumn, scalarFormatter } from './scalar.js';

export function describeProgress(ctx: VizContext): ChartVisualization | null {
  const column = scalarColumn(ctx);
  const value = numberOf(ctx.rows[0]?.[column]);
  if (value === null) return null;
  const goal = setting<number>(ctx, 'progress.goal', 'number') ?? 0;
  const color = validColor(ctx.settings['progress.color']) ?? ACCENTS[1];
  const format = scalarFormatter(ctx, column);

  const width = ctx.options.width;
  const height = 150;
  const pad = 16;
  const barWidth = width - 2 * pad;
  const barTop = 64;
  const barHeight = 36;
  const reached = goal > 0 ? value >= goal : value >= goal && value > 0;
  const fraction = goal > 0 ? Math.max(0, Math.min(1, value / goal)) : reached ? 1 : 0;
  const fillWidth = barWidth * fraction;
  const markerX = Math.max(pad + 8, Math.min(width - pad - 8, pad + fillWidth));
  const status = value > goal ? 'Goal exceeded' : value === goal ? 'Goal met' : null;

  const elements: NonNullable<EChartsOption['graphic']> = [
    { type: 'rect', shape: { x: pad, y: barTop, width: barWidth, height: barHeight, r: 4 }, style: { fill: shade(color, 0.75) } },
    { type: 'rect', shape: { x: pad, y: barTop, width: fillWidth, height: barHeight, r: 4 }, style: { fill: color } },
    {
      type: 'text',
      x: markerX,
      y: barTop - 22,
      style: { text: format(value), fill: COLORS.textDark, fontSize: 22, fontWeight: 'bold', align: fraction > 0.85 ? 'right' : fraction < 0.15 ? 'left' : 'center', verticalAlign: 'middle' },
    },
    { type: 'polygon', shape: { points: [[markerX - 6, barTop - 8], [markerX + 6, barTop - 8], [markerX, barTop - 1]] }, style: { fill: COLORS.textDark } },
    { type: 'text', x: pad, y: barTop + barHeight + 18, style: { text: status ?? '0', fill: COLORS.textMedium, fontSize: 12, fontWeight: 'bold', align: 'left', verticalAlign: 'middle' } },
    {
      type: 'text',
      x: width - pad,
      y: barTop + barHeight + 18,
      style: { text: `Goal ${format(goal)}`, fill: COLORS.textMedium, fontSize: 12, fontWeight: 'bold', align: 'right', verticalAlign: 'middle' },
    },
  ];
  if (value > goal && goal > 0) {
    const goalX = pad + barWidth * (goal / value);
    elements.push({ type: 'rect', shape: { x: goalX - 1, y: barTop, width: 2, height: barHeight }, style: { fill: COLORS.white } });
  }
  return { kind: 'chart', display: 'progress', width, height, option: { animation: false, graphic: elements } };
}
