// Comparison dashboards: the X-ray of one side (a segment, a cell, a filtered question) beside the same cards on the
// other side (the whole table, a segment, an ad-hoc query of the same source) — each pair of cards side by side, or
// one line/bar chart with the other side as a second series.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest } from '../http/errors.js';
import { andFilters, type PlannedCard } from './cards.js';
import { canRun, cardJson, idMaker, planXray, sectionsOf, type XrayOptions } from './dashboard.js';
import { textDashcard } from './layout.js';
import { relatedBlock, type Related } from './links.js';
import { conditionWords } from './names.js';
import type { Root } from './roots.js';

type Obj = Record<string, unknown>;

export const DIFFERENT_SOURCES = 'Both sides of a comparison must read the same table or saved question.';

async function sideName(ctx: AppContext, root: Root, allOf: boolean): Promise<string> {
  if (root.cell) return `${root.fullName} where ${await conditionWords(ctx, root.cell)}`;
  if (root.segmentName) return `${root.segmentName} segment`;
  if (root.entity === 'table' && allOf) return `All ${root.source.name}`;
  return root.fullName;
}

/** The left side's related block, less its comparisons (this is one), with the right side among the related. */
function comparisonRelated(related: Related, right: Root): Related {
  const { compare: _compare, ...rest } = related;
  const known = new Set(Object.values(rest).flatMap((links) => (links ?? []).map((l) => l.url)));
  if (known.has(right.url)) return rest;
  return { ...rest, related: [...(rest.related ?? []), { url: right.url, title: right.fullName, description: '' }].slice(0, 3) };
}

/** Single-series line and bar charts compare best as one chart with both sides as series. */
function overlays(card: PlannedCard): boolean {
  const query = card.query as { aggregation?: unknown[]; breakout?: unknown[] };
  return (card.display === 'line' || card.display === 'bar') && (query.aggregation?.length ?? 0) === 1 && (query.breakout?.length ?? 0) === 1;
}

export async function buildComparison(ctx: AppContext, caller: Caller, left: Root, right: Root, options: XrayOptions, url: string): Promise<Obj> {
  if (String(left.source.sourceTable) !== String(right.source.sourceTable) || left.source.databaseId !== right.source.databaseId) throw badRequest(DIFFERENT_SOURCES);
  const plan = await planXray(ctx, left, options);
  const leftFiltered = left.filter !== null || left.cell !== null;
  const rightFiltered = right.filter !== null || right.cell !== null;
  // the right side is "All <table>" when it is the whole of what the left side narrows
  const [leftName, rightName] = [await sideName(ctx, left, false), await sideName(ctx, right, leftFiltered && !rightFiltered)];
  const rightFilter = andFilters([right.filter, right.cell]);
  const rightQuery = (card: PlannedCard): Obj => {
    const { filter: _drop, ...rest } = card.query;
    const filter = andFilters([rightFilter, card.ownFilter]);
    return filter ? { ...rest, filter } : rest;
  };

  // the left side stacked in the left half, each card's right-side twin beside it (or drawn over it)
  const nextId = idMaker();
  const title = (text: string, col: number) => textDashcard(nextId(), `# ${text}`, { row: 0, col, sizeX: 12, sizeY: 2 });
  const dashcards: Obj[] = [title(leftName, 0), title(rightName, 12)];
  const placed: Array<{ item: PlannedCard | { heading: string }; row: number; sizeY: number }> = [];
  let row = 2;
  for (const section of sectionsOf(plan, true)) {
    if (section.heading) {
      placed.push({ item: { heading: section.heading }, row, sizeY: 2 });
      row += 2;
    }
    for (const { item, height } of section.items) {
      placed.push({ item, row, sizeY: height });
      row += height;
    }
  }
  const cards = placed.map((p) => p.item).filter((c): c is PlannedCard => !('heading' in c));
  const queries = cards.flatMap((c) => [c.query, rightQuery(c)]);
  const runnable = await canRun(ctx, caller, left, queries);
  for (const p of placed) {
    const item = p.item;
    if ('heading' in item) {
      dashcards.push(textDashcard(nextId(), item.heading, { row: p.row, sizeY: 2, col: 0, sizeX: 12 }), textDashcard(nextId(), item.heading, { row: p.row, sizeY: 2, col: 12, sizeX: 12 }));
      continue;
    }
    const i = cards.indexOf(item);
    const make = (query: Obj, side: string, ok: boolean) => {
      const cardId = nextId();
      return cardJson({ id: cardId, card: { ...item, title: `${item.title} (${side})` }, root: left, creatorId: caller.user.id, canRun: ok }, query);
    };
    const leftCard = make(item.query, leftName, runnable[2 * i]);
    const rightCard = make(rightQuery(item), rightName, runnable[2 * i + 1]);
    if (overlays(item)) {
      // one chart, the other side drawn over it as a second series
      const settings = { 'graph.y_axis.auto_split': false };
      dashcards.push({ id: nextId(), dashboard_tab_id: null, row: p.row, col: 0, size_x: 24, size_y: p.sizeY, card_id: leftCard.id, card: leftCard, series: [rightCard], visualization_settings: settings, parameter_mappings: [] });
      continue;
    }
    for (const [col, card] of [
      [0, leftCard],
      [12, rightCard],
    ] as const) {
      dashcards.push({ id: nextId(), dashboard_tab_id: null, row: p.row, col, size_x: 12, size_y: p.sizeY, card_id: card.id, card, series: [], visualization_settings: {}, parameter_mappings: [] });
    }
  }
  dashcards.sort((a, b) => (a.row as number) - (b.row as number) || (a.col as number) - (b.col as number));
  const related = await relatedBlock(ctx, left, plan.template, plan.bindings, plan.input, url);
  const name = `Comparison of ${leftName} and ${rightName}`;
  return {
    name,
    transient_name: name,
    description: `Automatically generated comparison dashboard comparing ${leftName} and ${rightName}`,
    creator_id: caller.user.id,
    parameters: [],
    dashcards,
    related: comparisonRelated(related, right),
    more: null,
    transient_filters: null,
    param_fields: null,
    auto_apply_filters: true,
    width: 'fixed',
  };
}
