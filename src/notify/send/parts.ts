// The parts of one send, with their results: for an alert or a card pulse its cards; for a dashboard subscription the
// dashboard's current dashcards in layout order (tab, row, column) — cards run with the subscription's filter values
// (else the filters' defaults) and text cards as they are. Every query goes through the normal pipeline as the
// subscription's creator, with the API's row limits, so nobody receives data its owner can't see; a card that fails
// (or that the creator may no longer read) becomes a placeholder instead of stopping the send. A dashcard's series
// (other cards overlaid on its chart) run the same way, with the filter values mapped to them; one that fails or
// that the creator may not read is left off the chart.

import type { AppContext } from '../../context.js';
import type { Caller } from '../../http/caller.js';
import { ApiError } from '../../http/errors.js';
import { collectionAccess, type CollectionAccess } from '../../permissions/collections.js';
import { bool, parseJson } from '../../appdb/portable.js';
import { cardsByIds, datasetQueryOf, modelMetadataOf, type CardRow } from '../../cards/store.js';
import { cardRunParameters } from '../../cards/run.js';
import { dashcardsOf, findDashboard, parametersOf as dashboardParametersOf, seriesOf, tabsOf, vizSettingsOf, type DashboardRow, type DashcardRow } from '../../dashboards/store.js';
import { dashcardQueryParameters } from '../../dashboards/parameters.js';
import { runParameters } from '../../dashboards/dashcard-query.js';
import { runQueryToMemory, runQueryToFile, runPivotQueryToFile, type QueryResult } from '../../query/index.js';
import { errorMessage } from '../../tasks/history.js';
import type { LoadedPulse } from '../store.js';
import type { RenderableCard } from '../render/index.js';

type Obj = Record<string, unknown>;

export interface CardPart {
  kind: 'card';
  card: CardRow;
  /** The card as drawn: its visualization settings with the dashcard's laid over them (and, once run, its series). */
  renderable: RenderableCard;
  /** The title shown (a dashcard's `card.title` override, else the card's name). */
  title: string;
  description: string | null;
  dashcardId: number | null;
  result: QueryResult | null;
  /** Why there is no result: the query failed or was refused. */
  error: string | null;
  includeCsv: boolean;
  includeXls: boolean;
  formatRows: boolean;
  /** Attach a pivot card's files as the pivot table it shows (`pivot_results`), not as its result rows. */
  pivotResults: boolean;
  /** The parameters the card ran with (for attachments). */
  parameters: Obj[];
  /** Cards overlaid on this one's chart (a dashcard's series), with the parameters each runs with. */
  series: Array<{ card: CardRow; parameters: Obj[] }>;
}

export interface TextPart {
  kind: 'text';
  /** Markdown (text cards) or a heading. */
  text: string;
  heading: boolean;
}

export interface TabPart {
  kind: 'tab';
  name: string;
}

export type Part = CardPart | TextPart | TabPart;

export interface SendContent {
  parts: Part[];
  dashboard: DashboardRow | null;
  /** The dashboard's filters with the values the subscription uses (for the header and the dashboard link). */
  filters: Array<{ id: string; name: string; slug: string; value: unknown }>;
}

const QUERY_CONCURRENCY = 3;

/** The dashboard's filters with the subscription's values laid over their defaults. */
export function filterValues(dashboard: DashboardRow, pulseParameters: Obj[]): SendContent['filters'] {
  const chosen = new Map(pulseParameters.filter((p) => typeof p.id === 'string').map((p) => [p.id as string, p]));
  return dashboardParametersOf(dashboard)
    .filter((p) => typeof p.id === 'string')
    .map((p) => {
      const own = chosen.get(p.id as string);
      const value = own && own.value !== undefined ? own.value : p.default;
      return { id: p.id as string, name: String(p.name ?? p.slug ?? p.id), slug: String(p.slug ?? p.id), value: value ?? null };
    });
}

/** One saved card's query as the creator, for a send (context `pulse`, the API's row limits). */
function runSaved(ctx: AppContext, creator: Caller, card: CardRow, parameters: Obj[], dashboardId: number | null, signal?: AbortSignal): Promise<QueryResult> {
  return runQueryToMemory(ctx, {
    query: datasetQueryOf(card),
    caller: creator,
    context: 'pulse',
    cardId: card.id,
    dashboardId,
    parameters,
    savedParameterTargets: true,
    modelMetadata: modelMetadataOf(card),
    signal,
  });
}

