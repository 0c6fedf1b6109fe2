// Public links (reference §8.4): making and revoking them (admins), listing shared cards, and /api/public/* — the
// anonymous endpoints that show a shared card or dashboard, run it (results, downloads, pivot), list its filter values
// and look up its fields. Every error there is sanitized: 404 `Not found.`, anything else 400 `An error occurred.` —
// never a message, SQL, stack trace or id. Shared actions (forms, and the buttons of shared dashboards) run here too.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Routes } from '../http/route.js';
import { s, parseJsonParam } from '../http/schema.js';
import { ApiError, badRequest, notFound } from '../http/errors.js';
import { errorStyleFor } from '../http/error-handler.js';
import { parseJson } from '../appdb/portable.js';
import type { ExportFormat } from '../query/index.js';
import { pivotSplit } from '../dashboards/dashcard-query.js';
import { vizSettingsOf } from '../dashboards/store.js';
import { cardByUuid, checkPublicSharingEnabled, createPublicLink, dashboardByUuid, deletePublicLink, publicCards } from '../public/links.js';
import { sharedCardJson, sharedDashboardJson } from '../public/shapes.js';
import { cardQueryParameters, dashcardParameters, parseParametersParam } from '../public/parameters.js';
import { runShared } from '../public/run.js';
import { sharedDashcard } from '../public/dashcards.js';
import {
  cardFieldIds, cardParameterValues, dashboardFieldIds, dashboardParameterValues, sharedFieldRemapping, sharedFieldSearch, sharedFieldValues,
} from '../public/values.js';
import { oembed } from '../public/oembed.js';
import { checkThrottle, recordAttempt, PUBLIC_ACTION_BY_IP } from '../users/throttle.js';
import { clientGoneSignal } from '../http/client-gone.js';
import { actionFormValues, executeAction } from '../actions/run.js';
import { publicActions } from '../actions/actions.js';
import { actionByUuid, checkActionShareable, sharedActionJson } from '../actions/sharing.js';
import { dashcardAction } from '../actions/dashcards.js';
import type { ActionRow } from '../actions/store.js';
import { actionResult, formValuesParam } from './action.js';

type Obj = Record<string, unknown>;

const EXPORT_FORMATS = ['csv', 'json', 'xlsx', 'api'];
const cardLink = { 'card-id': s.posInt() };
const dashboardLink = { 'dashboard-id': s.posInt() };
const dashcardParams = { uuid: s.str(), 'dashcard-id': s.posInt(), 'card-id': s.posInt() };

/** An error of a public endpoint as the anonymous viewer sees it: `Not found.`, else `An error occurred.` */
function sanitizedApiError(error: ApiError): ApiError {
  if (error.status === 429) return new ApiError(429, 'Too many attempts! Try again in a minute.');
  return error.status === 404 ? notFound() : badRequest('An error occurred.');
}

// Errors raised before a handler runs (validation, body parsing) read the same way.
errorStyleFor('/api/public/', sanitizedApiError);

function sanitized(ctx: AppContext, error: unknown): ApiError {
  if (error instanceof ApiError) return sanitizedApiError(error);
  ctx.log.error({ err: error }, 'public endpoint failed');
  return badRequest('An error occurred.');
}

/** What a route handler gets, loosely typed for wrapping. */
export interface SharedInput {
  ctx: AppContext;
  params: Record<string, any>;
  query: Record<string, any>;
  body: any;
  request: FastifyRequest;
  reply: FastifyReply;
}

function guarded(handler: (input: SharedInput) => unknown): (input: SharedInput) => Promise<unknown> {
  return async (input) => {
    try {
      return await handler(input);
    } catch (error) {
      throw sanitized(input.ctx, error);
    }
  };
}

/** The `parameters` of a public action run: a map of parameter ids to values (absent: none). */
function formValues(value: unknown): Obj {
  if (value === undefined || value === null) return {};
  return formValuesParam(value);
}

function jsonParam(name: string, value: unknown): unknown {
  if (typeof value !== 'string') throw badRequest();
  return parseJsonParam(name, value, () => badRequest());
}

function exportFormat(value: unknown): ExportFormat {
  if (typeof value !== 'string' || !EXPORT_FORMATS.includes(value)) throw notFound();
  return value as ExportFormat;
}

function flag(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}

function limitOf(value: unknown): number {
  const n = Number(value ?? 100);
  if (!Number.isInteger(n) || n <= 0) throw badRequest();
  return Math.min(n, 1000);
}

function text(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest();
  return value;
}

/** Other filters' values for a dashboard's filter values (`?<parameter id>=value`). */
function constraintsOf(query: unknown): Obj {
  return { ...((query ?? {}) as Obj) };
}

