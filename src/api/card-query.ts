// Running cards (spec §4.5): results (202), downloads, pivot tables, parameter values and query metadata.

import type { Routes } from '../http/route.js';
import { s, parseJsonParam } from '../http/schema.js';
import { ApiError } from '../http/errors.js';
import { exportCard, runCard, runCardPivot } from '../cards/run.js';
import { cardParameterRemapping, cardParameterValues } from '../cards/parameter-values.js';
import { cardQueryMetadata } from '../cards/query-metadata.js';
import type { ExportFormat } from '../query/index.js';
import '../cards/query-sources.js';
import '../cards/cache-refresh.js';
import { applyDatabaseAccess } from '../databases/access.js';
import { DATASET } from '../openapi/shapes.js';

const EXPORT_FORMATS = ['csv', 'api', 'xlsx', 'json'] as const;

function boolish(v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  return String(v).toLowerCase() === 'true';
}

/** `parameters` of a download: an array, or a JSON string (form posts, query string). */
function downloadParameters(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'string') return value;
  return parseJsonParam('parameters', value, () => new ApiError(400, {
    errors: { parameters: 'nullable value must be a valid JSON string.' },
    'specific-errors': { parameters: [`value must be a valid JSON string., received: ${JSON.stringify(value)}`] },
  }));
}

const runBody = {
  parameters: s.maybe(s.array(s.map())),
  ignore_cache: s.maybe(s.bool()),
  dashboard_id: s.maybe(s.posInt()),
  collection_preview: s.maybe(s.bool()),
};

export function cardQueryRoutes(r: Routes) {
  const run = { summary: 'Run a saved question', responses: { 202: DATASET } };
  r.post('/api/card/:card-id/query', { params: { 'card-id': s.posInt() }, body: runBody, doc: run }, ({ ctx, caller, params, body, reply }) =>
    runCard(ctx, caller, reply, params['card-id'], {
      parameters: body.parameters ?? [],
      collectionPreview: body.collection_preview ?? false,
      dashboardId: body.dashboard_id,
      ignoreCache: body.ignore_cache ?? false,
    }),
  );

  r.post(
    '/api/card/:card-id/query/:export-format',
    { params: { 'card-id': s.posInt(), 'export-format': s.enum(EXPORT_FORMATS) } },
    ({ ctx, caller, params, body, query, reply }) => {
      const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      const q = query as Record<string, unknown>;
      return exportCard(ctx, caller, reply, params['card-id'], params['export-format'] as ExportFormat, {
        parameters: downloadParameters(b.parameters ?? q.parameters),
        formatRows: boolish(b.format_rows ?? q.format_rows, false),
        pivotResults: boolish(b.pivot_results ?? q.pivot_results, false),
      });
    },
  );

  r.post('/api/card/pivot/:card-id/query', { params: { 'card-id': s.posInt() }, body: runBody }, ({ ctx, caller, params, body, reply }) =>
    runCardPivot(ctx, caller, reply, params['card-id'], { parameters: body.parameters ?? [], ignoreCache: body.ignore_cache ?? false }),
  );

  r.get('/api/card/:card-id/params/:param-key/values', { params: { 'card-id': s.posInt(), 'param-key': s.nbstr() } }, ({ ctx, caller, params }) =>
    cardParameterValues(ctx, caller, params['card-id'], params['param-key'], null),
  );

  r.get(
    '/api/card/:card-id/params/:param-key/search/:query',
    { params: { 'card-id': s.posInt(), 'param-key': s.nbstr(), query: s.nbstr() } },
    ({ ctx, caller, params }) => cardParameterValues(ctx, caller, params['card-id'], params['param-key'], params.query),
  );

  r.get(
    '/api/card/:card-id/params/:param-key/remapping',
    { params: { 'card-id': s.posInt(), 'param-key': s.nbstr() }, query: { value: s.nbstr() } },
    ({ ctx, caller, params, query }) => cardParameterRemapping(ctx, caller, params['card-id'], params['param-key'], query.value),
  );

  r.get('/api/card/:id/query_metadata', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) =>
    applyDatabaseAccess(ctx, caller, await cardQueryMetadata(ctx, caller, params.id), 'view'),
  );
}