async function runCard(ctx: AppContext, creator: Caller, access: CollectionAccess, part: CardPart, dashboardId: number | null, signal?: AbortSignal): Promise<void> {
  // the engine trusts a saved card's own query to whoever may read the card: that check is ours
  if (!access.canRead(part.card.collection_id)) {
    part.error = "The subscription's owner may not see this question.";
    return;
  }
  try {
    part.result = await runSaved(ctx, creator, part.card, part.parameters, dashboardId, signal);
    if (part.result.status !== 'completed') part.error = String(part.result.error ?? 'The query failed.');
  } catch (error) {
    part.result = null;
    part.error = error instanceof ApiError ? `The subscription's owner may not run this question (${error.message}).` : errorMessage(error);
  }
  if (part.result?.status === 'completed' && part.series.length > 0) await runSeries(ctx, creator, access, part, dashboardId, signal);
}

/** The overlaid cards' results, in order, onto the part's renderable; those that can't be shown are left off. */
async function runSeries(ctx: AppContext, creator: Caller, access: CollectionAccess, part: CardPart, dashboardId: number | null, signal?: AbortSignal): Promise<void> {
  const drawn: NonNullable<RenderableCard['series']> = [];
  for (const { card, parameters } of part.series) {
    if (!access.canRead(card.collection_id)) continue;
    try {
      const result = await runSaved(ctx, creator, card, parameters, dashboardId, signal);
      if (result.status !== 'completed') continue;
      const settings = parseJson<Obj>(card.visualization_settings, {});
      drawn.push({ card: { name: card.name, display: card.display, visualization_settings: settings }, result: result.data });
    } catch (error) {
      ctx.log.debug({ err: error, card: card.id }, 'a series card of a dashcard could not run');
    }
  }
  part.renderable = { ...part.renderable, series: drawn };
}

/** Runs `work` over `items`, a few at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

function cardPart(
  card: CardRow,
  ref: { include_csv: boolean; include_xls: boolean; format_rows: boolean; pivot_results: boolean } | null,
  dashcard: DashcardRow | null,
  parameters: Obj[],
  series: CardPart['series'] = [],
): CardPart {
  const overrides = dashcard ? vizSettingsOf(dashcard) : {};
  const settings = { ...parseJson<Obj>(card.visualization_settings, {}), ...overrides };
  const title = typeof overrides['card.title'] === 'string' && overrides['card.title'] ? (overrides['card.title'] as string) : card.name;
  const description = typeof overrides['card.description'] === 'string' ? (overrides['card.description'] as string) : card.description;
  return {
    kind: 'card',
    card,
    renderable: { name: title, display: card.display, visualization_settings: settings },
    title,
    description,
    dashcardId: dashcard?.id ?? null,
    result: null,
    error: null,
    includeCsv: ref?.include_csv ?? false,
    includeXls: ref?.include_xls ?? false,
    formatRows: ref?.format_rows ?? true,
    pivotResults: ref?.pivot_results ?? false,
    parameters,
    series,
  };
}

/** Gathers and runs everything a send of this pulse shows. */
export async function gatherContent(ctx: AppContext, loaded: LoadedPulse, creator: Caller, signal?: AbortSignal): Promise<SendContent> {
  const access = await collectionAccess(ctx, creator);
  const refs = loaded.cards.map((c) => ({ ...c, include_csv: bool(c.include_csv), include_xls: bool(c.include_xls), format_rows: bool(c.format_rows), pivot_results: bool(c.pivot_results) }));
  const dashboardId = loaded.pulse.dashboard_id;
  if (dashboardId === null) {
    const cards = await cardsByIds(ctx.db, refs.map((r) => r.card_id));
    const parts = refs
      .map((ref) => {
        const card = cards.get(ref.card_id);
        return card && !bool(card.archived) ? cardPart(card, ref, null, cardRunParameters(card, [])) : null;
      })
      .filter((p): p is CardPart => p !== null);
    await eachLimited(parts, QUERY_CONCURRENCY, (p) => runCard(ctx, creator, access, p, null, signal));
    return { parts, dashboard: null, filters: [] };
  }
  const dashboard = await findDashboard(ctx.db, dashboardId);
  if (!dashboard) return { parts: [], dashboard: null, filters: [] };
  const pulseParameters = parseJson<Obj[]>(loaded.pulse.parameters, []);
  const filters = filterValues(dashboard, pulseParameters);
  const requested = filters.filter((f) => f.value !== null && f.value !== undefined).map((f) => ({ id: f.id, value: f.value }));
  const definitions = dashboardParametersOf(dashboard);
  const [dashcards, tabs] = await Promise.all([dashcardsOf(ctx.db, [dashboardId]), tabsOf(ctx.db, [dashboardId])]);
  const seriesIds = await seriesOf(ctx.db, dashcards.map((d) => d.id));
  const cardIds = [...dashcards.map((d) => d.card_id).filter((id): id is number => id !== null), ...[...seriesIds.values()].flat()];
  const cards = await cardsByIds(ctx.db, [...new Set(cardIds)]);
  const refByDashcard = new Map(refs.filter((r) => r.dashboard_card_id !== null).map((r) => [r.dashboard_card_id!, r]));
  const tabPosition = new Map(tabs.map((t) => [t.id, t.position]));
  const ordered = [...dashcards].sort(
    (a, b) => (tabPosition.get(a.dashboard_tab_id ?? -1) ?? 0) - (tabPosition.get(b.dashboard_tab_id ?? -1) ?? 0) || a.row - b.row || a.col - b.col || a.id - b.id,
  );
  const parts: Part[] = [];
  let currentTab: number | null | undefined;
  for (const dashcard of ordered) {
    if (tabs.length > 1 && dashcard.dashboard_tab_id !== currentTab) {
      currentTab = dashcard.dashboard_tab_id;
      const tab = tabs.find((t) => t.id === currentTab);
      if (tab) parts.push({ kind: 'tab', name: tab.name });
    }
    if (dashcard.card_id === null) {
      const virtual = vizSettingsOf(dashcard);
      const display = (virtual.virtual_card as Obj | undefined)?.display;
      if ((display === 'text' || display === 'heading') && typeof virtual.text === 'string' && virtual.text.trim()) parts.push({ kind: 'text', text: virtual.text, heading: display === 'heading' });
      continue;
    }
    const card = cards.get(dashcard.card_id);
    if (!card || bool(card.archived)) continue;
    const parametersFor = (target: CardRow) => runParameters(target, dashcard, dashcardQueryParameters(dashboardId, definitions, dashcard, target.id, requested));
    const series = (seriesIds.get(dashcard.id) ?? [])
      .map((id) => cards.get(id))
      .filter((c): c is CardRow => c !== undefined && !bool(c.archived))
      .map((c) => ({ card: c, parameters: parametersFor(c) }));
    parts.push(cardPart(card, refByDashcard.get(dashcard.id) ?? null, dashcard, parametersFor(card), series));
  }
  const cardParts = parts.filter((p): p is CardPart => p.kind === 'card');
  await eachLimited(cardParts, QUERY_CONCURRENCY, (p) => runCard(ctx, creator, access, p, dashboardId, signal));
  return { parts, dashboard, filters };
}