export function publicRoutes(r: Routes) {
  // ----- making links (admins) --------------------------------------------------------------------------------------
  r.post('/api/card/:card-id/public_link', { auth: 'admin', params: cardLink }, ({ ctx, caller, params }) =>
    createPublicLink(ctx, caller, 'report_card', params['card-id']),
  );
  r.delete('/api/card/:card-id/public_link', { auth: 'admin', params: cardLink }, async ({ ctx, params }) => {
    await deletePublicLink(ctx, 'report_card', params['card-id']);
  });
  r.post('/api/dashboard/:dashboard-id/public_link', { auth: 'admin', params: dashboardLink }, ({ ctx, caller, params }) =>
    createPublicLink(ctx, caller, 'report_dashboard', params['dashboard-id']),
  );
  r.delete('/api/dashboard/:dashboard-id/public_link', { auth: 'admin', params: dashboardLink }, async ({ ctx, params }) => {
    await deletePublicLink(ctx, 'report_dashboard', params['dashboard-id']);
  });
  r.get('/api/card/public', { auth: 'admin' }, ({ ctx }) => publicCards(ctx));
  r.post('/api/action/:id/public_link', { auth: 'admin', params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await checkPublicSharingEnabled(ctx);
    await checkActionShareable(ctx, params.id);
    return createPublicLink(ctx, caller, 'action', params.id);
  });
  r.delete('/api/action/:id/public_link', { auth: 'admin', params: { id: s.posInt() } }, async ({ ctx, params }) => {
    await deletePublicLink(ctx, 'action', params.id);
  });
  r.get('/api/action/public', { auth: 'admin' }, async ({ ctx }) => {
    await checkPublicSharingEnabled(ctx);
    return publicActions(ctx);
  });

  // ----- cards ------------------------------------------------------------------------------------------------------
  r.get('/api/public/card/:uuid', { auth: 'none', params: { uuid: s.str() } }, guarded(async ({ ctx, params }) => sharedCardJson(ctx, await cardByUuid(ctx, params.uuid))));

  const runCard = (pivot: boolean) =>
    guarded(async ({ ctx, params, query, reply }) => {
      const card = await cardByUuid(ctx, params.uuid);
      const q = query as Obj;
      const format = params['export-format'] === undefined ? undefined : exportFormat(params['export-format']);
      return runShared(ctx, reply, {
        kind: 'public',
        card,
        parameters: cardQueryParameters(card, parseParametersParam(q.parameters)),
        exportFormat: format,
        formatRows: flag(q.format_rows),
        pivot: pivot || flag(q.pivot_results) ? pivotSplit(card) : null,
      });
    });
  r.get('/api/public/card/:uuid/query', { auth: 'none', params: { uuid: s.str() } }, runCard(false));
  r.get('/api/public/card/:uuid/query/:export-format', { auth: 'none', params: { uuid: s.str(), 'export-format': s.str() } }, runCard(false));
  r.get('/api/public/pivot/card/:uuid/query', { auth: 'none', params: { uuid: s.str() } }, runCard(true));

  r.get(
    '/api/public/card/:uuid/params/:param-key/values',
    { auth: 'none', params: { uuid: s.str(), 'param-key': s.str() } },
    guarded(async ({ ctx, params }) => cardParameterValues(ctx, await cardByUuid(ctx, params.uuid), params['param-key'], null)),
  );
  r.get(
    '/api/public/card/:uuid/params/:param-key/search/:query',
    { auth: 'none', params: { uuid: s.str(), 'param-key': s.str(), query: s.str() } },
    guarded(async ({ ctx, params }) => cardParameterValues(ctx, await cardByUuid(ctx, params.uuid), params['param-key'], text(params.query))),
  );

  // ----- dashboards -------------------------------------------------------------------------------------------------
  r.get('/api/public/dashboard/:uuid', { auth: 'none', params: { uuid: s.str() } }, guarded(async ({ ctx, params }) => sharedDashboardJson(ctx, await dashboardByUuid(ctx, params.uuid))));

  const runDashcard = (pivot: boolean) =>
    guarded(async ({ ctx, params, query, body, reply }) => {
      const dashboard = await dashboardByUuid(ctx, params.uuid);
      const { dashcard, card } = await sharedDashcard(ctx, dashboard, params['dashcard-id'], params['card-id']);
      const q = { ...((body && typeof body === 'object' ? body : {}) as Obj), ...(query as Obj) };
      const format = params['export-format'] === undefined ? undefined : exportFormat(params['export-format']);
      return runShared(ctx, reply, {
        kind: 'public',
        card,
        dashboardId: dashboard.id,
        parameters: dashcardParameters(dashboard, dashcard, card, parseParametersParam(q.parameters)),
        exportFormat: format,
        formatRows: flag(q.format_rows),
        pivot: pivot || flag(q.pivot_results) ? pivotSplit(card) : null,
        visualizationSettings: { ...parseJson<Obj>(card.visualization_settings, {}), ...vizSettingsOf(dashcard) },
      });
    });
  const base = '/api/public/dashboard/:uuid/dashcard/:dashcard-id/card/:card-id';
  r.get(base, { auth: 'none', params: dashcardParams }, runDashcard(false));
  r.get(`${base}/:export-format`, { auth: 'none', params: { ...dashcardParams, 'export-format': s.str() } }, runDashcard(false));
  r.post(`${base}/:export-format`, { auth: 'none', params: { ...dashcardParams, 'export-format': s.str() } }, runDashcard(false));
  r.get('/api/public/pivot/dashboard/:uuid/dashcard/:dashcard-id/card/:card-id', { auth: 'none', params: dashcardParams }, runDashcard(true));

  r.get(
    '/api/public/dashboard/:uuid/params/:param-key/values',
    { auth: 'none', params: { uuid: s.str(), 'param-key': s.str() } },
    guarded(async ({ ctx, params, query }) => dashboardParameterValues(ctx, await dashboardByUuid(ctx, params.uuid), params['param-key'], constraintsOf(query), null)),
  );
  r.get(
    '/api/public/dashboard/:uuid/params/:param-key/search/:query',
    { auth: 'none', params: { uuid: s.str(), 'param-key': s.str(), query: s.str() } },
    guarded(async ({ ctx, params, query }) =>
      dashboardParameterValues(ctx, await dashboardByUuid(ctx, params.uuid), params['param-key'], constraintsOf(query), text(params.query)),
    ),
  );

  // ----- actions: shared forms, and the buttons of shared dashboards --------------------------------------------------
  // A shared action runs with its link (or its dashboard's) as its only authorization, throttled per address.
  const runSharedAction = async (ctx: AppContext, request: FastifyRequest, reply: FastifyReply, key: string, action: ActionRow, values: unknown) => {
    const who = `${key}:${request.ip}`;
    await checkThrottle(ctx, PUBLIC_ACTION_BY_IP, who);
    await recordAttempt(ctx, PUBLIC_ACTION_BY_IP, who);
    return actionResult(await executeAction(ctx, null, action, formValues(values), clientGoneSignal(reply)));
  };
  r.get(
    '/api/public/dashboard/:uuid/dashcard/:dashcard-id/execute',
    { auth: 'none', params: { uuid: s.str(), 'dashcard-id': s.posInt() } },
    guarded(async ({ ctx, params, query, reply }) => {
      const action = await dashcardAction(ctx, await dashboardByUuid(ctx, params.uuid), params['dashcard-id']);
      return actionFormValues(ctx, null, action, formValuesParam(jsonParam('parameters', (query as Obj).parameters)), clientGoneSignal(reply));
    }),
  );
  r.post(
    '/api/public/dashboard/:uuid/dashcard/:dashcard-id/execute',
    { auth: 'none', params: { uuid: s.str(), 'dashcard-id': s.posInt() } },
    guarded(async ({ ctx, params, body, request, reply }) => {
      const dashboard = await dashboardByUuid(ctx, params.uuid);
      const action = await dashcardAction(ctx, dashboard, params['dashcard-id']);
      return runSharedAction(ctx, request, reply, params.uuid, action, (body as Obj | undefined)?.parameters);
    }),
  );
  r.get('/api/public/action/:uuid', { auth: 'none', params: { uuid: s.str() } }, guarded(async ({ ctx, params }) => sharedActionJson(ctx, await actionByUuid(ctx, params.uuid))));
  r.post(
    '/api/public/action/:uuid/execute',
    { auth: 'none', params: { uuid: s.str() } },
    guarded(async ({ ctx, params, body, request, reply }) => runSharedAction(ctx, request, reply, params.uuid, await actionByUuid(ctx, params.uuid), (body as Obj | undefined)?.parameters)),
  );

  // ----- fields of shared cards and dashboards ----------------------------------------------------------------------
  for (const kind of ['card', 'dashboard'] as const) {
    const allowed = async (ctx: AppContext, uuid: string) =>
      kind === 'card' ? cardFieldIds(await cardByUuid(ctx, uuid)) : dashboardFieldIds(ctx, await dashboardByUuid(ctx, uuid));
    r.get(
      `/api/public/${kind}/:uuid/field/:field-id/values`,
      { auth: 'none', params: { uuid: s.str(), 'field-id': s.posInt() } },
      guarded(async ({ ctx, params }) => sharedFieldValues(ctx, await allowed(ctx, params.uuid), params['field-id'])),
    );
    r.get(
      `/api/public/${kind}/:uuid/field/:field-id/search/:search-field-id`,
      { auth: 'none', params: { uuid: s.str(), 'field-id': s.posInt(), 'search-field-id': s.posInt() } },
      guarded(async ({ ctx, params, query }) => {
        const q = query as Obj;
        return sharedFieldSearch(ctx, await allowed(ctx, params.uuid), params['field-id'], params['search-field-id'], text(q.value), limitOf(q.limit));
      }),
    );
    r.get(
      `/api/public/${kind}/:uuid/field/:field-id/remapping/:remapped-id`,
      { auth: 'none', params: { uuid: s.str(), 'field-id': s.posInt(), 'remapped-id': s.posInt() } },
      guarded(async ({ ctx, params, query }) => sharedFieldRemapping(ctx, await allowed(ctx, params.uuid), params['field-id'], params['remapped-id'], text((query as Obj).value))),
    );
  }

  r.get('/api/public/oembed', { auth: 'none' }, guarded(async ({ ctx, query }) => {
    await checkPublicSharingEnabled(ctx);
    return oembed(query as Obj);
  }));
}
