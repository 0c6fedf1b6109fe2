// Running a card: its saved query, with the parameters of the request (and the card's parameter defaults), through
// the query engine — as a 202 streamed result, a download, or a pivot table. Reading the card needs collection read
// access; the engine checks data permissions.

import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { nowIso, parseJson } from '../appdb/portable.js';
import { slugify } from '../util/slug.js';
import { collectionAccess } from '../permissions/collections.js';
import { runQuery, resultMetadataOf, type ExportFormat, type QueryRequest } from '../query/index.js';
import { runPivotQuery } from '../query/pivot.js';
import { normalizeParameter } from '../query/mbql/normalize.js';
import { readableCard } from './cards.js';
import { setResultMetadataProvider } from './result-metadata.js';
import { datasetQueryOf, modelMetadataOf, parametersOf, type CardRow } from './store.js';

type Obj = Record<string, unknown>;

/** A parameter target in one spelling (`["variable", ["template-tag", "x"]]`, field refs normalized), for comparing. */
function targetKey(target: unknown): string | null {
  if (target === undefined || target === null) return null;
  try {
    return JSON.stringify(normalizeParameter({ type: 'category', target }).target);
  } catch {
    return JSON.stringify(target);
  }
}

/**
 * The parameters to run a card with: those sent (their `target` and `type` completed from the card's own parameter
 * of the same id), plus the defaults of the card's parameters that weren't sent — by id, or by target for a
 * parameter sent with a target and no id.
 */
export function cardRunParameters(card: CardRow, supplied: unknown): Obj[] {
  const defined = parametersOf(card);
  const byId = new Map(defined.map((p) => [String(p.id), p]));
  const sent = (Array.isArray(supplied) ? supplied : []).filter((p): p is Obj => p !== null && typeof p === 'object' && !Array.isArray(p));
  const out: Obj[] = sent.map((p) => {
    const own = p.id === undefined || p.id === null ? undefined : byId.get(String(p.id));
    return { ...(own ? { type: own.type, target: own.target } : {}), ...p };
  });
  const sentIds = new Set(sent.filter((p) => p.id !== undefined && p.id !== null).map((p) => String(p.id)));
  const sentTargets = new Set(out.map((p) => targetKey(p.target)).filter((k): k is string => k !== null));
  for (const p of defined) {
    if (sentIds.has(String(p.id)) || p.default === undefined || p.default === null || !p.target) continue;
    if (sentTargets.has(targetKey(p.target)!)) continue;
    out.push({ id: p.id, type: p.type, target: p.target, value: p.default });
  }
  return out.filter((p) => p.target !== undefined);
}

// last_used_at is a recency hint (Metabase too writes it in batches, some seconds late): a card run by a busy
// dashboard writes it at most once per card and instance every LAST_USED_RESOLUTION_MS, not on every run.
const LAST_USED_RESOLUTION_MS = 20_000;
const lastTouched = new WeakMap<AppContext, Map<number, number>>();

async function touchLastUsed(ctx: AppContext, cardId: number): Promise<void> {
  let touched = lastTouched.get(ctx);
  if (!touched) lastTouched.set(ctx, (touched = new Map()));
  const now = Date.now();
  const previous = touched.get(cardId);
  if (previous !== undefined && now - previous < LAST_USED_RESOLUTION_MS) return;
  if (touched.size >= 10_000) touched.clear();
  touched.set(cardId, now);
  await ctx.db.updateTable('report_card').set({ last_used_at: nowIso() }).where('id', '=', cardId).execute().catch(() => {});
}

export interface CardRunOptions {
  parameters?: unknown;
  collectionPreview?: boolean;
  dashboardId?: number | null;
  /** Skip the stored result (the fresh one is still stored). */
  ignoreCache?: boolean;
}

/** POST /api/card/:id/query — 202 with the result, failures inside the body. */
export async function runCard(ctx: AppContext, caller: Caller, reply: FastifyReply, id: number, options: CardRunOptions) {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  const request: QueryRequest = {
    query: datasetQueryOf(card),
    caller,
    context: options.collectionPreview ? 'collection' : 'question',
    cardId: card.id,
    dashboardId: options.dashboardId ?? null,
    parameters: cardRunParameters(card, options.parameters),
    modelMetadata: modelMetadataOf(card),
    cache: { ignoreCache: options.ignoreCache ?? false },
  };
  await touchLastUsed(ctx, card.id);
  return runQuery(ctx, reply, request);
}

export interface CardExportOptions {
  parameters?: unknown;
  formatRows: boolean;
  pivotResults: boolean;
}

/** POST /api/card/:id/query/:export-format — a file named after the card. */
export async function exportCard(ctx: AppContext, caller: Caller, reply: FastifyReply, id: number, format: ExportFormat, options: CardExportOptions) {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  const query = datasetQueryOf(card);
  const request: QueryRequest = {
    query,
    caller,
    context: format === 'api' ? 'api-download' : `${format}-download`,
    cardId: card.id,
    exportFormat: format,
    formatRows: options.formatRows,
    parameters: cardRunParameters(card, options.parameters),
    filename: `${slugify(card.name) || 'query_result'}_${new Date().toISOString()}`,
    visualizationSettings: parseJson<Obj>(card.visualization_settings, {}),
    modelMetadata: modelMetadataOf(card),
    cache: {},
  };
  await touchLastUsed(ctx, card.id);
  if (options.pivotResults && query.type === 'query') return runPivotQuery(ctx, reply, { ...request, pivot: pivotOf(card) });
  return runQuery(ctx, reply, request);
}

/** The pivot table's rows and columns from the card's visualization settings (breakout indexes). */
function pivotOf(card: CardRow): { rows?: number[]; cols?: number[] } {
  const settings = parseJson<Obj>(card.visualization_settings, {});
  const split = settings['pivot_table.column_split'] as { rows?: unknown[]; columns?: unknown[] } | undefined;
  const query = datasetQueryOf(card) as { query?: { breakout?: unknown[] } };
  const breakout = query.query?.breakout ?? [];
  const indexOf = (ref: unknown) => breakout.findIndex((b) => JSON.stringify(b) === JSON.stringify(ref));
  if (!split) return {};
  const rows = (split.rows ?? []).map(indexOf).filter((i) => i >= 0);
  const cols = (split.columns ?? []).map(indexOf).filter((i) => i >= 0);
  return { rows, cols };
}

/** POST /api/card/pivot/:id/query — the pivot-table result (with the `pivot-grouping` rows). */
export async function runCardPivot(ctx: AppContext, caller: Caller, reply: FastifyReply, id: number, options: CardRunOptions) {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  await touchLastUsed(ctx, card.id);
  return runPivotQuery(ctx, reply, {
    query: datasetQueryOf(card),
    caller,
    context: 'question',
    cardId: card.id,
    parameters: cardRunParameters(card, options.parameters),
    pivot: pivotOf(card),
    modelMetadata: modelMetadataOf(card),
    cache: { ignoreCache: options.ignoreCache ?? false },
  });
}

// `result_metadata` of a card saved without one: the columns its query returns, worked out without running it where
// the query engine can (src/query/result-metadata.ts).
setResultMetadataProvider((ctx, caller, datasetQuery) => resultMetadataOf(ctx, { query: datasetQuery, caller, context: 'question' }));
