// Signed embedding (spec §4.4, reference §8.2–8.3): /api/embed/* — the same views of a card or dashboard as public
// links, authorized by the JWT in the path instead of a UUID. Every error is a 400 with the plain message (query
// failures stay 202 results with `status: "failed"`). The preview endpoints (src/api/preview-embed.ts) are the same
// handlers for admins, with the token's `_embedding_params`.

import { errorStyleFor } from '../http/error-handler.js';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import type { Auth, Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { ApiError, badRequest, notFound } from '../http/errors.js';
import { parseJson } from '../appdb/portable.js';
import type { ExportFormat } from '../query/index.js';
import { pivotSplit } from '../dashboards/dashcard-query.js';
import { vizSettingsOf } from '../dashboards/store.js';
import { sharedCardJson, sharedDashboardJson } from '../public/shapes.js';
import { runShared } from '../public/run.js';
import { sharedDashcard } from '../public/dashcards.js';
import { cardParameterValues, dashboardParameterValues, sharedFieldRemapping, sharedFieldSearch, sharedFieldValues } from '../public/values.js';
import { embeddedDashboardFieldRemapping, embeddedDashboardFieldSearch, embeddedDashboardFieldValues } from '../embed/field-lookups.js';
import { cardsWithEmbedding } from '../embed/lists.js';
import {
  checkCardValuesParameter, dashboardValuesRequest, embeddedCard, embeddedCardFieldIds, embeddedCardParameters, embeddedDashboard,
  embeddedDashcardParameters, tokenValuesById, viewerParameter,
} from '../embed/embed.js';

type Obj = Record<string, unknown>;

interface Input {
  ctx: AppContext;
  params: Record<string, any>;
  query: Record<string, any>;
  reply: FastifyReply;
}

const EXPORT_FORMATS = ['csv', 'json', 'xlsx', 'api'];

/** Any error of an embed endpoint: 400 with its message as plain text. */
/**
 * Every embed error is a plain-text 400 with the message (Metabase's rule for /api/embed) — except the preview's
 * session checks, which stay 401/403 like any signed-in route's.
 */
function embedApiError(error: ApiError): ApiError {
  if (error.status === 401 || error.status === 403) return error;
  const body = error.body;
  const message = typeof body === 'string' ? body : typeof body.message === 'string' ? body.message : 'Invalid Request.';
  return new ApiError(400, error.status >= 500 ? 'An error occurred.' : message);
}

// Errors raised before a handler runs (validation, body parsing) read the same way.
for (const prefix of ['/api/embed/', '/api/preview-embed/', '/api/preview_embed/']) errorStyleFor(prefix, embedApiError);

function asEmbedError(ctx: AppContext, error: unknown): ApiError {
  if (error instanceof ApiError) return embedApiError(error);
  ctx.log.error({ err: error }, 'embed endpoint failed');
  return new ApiError(400, 'An error occurred.');
}

function guarded(handler: (input: Input) => unknown): (input: Input) => Promise<unknown> {
  return async (input) => {
    try {
      return await handler(input);
    } catch (error) {
      throw asEmbedError(input.ctx, error);
    }
  };
}

function exportFormat(value: unknown): ExportFormat {
  if (typeof value !== 'string' || !EXPORT_FORMATS.includes(value)) throw notFound();
  return value as ExportFormat;
}

const flag = (value: unknown) => value === true || (typeof value === 'string' && value.toLowerCase() === 'true');

function text(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('value must be a non-blank string.');
  return value;
}

function limitOf(value: unknown): number {
  const n = Number(value ?? 100);
  if (!Number.isInteger(n) || n <= 0) throw badRequest('value must be an integer greater than zero.');
  return Math.min(n, 1000);
}

export interface EmbedRouteOptions {
  prefix: string;
  preview: boolean;
  auth: Auth;
  /** Register only the endpoints the preview has (spec §4.6). */
  previewSubset?: boolean;
}

/** Registers the embed endpoints under `prefix` (/api/embed, or the preview's). */
export function registerEmbedRoutes(r: Routes, { prefix, preview, auth, previewSubset = false }: EmbedRouteOptions) {
  const token = { token: s.str() };
  const card = (ctx: AppContext, t: string) => embeddedCard(ctx, t, preview);
  const dashboard = (ctx: AppContext, t: string) => embeddedDashboard(ctx, t, preview);

  // ----- cards
  r.get(`${prefix}/card/:token`, { auth, params: token }, guarded(async ({ ctx, params }) => {
    const e = await card(ctx, params.token);
    return sharedCardJson(ctx, e.card, viewerParameter(e));
  }));

  const runCard = (pivot: boolean) =>
    guarded(async ({ ctx, params, query, reply }) => {
      const e = await card(ctx, params.token);
      const format = params['export-format'] === undefined ? undefined : exportFormat(params['export-format']);
      return runShared(ctx, reply, {
        kind: 'embedded',
        card: e.card,
        parameters: embeddedCardParameters(e, query),
        exportFormat: format,
        formatRows: flag(query.format_rows),
        pivot: pivot || flag(query.pivot_results) ? pivotSplit(e.card) : null,
      });
    });
  r.get(`${prefix}/card/:token/query`, { auth, params: token }, runCard(false));
  r.get(`${prefix}/pivot/card/:token/query`, { auth, params: token }, runCard(true));

  // ----- dashboards
  r.get(`${prefix}/dashboard/:token`, { auth, params: token }, guarded(async ({ ctx, params }) => {
    const e = await dashboard(ctx, params.token);
    return sharedDashboardJson(ctx, e.dashboard, viewerParameter(e), tokenValuesById(e));
  }));

  const dashcardParams = { ...token, 'dashcard-id': s.posInt(), 'card-id': s.posInt() };
  const runDashcard = (pivot: boolean) =>
    guarded(async ({ ctx, params, query, reply }) => {
      const e = await dashboard(ctx, params.token);
      const { dashcard, card: dashcardCard } = await sharedDashcard(ctx, e.dashboard, params['dashcard-id'], params['card-id']);
      const format = params['export-format'] === undefined ? undefined : exportFormat(params['export-format']);
      return runShared(ctx, reply, {
        kind: 'embedded',
        card: dashcardCard,
        dashboardId: e.dashboard.id,
        parameters: embeddedDashcardParameters(e, dashcard, dashcardCard, query),
        exportFormat: format,
        formatRows: flag(query.format_rows),
        pivot: pivot || flag(query.pivot_results) ? pivotSplit(dashcardCard) : null,
        visualizationSettings: { ...parseJson<Obj>(dashcardCard.visualization_settings, {}), ...vizSettingsOf(dashcard) },
      });
    });
  r.get(`${prefix}/dashboard/:token/dashcard/:dashcard-id/card/:card-id`, { auth, params: dashcardParams }, runDashcard(false));
  r.get(`${prefix}/pivot/dashboard/:token/dashcard/:dashcard-id/card/:card-id`, { auth, params: dashcardParams }, runDashcard(true));

  r.get(`${prefix}/dashboard/:token/params/:param-key/values`, { auth, params: { ...token, 'param-key': s.str() } }, guarded(async ({ ctx, params, query }) => {
    const e = await dashboard(ctx, params.token);
    return dashboardParameterValues(ctx, e.dashboard, params['param-key'], dashboardValuesRequest(e, params['param-key'], query), null);
  }));

  if (previewSubset) return;

  r.get(`${prefix}/card/:token/query/:export-format`, { auth, params: { ...token, 'export-format': s.str() } }, runCard(false));
  r.get(`${prefix}/dashboard/:token/dashcard/:dashcard-id/card/:card-id/:export-format`, { auth, params: { ...dashcardParams, 'export-format': s.str() } }, runDashcard(false));

  r.get(`${prefix}/dashboard/:token/params/:param-key/search/:prefix`, { auth, params: { ...token, 'param-key': s.str(), prefix: s.str() } }, guarded(async ({ ctx, params, query }) => {
    const e = await dashboard(ctx, params.token);
    return dashboardParameterValues(ctx, e.dashboard, params['param-key'], dashboardValuesRequest(e, params['param-key'], query), text(params.prefix));
  }));
  r.get(`${prefix}/card/:token/params/:param-key/values`, { auth, params: { ...token, 'param-key': s.str() } }, guarded(async ({ ctx, params }) => {
    const e = await card(ctx, params.token);
    checkCardValuesParameter(e, params['param-key']);
    return cardParameterValues(ctx, e.card, params['param-key'], null);
  }));
  r.get(`${prefix}/card/:token/params/:param-key/search/:prefix`, { auth, params: { ...token, 'param-key': s.str(), prefix: s.str() } }, guarded(async ({ ctx, params }) => {
    const e = await card(ctx, params.token);
    checkCardValuesParameter(e, params['param-key']);
    return cardParameterValues(ctx, e.card, params['param-key'], text(params.prefix));
  }));

  // ----- fields wired to enabled parameters (a dashboard's narrowed by the token's values)
  const fieldParams = { ...token, 'field-id': s.posInt() };
  r.get(`${prefix}/card/:token/field/:field-id/values`, { auth, params: fieldParams }, guarded(async ({ ctx, params }) =>
    sharedFieldValues(ctx, embeddedCardFieldIds(await card(ctx, params.token)), params['field-id']),
  ));
  r.get(`${prefix}/dashboard/:token/field/:field-id/values`, { auth, params: fieldParams }, guarded(async ({ ctx, params }) =>
    embeddedDashboardFieldValues(ctx, await dashboard(ctx, params.token), params['field-id']),
  ));
  r.get(`${prefix}/card/:token/field/:field-id/search/:search-field-id`, { auth, params: { ...fieldParams, 'search-field-id': s.posInt() } }, guarded(async ({ ctx, params, query }) =>
    sharedFieldSearch(ctx, embeddedCardFieldIds(await card(ctx, params.token)), params['field-id'], params['search-field-id'], text(query.value), limitOf(query.limit)),
  ));
  r.get(`${prefix}/dashboard/:token/field/:field-id/search/:search-field-id`, { auth, params: { ...fieldParams, 'search-field-id': s.posInt() } }, guarded(async ({ ctx, params, query }) =>
    embeddedDashboardFieldSearch(ctx, await dashboard(ctx, params.token), params['field-id'], params['search-field-id'], text(query.value), limitOf(query.limit)),
  ));
  r.get(`${prefix}/card/:token/field/:field-id/remapping/:remapped-id`, { auth, params: { ...fieldParams, 'remapped-id': s.posInt() } }, guarded(async ({ ctx, params, query }) =>
    sharedFieldRemapping(ctx, embeddedCardFieldIds(await card(ctx, params.token)), params['field-id'], params['remapped-id'], text(query.value)),
  ));
  r.get(`${prefix}/dashboard/:token/field/:field-id/remapping/:remapped-id`, { auth, params: { ...fieldParams, 'remapped-id': s.posInt() } }, guarded(async ({ ctx, params, query }) =>
    embeddedDashboardFieldRemapping(ctx, await dashboard(ctx, params.token), params['field-id'], params['remapped-id'], text(query.value)),
  ));
}

export function embedRoutes(r: Routes) {
  // Admin lists of what is embeddable (the dashboards' list lives with the dashboards).
  r.get('/api/card/embeddable', { auth: 'admin' }, ({ ctx }) => cardsWithEmbedding(ctx));
  registerEmbedRoutes(r, { prefix: '/api/embed', preview: false, auth: 'none' });
}
