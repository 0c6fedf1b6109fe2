// Running a dashcard's card (POST /api/dashboard/:d/dashcard/:dc/card/:c/query, its downloads and pivot): the card
// must be the dashcard's card or one of its series; the dashboard's parameters sent with the request are matched to
// the dashcard's `parameter_mappings` for that card and handed to the query engine with their targets (MBQL field
// targets become filters, template-tag targets fill the native query's tags). Context `dashboard`.
//
// A dashboard page fires one request per card at once; with the same `dashboard_load_id` they share one read of the
// dashboard, its dashcards and the caller's collection access (kept for a few seconds).
//
// Action buttons (GET/POST …/dashcard/:dc/execute) run the dashcard's action through src/actions, for callers who may
// read the dashboard (404 for a dashcard without an action).

import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, notFound } from '../http/errors.js';
import { parseJsonParam } from '../http/schema.js';
import { bool, parseJson } from '../appdb/portable.js';
import { slugify } from '../util/slug.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { cardsByIds, datasetQueryOf, modelMetadataOf, type CardRow } from '../cards/store.js';
import { cardRunParameters } from '../cards/run.js';
import { QueryError, runQuery, type ExportFormat, type QueryRequest } from '../query/index.js';
import { replyWithQueryError } from '../query/run.js';
import { runPivotQuery } from '../query/pivot.js';
import { deepEqual } from '../query/mbql/clauses.js';
import { readableDashboard } from './dashboards.js';
import { dashcardsOf, mappingsOf, parametersOf, seriesOf, vizSettingsOf, type DashboardRow, type DashcardRow } from './store.js';
import { dashcardQueryParameters, rememberParameterValues } from './parameters.js';
import { dashcardParameterProblem } from './mapping-targets.js';
import { dashcardAction } from '../actions/dashcards.js';
import { actionFormValues, executeAction } from '../actions/run.js';
import type { ActionRow } from '../actions/store.js';

type Obj = Record<string, unknown>;

interface LoadedDashboard {
  access: CollectionAccess;
  dashboard: DashboardRow;
  dashcards: Map<number, DashcardRow>;
  series: Map<number, number[]>;
  cards: Map<number, CardRow>;
}

// ----- one read per page load -------------------------------------------------------------------------------------

const LOAD_TTL_MS = 10_000;
const LOAD_CACHE_MAX = 500;
const loads = new WeakMap<AppContext, Map<string, { at: number; value: Promise<LoadedDashboard> }>>();

/** Everything a page load's requests need: the dashboard, all its dashcards, their series and cards. */
async function readDashboard(ctx: AppContext, caller: Caller, dashboardId: number): Promise<LoadedDashboard> {
  const access = await collectionAccess(ctx, caller);
  const dashboard = await readableDashboard(ctx, access, dashboardId);
  const dashcards = await dashcardsOf(ctx.db, [dashboardId]);
  const series = await seriesOf(ctx.db, dashcards.map((d) => d.id));
  const cards = await cardsByIds(ctx.db, [...dashcards.map((d) => d.card_id).filter((id): id is number => id !== null), ...[...series.values()].flat()]);
  return { access, dashboard, dashcards: new Map(dashcards.map((d) => [d.id, d])), series, cards };
}

/** One request on its own: the dashboard and just the dashcard asked for (with its series and the card). */
async function readDashcard(ctx: AppContext, caller: Caller, dashboardId: number, dashcardId: number, cardId: number): Promise<LoadedDashboard> {
  const access = await collectionAccess(ctx, caller);
  const dashboard = await readableDashboard(ctx, access, dashboardId);
  const dashcard = await ctx.db
    .selectFrom('report_dashboardcard')
    .selectAll()
    .where('id', '=', dashcardId)
    .where('dashboard_id', '=', dashboardId)
    .executeTakeFirst();
  const series = dashcard ? await seriesOf(ctx.db, [dashcard.id]) : new Map<number, number[]>();
  const cards = await cardsByIds(ctx.db, dashcard?.card_id != null ? [cardId, dashcard.card_id] : [cardId]);
  // a dashcard whose card is archived is hidden, as on the dashboard
  const visible = dashcard && !(dashcard.card_id !== null && bool(cards.get(dashcard.card_id)?.archived)) ? [dashcard] : [];
  return { access, dashboard, dashcards: new Map(visible.map((d) => [d.id, d])), series, cards };
}

