// The one entry point: a card's display, settings and result → what to draw. Chooses as Metabase's static
// renderer does — no rows (or one null) is "No results"; one column × one row is a scalar (except progress and
// gauge); a line/area/bar/combo card with other cards overlaid is one chart of all their series; named displays
// get their builder; anything unknown (maps, pivot, object detail…) or that its builder
// can't draw (too few columns, no number to plot…) becomes a table. Never throws for odd input.

import { vizContext, type VizContext } from './context.js';
import { describeCartesian } from './charts/cartesian.js';
import { describeScalar } from './charts/scalar.js';
import { describeSmartScalar } from './charts/smartscalar.js';
import { describePie } from './charts/pie.js';
import { describeProgress } from './charts/progress.js';
import { describeGauge } from './charts/gauge.js';
import { describeFunnel } from './charts/funnel.js';
import { describeScatter } from './charts/scatter.js';
import { describeWaterfall } from './charts/waterfall.js';
import { describeTable } from './table.js';
import { combinedSeriesInput } from './charts/multi-series.js';
import type { DescribeOptions, Visualization, VisualizationInput } from './types.js';

type Builder = (ctx: VizContext) => Visualization | null;

const BUILDERS: Record<string, Builder> = {
  line: (ctx) => describeCartesian(ctx, 'line'),
  area: (ctx) => describeCartesian(ctx, 'area'),
  bar: (ctx) => describeCartesian(ctx, 'bar'),
  combo: (ctx) => describeCartesian(ctx, 'combo'),
  row: (ctx) => describeCartesian(ctx, 'row'),
  scatter: describeScatter,
  waterfall: describeWaterfall,
  pie: describePie,
  scalar: describeScalar,
  smartscalar: describeSmartScalar,
  progress: describeProgress,
  gauge: describeGauge,
  funnel: describeFunnel,
  table: describeTable,
};

/** Displays drawn by a builder of their own (everything else is a table). */
export const SUPPORTED_DISPLAYS = Object.keys(BUILDERS);

function isEmpty(rows: unknown[][]): boolean {
  return rows.length === 0 || (rows.length === 1 && rows[0].length === 1 && (rows[0][0] === null || rows[0][0] === undefined));
}

function withSeries(input: VisualizationInput, options: DescribeOptions): VisualizationInput {
  try {
    return combinedSeriesInput(input, options) ?? input;
  } catch {
    return input; // series too odd to overlay: the card alone
  }
}

export function describeVisualization(given: VisualizationInput, options: DescribeOptions): Visualization {
  const input = withSeries(given, options);
  const rows = Array.isArray(input.rows) ? input.rows.filter(Array.isArray) : [];
  const cols = Array.isArray(input.cols) ? input.cols.filter((c) => !!c && typeof c === 'object') : [];
  const settings = input.settings && typeof input.settings === 'object' ? input.settings : {};
  if (isEmpty(rows) || cols.length === 0) return { kind: 'empty', message: 'No results' };
  const ctx = vizContext({ display: String(input.display ?? 'table'), settings, cols, rows }, options);
  const single = cols.length === 1 && rows.length === 1;
  const display = single && ctx.display !== 'progress' && ctx.display !== 'gauge' && ctx.display !== 'object' ? 'scalar' : ctx.display;
  const builder = BUILDERS[display];
  if (builder) {
    try {
      const described = builder(ctx);
      if (described) return described;
    } catch {
      // An input the builder didn't foresee: the table below still shows the data.
    }
  }
  return describeTable(ctx);
}

/** The table form of any result (what a card falls back to when its picture cannot be drawn). */
export function describeAsTable(input: VisualizationInput, options: DescribeOptions): Visualization {
  const rows = Array.isArray(input.rows) ? input.rows.filter(Array.isArray) : [];
  const cols = Array.isArray(input.cols) ? input.cols.filter((c) => !!c && typeof c === 'object') : [];
  if (isEmpty(rows) || cols.length === 0) return { kind: 'empty', message: 'No results' };
  return describeTable(vizContext({ display: 'table', settings: input.settings ?? {}, cols, rows }, options));
}
