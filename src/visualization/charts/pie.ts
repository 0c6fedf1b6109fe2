// Pie (a donut, as Metabase draws it): slices of `pie.metric` by `pie.dimension` (else the first category and the
// first number), largest first unless `pie.sort_rows` is false, slices under `pie.slice_threshold` percent
// (default 2.5) — and any beyond the fourteen largest — gathered into "Other", colours from `pie.colors`, the
// total in the middle (`pie.show_total`), a legend (`pie.show_legend`) and percentages where
// `pie.percent_visibility` says (legend — the default —, inside, both or off) with `pie.decimal_places`. Zero,
// negative and empty values have no slice.

import type { EChartsOption } from 'echarts';
import { isDimensionColumn, isMetricColumn, isNumberColumn, namedColumns } from '../columns.js';
import { numberOf, setting, type VizContext } from '../context.js';
import { formatNumber } from '../format/number.js';
import { COLORS, seriesColor, validColor } from '../palette.js';
import type { ChartVisualization } from '../types.js';

interface Slice {
  key: string;
  name: string;
  value: number;
  color: string;
}

function pieColumns(ctx: VizContext): { dimension: number; metric: number } | null {
  const raw = ctx.settings['pie.dimension'];
  const dimension = namedColumns(ctx.cols, Array.isArray(raw) ? raw.slice(0, 1) : [raw])?.[0] ?? ctx.cols.findIndex((c) => isDimensionColumn(c));
  const metric = namedColumns(ctx.cols, [ctx.settings['pie.metric']])?.[0] ?? ctx.cols.findIndex((c, i) => i !== dimension && isMetricColumn(c));
  if (dimension < 0 || metric < 0 || dimension === metric || !isNumberColumn(ctx.cols[metric])) return null;
  return { dimension, metric };
}

function slicesOf(ctx: VizContext, dimension: number, metric: number): Slice[] {
  const colors = (ctx.settings['pie.colors'] ?? {}) as Record<string, unknown>;
  const byKey = new Map<string, Slice>();
  for (const row of ctx.rows) {
    const value = numberOf(row[metric]);
    if (value === null || value <= 0) continue;
    const raw = row[dimension];
    const key = raw === null || raw === undefined ? 'null' : String(raw);
    const existing = byKey.get(key);
    if (existing) existing.value += value;
    else byKey.set(key, { key, name: raw === null || raw === undefined ? '(empty)' : ctx.format(dimension)(raw), value, color: '' });
  }
  const slices = [...byKey.values()];
  if (ctx.settings['pie.sort_rows'] !== false) slices.sort((a, b) => b.value - a.value);
  slices.forEach((s, i) => (s.color = validColor(colors && typeof colors === 'object' ? colors[s.key] : null) ?? seriesColor(i)));
  return slices;
}

/** Most slices a picture names (its legend has room for about fifteen lines); the rest join "Other". */
const MAX_SLICES = 14;

function withOther(slices: Slice[], total: number, thresholdPercent: number): Slice[] {
  const large = slices.filter((s) => (s.value / total) * 100 >= thresholdPercent);
  const kept = [...large].sort((a, b) => b.value - a.value).slice(0, MAX_SLICES);
  const keptSet = new Set(kept);
  const rest = slices.filter((s) => !keptSet.has(s));
  if (rest.length === 0) return slices;
  return [...slices.filter((s) => keptSet.has(s)), { key: 'Other', name: 'Other', value: rest.reduce((sum, s) => sum + s.value, 0), color: COLORS.other }];
}

export function describePie(ctx: VizContext): ChartVisualization | null {
  const columns = pieColumns(ctx);
  if (!columns) return null;
  const all = slicesOf(ctx, columns.dimension, columns.metric);
  const total = all.reduce((sum, s) => sum + s.value, 0);
  if (all.length === 0 || total <= 0) return null;
  const slices = withOther(all, total, setting<number>(ctx, 'pie.slice_threshold', 'number') ?? 2.5);
  const decimals = setting<number>(ctx, 'pie.decimal_places', 'number');
  const percent = (value: number) => formatNumber(value / total, { number_style: 'percent', ...(decimals !== undefined ? { decimals } : {}) });
  const visibility = ctx.settings['pie.percent_visibility'] ?? 'legend';
  const showLegend = ctx.settings['pie.show_legend'] !== false;
  const showTotal = ctx.settings['pie.show_total'] !== false;
  const metricSettings = ctx.columnSettings(columns.metric);

  const width = ctx.options.width;
  const height = Math.round(width * 0.6);
  const pieSize = showLegend ? Math.min(height, width * 0.55) : height;
  const centerX = showLegend ? pieSize / 2 + 8 : width / 2;
  const centerY = height / 2;
  const outer = pieSize / 2 - 12;
  const percentInLegend = visibility === 'legend' || visibility === 'both';
  const legendText = new Map(slices.map((s) => [s.name, percentInLegend ? `${s.name}  ${percent(s.value)}` : s.name]));

  const option: EChartsOption = {
    animation: false,
    color: slices.map((s) => s.color),
    legend: showLegend
      ? {
          orient: 'vertical',
          left: pieSize + 24,
          top: 'middle',
          icon: 'circle',
          itemWidth: 10,
          itemHeight: 10,
          itemGap: 8,
          textStyle: { color: COLORS.textDark, fontSize: 12 },
          formatter: (name: string) => legendText.get(name) ?? name,
        }
      : { show: false },
    series: [
      {
        type: 'pie',
        center: [centerX, centerY],
        radius: [outer * 0.6, outer],
        avoidLabelOverlap: true,
        itemStyle: { borderColor: COLORS.white, borderWidth: 1 },
        label:
          visibility === 'inside' || visibility === 'both'
            ? { show: true, position: 'inside', color: COLORS.white, fontSize: 11, fontWeight: 'bold', formatter: (p: { value: unknown }) => ((p.value as number) / total >= 0.05 ? percent(p.value as number) : '') }
            : { show: false },
        labelLine: { show: false },
        data: slices.map((s) => ({ name: s.name, value: s.value, itemStyle: { color: s.color } })),
      },
    ],
    graphic: showTotal
      ? [
          { type: 'text', x: centerX, y: centerY - 14, style: { text: 'TOTAL', fill: COLORS.textMedium, fontSize: 11, fontWeight: 'bold', align: 'center', verticalAlign: 'middle' } },
          {
            type: 'text',
            x: centerX,
            y: centerY + 8,
            style: { text: formatNumber(total, metricSettings, { compact: total >= 100_000 }), fill: COLORS.textDark, fontSize: 20, fontWeight: 'bold', align: 'center', verticalAlign: 'middle' },
          },
        ]
      : [],
  };
  return { kind: 'chart', display: 'pie', width, height, option };
}