/** Whether a result shows nothing: no rows, or one row holding only a null (Metabase's "empty"). */
export function isEmptyResult(result: QueryResult | null): boolean {
  if (!result || result.status !== 'completed') return true;
  const rows = result.data.rows;
  return rows.length === 0 || (rows.length === 1 && rows[0].length === 1 && (rows[0][0] === null || rows[0][0] === undefined));
}

export interface FileAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * CSV and XLSX files of the cards that ask for them and have rows: the card run again as a download (the download
 * limits and the creator's download permissions apply; a creator who may not download gets no file). A pivot card
 * with `pivot_results` attaches the pivot table it shows (rows, columns, subtotals), as its pivoted download does.
 */
export async function attachmentsOf(ctx: AppContext, creator: Caller, content: SendContent, stamp: string, signal?: AbortSignal): Promise<FileAttachment[]> {
  const out: FileAttachment[] = [];
  for (const part of content.parts) {
    if (part.kind !== 'card' || isEmptyResult(part.result) || (!part.includeCsv && !part.includeXls)) continue;
    for (const format of [part.includeCsv ? 'csv' : null, part.includeXls ? 'xlsx' : null].filter((f): f is 'csv' | 'xlsx' => f !== null)) {
      try {
        const run = part.pivotResults && part.card.display === 'pivot' ? runPivotQueryToFile : runQueryToFile;
        const file = await run(ctx, {
          query: datasetQueryOf(part.card),
          caller: creator,
          context: `${format}-download`,
          cardId: part.card.id,
          dashboardId: content.dashboard?.id ?? null,
          parameters: part.parameters,
          savedParameterTargets: true,
          modelMetadata: modelMetadataOf(part.card),
          exportFormat: format,
          formatRows: part.formatRows,
          visualizationSettings: part.renderable.visualization_settings,
          signal,
        });
        if (file.status !== 'completed') continue;
        out.push({ filename: `${part.title}_${stamp}.${format}`, content: file.body, contentType: format === 'csv' ? 'text/csv' : XLSX_TYPE });
      } catch (error) {
        ctx.log.warn({ err: error, card: part.card.id }, 'an attachment could not be made');
      }
    }
  }
  return out;
}
