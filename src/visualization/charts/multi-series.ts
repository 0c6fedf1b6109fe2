// A dashcard with other cards overlaid (its `series`) is one line/area/bar/combo chart, as in Metabase: every card
// contributes its own series (its `graph.metrics`, else its aggregations or numbers) against its own x column, all
// on the first card's x axis, which holds every card's x values; the first card's settings rule the chart. Combining
// makes one plain input for the chart builder: the first card's x column, then one column per card metric, titled by
// the card's name (`card: metric` for a card plotting several) — the key `series_settings` uses for it — carrying
// the formatting its own card gives it, and drawn as its own card is (line, area or bar). A card with a second dimension (a breakout split into series) can't be
// merged this way: overlaid, it is left out; as the first card, the chart shows that card alone.

import { vizContext } from '../context.js';
import type { DescribeOptions, VisualizationInput, VisualizationSettings } from '../types.js';
import { chartAxes } from './cartesian-data.js';

/** Displays whose dashcards overlay their series cards. */
export const MULTI_SERIES_DISPLAYS = new Set(['line', 'area', 'bar', 'combo']);
const SERIES_DISPLAYS = new Set(['line', 'area', 'bar']);

type Obj = Record<string, unknown>;

interface CardInput {
  name: string;
  display: string;
  settings: VisualizationSettings;
  cols: Obj[];
  rows: unknown[][];
}

interface Plotted {
  card: CardInput;
  dimension: number;
  metrics: Array<{ index: number; column: Obj; title: string; settings: Obj }>;
}

function objects(value: unknown): Obj {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}

function plotted(card: CardInput, options: DescribeOptions): Plotted | null {
  const cols = card.cols.filter((c) => !!c && typeof c === 'object');
  const rows = card.rows.filter(Array.isArray);
  if (cols.length !== card.cols.length) return null;
  const ctx = vizContext({ display: card.display, settings: card.settings, cols, rows }, options);
  const axes = chartAxes(ctx);
  if (!axes || axes.dimensions.length !== 1) return null;
  const several = axes.metrics.length > 1;
  return {
    card: { ...card, cols, rows },
    dimension: axes.dimensions[0],
    metrics: axes.metrics.map((index) => ({
      index,
      column: cols[index],
      title: several ? `${card.name}: ${ctx.title(index)}` : card.name,
      settings: ctx.columnSettings(index),
    })),
  };
}

/** The combined input, or null when there is nothing to overlay (the first card is then drawn alone). */
export function combinedSeriesInput(input: VisualizationInput, options: DescribeOptions): VisualizationInput | null {
  if (!Array.isArray(input.series) || input.series.length === 0 || !MULTI_SERIES_DISPLAYS.has(input.display)) return null;
  const main = plotted({ name: input.name ?? '', display: input.display, settings: objects(input.settings), cols: input.cols, rows: input.rows }, options);
  if (!main) return null;
  const extras = input.series
    .filter((s) => !!s && typeof s === 'object' && Array.isArray(s.cols) && Array.isArray(s.rows))
    .map((s) => plotted({ name: String(s.name ?? ''), display: String(s.display ?? ''), settings: objects(s.settings), cols: s.cols, rows: s.rows }, options))
    .filter((p): p is Plotted => p !== null);
  if (extras.length === 0) return null;

  const mainSettings = objects(input.settings);
  const ownSeriesSettings = objects(mainSettings.series_settings);
  const xColumn = main.card.cols[main.dimension];
  const taken = new Set([String(xColumn.name)]);
  const cols: Obj[] = [xColumn];
  const seriesSettings: Obj = {};
  const cards = [main, ...extras];
  const width = 1 + cards.reduce((n, c) => n + c.metrics.length, 0);
  const rows: unknown[][] = [];
  cards.forEach((card, cardIndex) => {
    const firstColumn = cols.length;
    for (const metric of card.metrics) {
      let key = metric.title;
      for (let n = 2; taken.has(key); n++) key = `${metric.title} (${n})`;
      taken.add(key);
      // The first card's series may still be configured under its metric's name, from before it had series.
      const configured = objects(ownSeriesSettings[key] ?? (cardIndex === 0 ? ownSeriesSettings[String(metric.column.name)] : undefined));
      // An overlaid card keeps its own display (a line card over bars stays a line); the first card's follow the chart.
      const display = cardIndex > 0 && SERIES_DISPLAYS.has(card.card.display) ? { display: card.card.display } : {};
      seriesSettings[key] = { ...display, ...configured };
      cols.push({ name: key, display_name: key, base_type: metric.column.base_type, semantic_type: metric.column.semantic_type, source: 'aggregation', settings: metric.settings });
    }
    for (const row of card.card.rows) {
      const combined: unknown[] = new Array(width).fill(null);
      combined[0] = row[card.dimension];
      card.metrics.forEach((metric, i) => (combined[firstColumn + i] = row[metric.index]));
      rows.push(combined);
    }
  });
  return {
    display: input.display,
    name: input.name,
    settings: { ...mainSettings, 'graph.dimensions': [xColumn.name], 'graph.metrics': cols.slice(1).map((c) => c.name), series_settings: seriesSettings },
    cols,
    rows,
  };
}
