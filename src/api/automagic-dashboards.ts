// Automagic dashboards — X-rays (src/xrays): transient dashboards built from a table's, field's, segment's,
// question's, model's or ad-hoc query's metadata; the cards' queries run when the client runs them.
//   GET /api/automagic-dashboards/:entity/:entity-id-or-query[/cell/:cell-query][/rule/:prefix/:dashboard-template]
//       [/compare/:comparison-entity/:comparison-entity-id-or-query]   (?show=all|n)
//   GET /api/automagic-dashboards/:entity/:entity-id-or-query/query_metadata
//   GET /api/automagic-dashboards/database/:id/candidates
//   GET /api/automagic-dashboards/model_index/:model-index-id/primary_key/:pk-id

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { xray, type XrayRequest } from '../xrays/xray.js';
import { xrayQueryMetadata } from '../xrays/query-metadata.js';
import { databaseCandidates } from '../xrays/candidates.js';
import { modelIndexXray } from '../xrays/model-index.js';

/** Router params (hyphens read as underscores: the routes declare no param schemas, the checks are the X-ray's own). */
type Params = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : String(v ?? ''));
const BASE = '/api/automagic-dashboards/:entity/:entity-id-or-query';
const RULE = '/rule/:prefix/:dashboard-template';
const CELL = '/cell/:cell-query';
const COMPARE = '/compare/:comparison-entity/:comparison-entity-id-or-query';

function requestOf(params: Params, query: Params): XrayRequest {
  return {
    entity: str(params.entity),
    idOrQuery: str(params.entity_id_or_query),
    cell: params.cell_query === undefined ? undefined : str(params.cell_query),
    prefix: params.prefix === undefined ? undefined : str(params.prefix),
    template: params.dashboard_template === undefined ? undefined : str(params.dashboard_template),
    compare: params.comparison_entity === undefined ? undefined : { entity: str(params.comparison_entity), idOrQuery: str(params.comparison_entity_id_or_query) },
    show: query.show,
  };
}

export function automagicDashboardsRoutes(r: Routes) {
  r.get('/api/automagic-dashboards/database/:id/candidates', { params: { id: s.posInt('value must be an integer greater than zero.') } }, ({ ctx, caller, params }) =>
    databaseCandidates(ctx, caller, params.id),
  );
  r.get(
    '/api/automagic-dashboards/model_index/:model-index-id/primary_key/:pk-id',
    { params: { 'model-index-id': s.posInt(), 'pk-id': s.int() } },
    ({ ctx, caller, params }) => modelIndexXray(ctx, caller, params['model-index-id'], params['pk-id']),
  );
  r.get(`${BASE}/query_metadata`, {}, async ({ ctx, caller, params, query }) => xrayQueryMetadata(ctx, caller, await xray(ctx, caller, { ...requestOf(params, query), show: 'all' })));
  for (const suffix of ['', RULE, CELL, `${CELL}${RULE}`, COMPARE, `${RULE}${COMPARE}`, `${CELL}${COMPARE}`, `${CELL}${RULE}${COMPARE}`]) {
    r.get(`${BASE}${suffix}`, {}, ({ ctx, caller, params, query }) => xray(ctx, caller, requestOf(params, query)));
  }
}
