// Funnel: steps of `funnel.metric` by `funnel.dimension` (else the first category and number), in result order
// or as `funnel.rows` orders and hides them ([{key, enabled}]), each labelled with its value and its share of the
// first step; a single row of several numbers is a funnel of those columns. `funnel.type` "bar" draws the same
// steps as a bar chart.

import type { EChartsOption } from 'echarts';
import { isDimensionColumn, isMetricColumn, isNumberColumn, namedColumns } from '../columns.js';
import { numberOf, type VizContext } from '../context.js';
import { formatNumber } from '../format/number.js';
import { COLORS, seriesColor, shade } from '../palette.js';
import type { ChartVisualization } from '../types.js';
import { describeCartesian } from './cartesian.js';
import { orderedByKey } from './ordering.js';

interface Step {
  key: string;
  name: string;
  value: number;
}

function stepsFromRows(ctx: VizContext): { steps: Step[]; metric: number } | null {
  const dimension = namedColumns(ctx.cols, [ctx.settings['funnel.dimension']])?.[0] ?? ctx.cols.findIndex((c) => isDimensionColumn(c));
  const metric = namedColumns(ctx.cols, [ctx.settings['funnel.metric']])?.[0] ?? ctx.cols.findIndex((c, i) => i !== dimension && isMetricColumn(c));
  if (dimension < 0 || metric < 0 || dimension === metric || !isNumberColumn(ctx.cols[metric])) return null;
  const steps = ctx.rows.map((row) => ({
    key: row[dimension] === null || row[dimension] === undefined ? 'null' : String(row[dimension]),
    name: row[dimension] === null || row[dimension] === undefined ? '(empty)' : ctx.format(dimension)(row[dimension]),
    value: numberOf(row[metric]) ?? 0,
  }));
  return { steps, metric };
}

function stepsFromColumns(ctx: VizContext): { steps: Step[]; metric: number } | null {
  if (ctx.rows.length !== 1) return null;
  const numbers = ctx.cols.map((c, i) => i).filter((i) => isMetricColumn(ctx.cols[i]));
  if (numbers.length < 2 || numbers.length !== ctx.cols.length) return null;
  return { steps: numbers.map((i) => ({ key: ctx.cols[i].name, name: ctx.title(i), value: numberOf(ctx.rows[0][i]) ?? 0 })), metric: numbers[0] };
}

/** Text inside an ECharts rich-text block, where braces would end the block. */
function richText(text: string): string {
  return text.replace(/[{}]/g, (c) => (c === '{' ? '(' : ')'));
}

export function describeFunnel(ctx: VizContext): ChartVisualization | null {
  if (ctx.settings['funnel.type'] === 'bar') {
    const bar = describeCartesian(ctx, 'bar');
    return bar ? { ...bar, display: 'funnel' } : null;
  }
  const found = stepsFromRows(ctx) ?? stepsFromColumns(ctx);
  if (!found) return null;
  const steps = orderedByKey(ctx.settings['funnel.rows'], found.steps);
  if (steps.length === 0 || steps[0].value <= 0) return null;
  const first = steps[0].value;
  const metricSettings = ctx.columnSettings(found.metric);
  const share = (v: number) => formatNumber(v / first, { number_style: 'percent' });
  const width = ctx.options.width;
  const height = Math.max(Math.round(width * 0.6), steps.length * 36 + 32);
  const labelWidth = Math.round(width * 0.3);
  const option: EChartsOption = {
    animation: false,
    series: [
      {
        type: 'funnel',
        sort: 'none',
        left: labelWidth,
        right: 16,
        top: 16,
        bottom: 16,
        minSize: '4%',
        maxSize: '100%',
        gap: 2,
        itemStyle: { borderWidth: 0 },
        label: {
          show: true,
          position: 'left',
          distance: 12,
          color: COLORS.textDark,
          fontSize: 12,
          formatter: (p: { name: string; value: unknown }) => `{name|${richText(p.name)}}\n{value|${richText(formatNumber(p.value as number, metricSettings))} · ${share(p.value as number)}}`,
          rich: { name: { fontSize: 12, fontWeight: 'bold', color: COLORS.textDark, align: 'right' }, value: { fontSize: 11, color: COLORS.textMedium, align: 'right', padding: [3, 0, 0, 0] } },
        },
        labelLine: { show: false },
        // Every label in one column left of the funnel, not beside each step's slanted edge.
        labelLayout: { x: labelWidth - 12, align: 'right' },
        data: steps.map((s, i) => ({ name: s.name, value: s.value, itemStyle: { color: shade(seriesColor(0), (0.5 * i) / Math.max(1, steps.length - 1)) } })),
      },
    ],
  };
  return { kind: 'chart', display: 'funnel', width, height, option };
}
