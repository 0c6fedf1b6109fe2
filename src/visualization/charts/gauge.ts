// Gauge: a half-circle arc coloured by `gauge.segments` ([{min, max, color, label}]; by default red, yellow and
// green up to twice the value), a needle at the value, the value large under it, the segment bounds at the arc's
// ends and joints, and each segment's label beside its middle.

import type { EChartsOption } from 'echarts';
import { numberOf, type VizContext } from '../context.js';
import { formatNumber } from '../format/number.js';
import { COLORS, validColor } from '../palette.js';
import type { ChartVisualization } from '../types.js';
import { scalarColumn, scalarFormatter, scalarSettings } from './scalar.js';

interface Segment {
  min: number;
  max: number;
  color: string;
  label: string;
}

function defaultSegments(value: number): Segment[] {
  const max = value > 0 ? value * 2 : value < 0 ? 0 : 1;
  const min = value < 0 ? value * 2 : 0;
  const span = max - min;
  return [
    { min, max: min + span / 2, color: COLORS.error, label: '' },
    { min: min + span / 2, max: min + (span * 3) / 4, color: COLORS.warning, label: '' },
    { min: min + (span * 3) / 4, max, color: COLORS.success, label: '' },
  ];
}

function segmentsOf(ctx: VizContext, value: number): Segment[] {
  const raw = ctx.settings['gauge.segments'];
  if (!Array.isArray(raw)) return defaultSegments(value);
  const segments = raw
    .map((s): Segment | null => {
      if (!s || typeof s !== 'object') return null;
      const o = s as Record<string, unknown>;
      const min = numberOf(o.min);
      const max = numberOf(o.max);
      if (min === null || max === null || max <= min) return null;
      return { min, max, color: validColor(o.color) ?? COLORS.textLight, label: typeof o.label === 'string' ? o.label : '' };
    })
    .filter((s): s is Segment => s !== null)
    .sort((a, b) => a.min - b.min);
  return segments.length > 0 ? segments : defaultSegments(value);
}

export function describeGauge(ctx: VizContext): ChartVisualization | null {
  const column = scalarColumn(ctx);
  const value = numberOf(ctx.rows[0]?.[column]);
  if (value === null) return null;
  const segments = segmentsOf(ctx, value);
  const min = segments[0].min;
  const max = Math.max(...segments.map((s) => s.max));
  const format = scalarFormatter(ctx, column);
  const tick = (v: number) => formatNumber(v, scalarSettings(ctx, column), { compact: true });

  // The arc's colour stops: each segment's colour up to its end; gaps between segments in light grey.
  const stops: Array<[number, string]> = [];
  let at = min;
  for (const s of segments) {
    if (s.min > at) stops.push([(s.min - min) / (max - min), COLORS.bgMedium]);
    stops.push([(Math.min(s.max, max) - min) / (max - min), s.color]);
    at = s.max;
  }

  const width = ctx.options.width;
  const height = Math.round(width * 0.6);
  const radius = Math.min(width * 0.36, height * 0.72);
  const cx = width / 2;
  const cy = height * 0.8;
  const arcWidth = Math.max(14, radius * 0.18);
  const bounds = [...new Set(segments.flatMap((s) => [s.min, s.max]))];
  const point = (v: number, r: number) => {
    const angle = Math.PI * (1 - (v - min) / (max - min));
    return [cx + r * Math.cos(angle), cy - r * Math.sin(angle)];
  };
  const graphic: NonNullable<EChartsOption['graphic']> = bounds.map((v) => {
    const [x, y] = point(v, radius + 14);
    const ratio = (v - min) / (max - min);
    return {
      type: 'text',
      x,
      y,
      style: { text: tick(v), fill: COLORS.textMedium, fontSize: 11, align: ratio < 0.4 ? 'right' : ratio > 0.6 ? 'left' : 'center', verticalAlign: 'middle' },
    };
  });
  for (const s of segments) {
    if (!s.label) continue;
    const [x, y] = point((s.min + s.max) / 2, radius + 34);
    const ratio = ((s.min + s.max) / 2 - min) / (max - min);
    graphic.push({ type: 'text', x, y, style: { text: s.label, fill: s.color, fontSize: 12, fontWeight: 'bold', align: ratio < 0.4 ? 'right' : ratio > 0.6 ? 'left' : 'center', verticalAlign: 'middle' } });
  }

  const option: EChartsOption = {
    animation: false,
    series: [
      {
        type: 'gauge',
        center: [cx, cy],
        radius,
        startAngle: 180,
        endAngle: 0,
        min,
        max,
        axisLine: { lineStyle: { width: arcWidth, color: stops } },
        pointer: { length: '75%', width: 6, itemStyle: { color: COLORS.textDark } },
        anchor: { show: true, size: 14, itemStyle: { color: COLORS.textDark } },
        axisTick: { show: false },
        splitLine: { show: false },
        axisLabel: { show: false },
        title: { show: false },
        detail: { show: true, offsetCenter: [0, '22%'], valueAnimation: false, formatter: () => format(value), color: COLORS.textDark, fontSize: 26, fontWeight: 'bold' },
        data: [{ value: Math.max(min, Math.min(max, value)) }],
      },
    ],
    graphic,
  };
  return { kind: 'chart', display: 'gauge', width, height, option };
}