function loadDashboard(ctx: AppContext, caller: Caller, options: DashcardRunOptions): Promise<LoadedDashboard> {
  const { dashboardId, loadId } = options;
  if (!loadId) return readDashcard(ctx, caller, dashboardId, options.dashcardId, options.cardId);
  let cache = loads.get(ctx);
  if (!cache) {
    cache = new Map();
    loads.set(ctx, cache);
  }
  const key = `${caller.user.id}:${dashboardId}:${loadId}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < LOAD_TTL_MS) return hit.value;
  if (cache.size >= LOAD_CACHE_MAX) {
    for (const [k, v] of cache) if (now - v.at >= LOAD_TTL_MS) cache.delete(k);
    if (cache.size >= LOAD_CACHE_MAX) cache.clear();
  }
  const value = readDashboard(ctx, caller, dashboardId);
  cache.set(key, { at: now, value });
  value.catch(() => cache!.delete(key));
  return value;
}

// ----- running ---------------------------------------------------------------------------------------------------

export interface DashcardRunOptions {
  dashboardId: number;
  dashcardId: number;
  cardId: number;
  /** The request's parameters: an array, or (downloads) a JSON string of one. */
  parameters: unknown;
  exportFormat?: ExportFormat;
  formatRows?: boolean;
  pivot?: boolean;
  loadId?: string | null;
  /** Skip the stored result (the fresh one is still stored). */
  ignoreCache?: boolean;
}

function requestedParameters(value: unknown): Obj[] {
  let list = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return [];
    list = parseJsonParam('parameters', value, () => new ApiError(400, {
      errors: { parameters: 'nullable value must be a valid JSON string.' },
      'specific-errors': { parameters: [`value must be a valid JSON string., received: ${JSON.stringify(value)}`] },
    }));
  }
  if (list === null || list === undefined) return [];
  // every parameter names the dashboard filter it is a value of
  const isParameter = (p: unknown): p is Obj => p !== null && typeof p === 'object' && !Array.isArray(p) && typeof (p as Obj).id === 'string' && (p as Obj).id !== '';
  if (!Array.isArray(list) || !list.every(isParameter)) {
    throw new ApiError(400, { errors: { parameters: 'nullable sequence of parameter must be a map with :id and :type keys' } });
  }
  return list;
}

/** The pivot table's rows and columns (breakout indexes) from the card's visualization settings. */
export function pivotSplit(card: CardRow): { rows?: number[]; cols?: number[] } {
  const split = parseJson<Obj>(card.visualization_settings, {})['pivot_table.column_split'] as { rows?: unknown[]; columns?: unknown[] } | undefined;
  if (!split) return {};
  const breakout = ((datasetQueryOf(card) as { query?: { breakout?: unknown[] } }).query?.breakout ?? []) as unknown[];
  const indexOf = (ref: unknown) => breakout.findIndex((b) => deepEqual(b, ref));
  return { rows: (split.rows ?? []).map(indexOf).filter((i) => i >= 0), cols: (split.columns ?? []).map(indexOf).filter((i) => i >= 0) };
}

/**
 * The parameters the card runs with: the dashboard's (mapped to this card), plus the defaults of the card's own
 * parameters whose targets no dashboard filter on this dashcard is wired to.
 */
export function runParameters(card: CardRow, dashcard: DashcardRow, fromDashboard: Obj[]): Obj[] {
  const mappedTargets = mappingsOf(dashcard)
    .filter((m) => (typeof m.card_id === 'number' ? m.card_id : dashcard.card_id) === card.id)
    .map((m) => m.target);
  const ids = new Set(fromDashboard.map((p) => String(p.id)));
  const defaults = cardRunParameters(card, []).filter((p) => !ids.has(String(p.id)) && !mappedTargets.some((t) => deepEqual(t, p.target)));
  return [...fromDashboard, ...defaults];
}

export interface DashcardQuery {
  request: QueryRequest;
  card: CardRow;
  /** Why the request's parameters can't run (a failed query, not an unfiltered one), or null. */
  problem: string | null;
}

/**
 * What running a dashcard's card means: the card (on this dashcard, readable), its query and the parameters the
 * dashboard's filters give it. 404 for a dashcard or card that isn't there.
 */
export async function dashcardQueryRequest(ctx: AppContext, caller: Caller, options: DashcardRunOptions): Promise<DashcardQuery> {
  const loaded = await loadDashboard(ctx, caller, options);
  const dashcard = loaded.dashcards.get(options.dashcardId);
  if (!dashcard) throw notFound();
  const onDashcard = dashcard.card_id === options.cardId || (loaded.series.get(dashcard.id) ?? []).includes(options.cardId);
  const card = onDashcard ? loaded.cards.get(options.cardId) : undefined;
  if (!card) throw notFound();
  loaded.access.checkRead(card.collection_id);

  const requested = requestedParameters(options.parameters);
  const definitions = parametersOf(loaded.dashboard);
  const mapped = dashcardQueryParameters(loaded.dashboard.id, definitions, dashcard, card.id, requested);
  const parameters = runParameters(card, dashcard, mapped);
  // a value that is no value, or a filter wired here through a malformed target: a failed query, not an unfiltered one
  const problem = dashcardParameterProblem(requested, definitions, mapped);
  if (!problem && !options.exportFormat && requested.length) await rememberParameterValues(ctx, caller.user.id, loaded.dashboard.id, requested);

  const format = options.exportFormat;
  const request: QueryRequest = {
    query: datasetQueryOf(card),
    caller,
    context: format ? (format === 'api' ? 'api-download' : `${format}-download`) : 'dashboard',
    cardId: card.id,
    dashboardId: loaded.dashboard.id,
    parameters,
    // every target comes from the dashcard's saved mappings (the viewer sends values only)
    savedParameterTargets: true,
    modelMetadata: modelMetadataOf(card),
    cache: { ignoreCache: options.ignoreCache ?? false },
    ...(format
      ? {
          exportFormat: format,
          formatRows: options.formatRows ?? false,
          filename: `${slugify(card.name) || 'query_result'}_${new Date().toISOString()}`,
          visualizationSettings: { ...parseJson<Obj>(card.visualization_settings, {}), ...vizSettingsOf(dashcard) },
        }
      : {}),
  };
  return { request, card, problem };
}

export async function runDashcardQuery(ctx: AppContext, caller: Caller, reply: FastifyReply, options: DashcardRunOptions) {
  const { request, card, problem } = await dashcardQueryRequest(ctx, caller, options);
  if (problem) return replyWithQueryError(ctx, reply, request, new QueryError('invalid-parameter', problem));
  const query = request.query as { type?: string };
  if (options.pivot && query.type === 'query') return runPivotQuery(ctx, reply, { ...request, pivot: pivotSplit(card) });
  return runQuery(ctx, reply, request);
}

// ----- actions -------------------------------------------------------------------------------------------------------

/** The action of a dashcard on a dashboard the caller may read (404 for a dashcard without one). */
async function readableDashcardAction(ctx: AppContext, caller: Caller, dashboardId: number, dashcardId: number): Promise<ActionRow> {
  const dashboard = await readableDashboard(ctx, await collectionAccess(ctx, caller), dashboardId);
  return dashcardAction(ctx, dashboard, dashcardId);
}

/** GET …/dashcard/:dc/execute: values to prefill an action's form (the row an implicit action would change). */
export async function fetchDashcardActionValues(ctx: AppContext, caller: Caller, dashboardId: number, dashcardId: number, values: Record<string, unknown>, signal?: AbortSignal) {
  const action = await readableDashcardAction(ctx, caller, dashboardId, dashcardId);
  return actionFormValues(ctx, caller, action, values, signal);
}

/** POST …/dashcard/:dc/execute: runs the dashcard's action with the button's form values. */
export async function executeDashcardAction(ctx: AppContext, caller: Caller, dashboardId: number, dashcardId: number, values: Record<string, unknown>, signal?: AbortSignal) {
  const action = await readableDashcardAction(ctx, caller, dashboardId, dashcardId);
  return executeAction(ctx, caller, action, values, signal);
}
