// /api/dashboard (spec §4.2): dashboards with their dashcards and tabs, history, copies, running their cards,
// filter values, and the small lists (embeddable, public).

import type { Routes } from '../http/route.js';
import { jsonOf, s, type Issue, type Schema } from '../http/schema.js';
import {
  createDashboard,
  deleteDashboard,
  embeddableDashboards,
  getDashboard,
  listDashboards,
  publicDashboards,
  updateDashboard,
  updateDashcards,
  type DashboardFilter,
} from '../dashboards/dashboards.js';
import { copyDashboard } from '../dashboards/copy.js';
import { saveTransientDashboard } from '../dashboards/save.js';
import { dashboardItems } from '../dashboards/items.js';
import { dashboardQueryMetadata } from '../dashboards/query-metadata.js';
import { dashboardParameterValues, validFilterFields } from '../dashboards/chain-filter.js';
import { clientGoneSignal } from '../http/client-gone.js';
import { actionResult, formValuesParam } from './action.js';
import { fetchDashcardActionValues, executeDashcardAction, runDashcardQuery } from '../dashboards/dashcard-query.js';
import { listRevisions, revertRevision } from '../revisions/revisions.js';
import type { DashcardInput, TabInput } from '../dashboards/layout.js';
import '../dashboards/collection-items.js';
import '../dashboards/dashboard-revisions.js';
import { applyDatabaseAccess, checkFieldsVisible } from '../databases/access.js';
import { collectionPosition } from './card.js';

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const parameter = s.check<Record<string, unknown>>('parameter must be a map with :id and :type keys', (v) => isMap(v) && 'id' in v && 'type' in v);
const parameterMapping = s.check<Record<string, unknown>>(
  'parameter_mapping must be a map with :parameter_id and :target keys',
  (v) => isMap(v) && typeof v.parameter_id === 'string' && v.parameter_id.trim() !== '' && 'target' in v,
);
const EMBEDDING_VALUES = ['disabled', 'enabled', 'locked'];
const embeddingParams = s.check<Record<string, unknown>>(
  'value must be a valid embedding params map.',
  (v) => isMap(v) && Object.values(v).every((x) => typeof x === 'string' && EMBEDDING_VALUES.includes(x)),
);

const UNIQUE_IDS = 'value must be seq of maps in which ids are unique';

/** A list of maps whose `id`s must be unique (Metabase's `maps-with-unique-key`): one message for any failure. */
function uniqueIds<T extends { id: number }>(inner: Schema<T[]>): Schema<T[]> {
  return {
    description: UNIQUE_IDS,
    isOptional: false,
    json: { ...jsonOf(inner), description: UNIQUE_IDS },
    parse(value, coerce) {
      const r = inner.parse(value, coerce);
      if (!r.ok) {
        return { ok: false, issues: r.issues.map((i): Issue => ({ ...i, path: [], description: UNIQUE_IDS })) };
      }
      const ids = r.value.map((x) => x.id);
      if (new Set(ids).size !== ids.length) return { ok: false, issues: [{ path: [], message: UNIQUE_IDS, received: value, description: UNIQUE_IDS }] };
      return r;
    },
  };
}

const maybeKey = <T>(schema: Schema<T>) => s.optional(s.maybe(schema));

const dashcard = s.object({
  id: s.int(),
  size_x: s.posInt(),
  size_y: s.posInt(),
  row: s.natInt(),
  col: s.natInt(),
  card_id: maybeKey(s.posInt()),
  action_id: maybeKey(s.posInt()),
  dashboard_tab_id: maybeKey(s.int()),
  parameter_mappings: maybeKey(s.array(parameterMapping)),
  visualization_settings: maybeKey(s.map()),
  series: maybeKey(s.array(s.check<{ id: number }>('series must be a map with an :id greater than zero', (v) => isMap(v) && Number.isInteger(v.id) && (v.id as number) > 0))),
  inline_parameters: maybeKey(s.array(s.any())),
});
const tab = s.object({ id: s.int(), name: s.name() });
const dashcards = uniqueIds(s.array(dashcard) as unknown as Schema<Array<DashcardInput>>);
const tabs = uniqueIds(s.array(tab) as unknown as Schema<Array<TabInput>>);

const dashboardWidth = s.enum(['fixed', 'full'] as const);
/** A generated (x-ray) dashboard to save: the name is checked here, the rest by the save itself. */
const transientDashboard = {
  name: s.name(),
  description: s.optional(s.any()),
  parameters: s.optional(s.any()),
  width: s.optional(s.any()),
  dashcards: s.optional(s.any()),
  tabs: s.optional(s.any()),
};

const idParam = { id: s.posInt() };
const dashcardParams = { 'dashboard-id': s.posInt(), 'dashcard-id': s.posInt(), 'card-id': s.posInt() };
const EXPORT_FORMATS = ['csv', 'api', 'xlsx', 'json'] as const;

/** Query-string values of the other parameters (`?<parameter id>=value`, repeated for several values). */
function constraintValues(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) out[key] = value;
  return out;
}

export function dashboardRoutes(r: Routes) {
  r.get('/api/dashboard', { query: { f: s.maybe(s.enum(['all', 'mine', 'archived'] as const)) } }, ({ ctx, caller, query }) =>
    listDashboards(ctx, caller, (query.f ?? 'all') as DashboardFilter),
  );

  r.post(
    '/api/dashboard',
    {
      body: {
        name: s.name(),
        description: s.maybe(s.str()),
        parameters: s.maybe(s.array(parameter)),
        cache_ttl: s.maybe(s.posInt()),
        collection_id: s.maybe(s.posInt()),
        collection_position: s.maybe(collectionPosition),
        width: s.maybe(dashboardWidth),
        auto_apply_filters: s.maybe(s.bool()),
      },
    },
    ({ ctx, caller, body }) => createDashboard(ctx, caller, body),
  );

  r.get('/api/dashboard/embeddable', { auth: 'admin' }, ({ ctx }) => embeddableDashboards(ctx));
  r.get('/api/dashboard/public', { auth: 'admin' }, ({ ctx }) => publicDashboards(ctx));

  r.get(
    '/api/dashboard/params/valid-filter-fields',
    { query: { filtered: s.array(s.natInt()), filtering: s.maybe(s.array(s.natInt())) } },
    async ({ ctx, caller, query }) => {
      await checkFieldsVisible(ctx, caller, [...query.filtered, ...(query.filtering ?? [])]);
      return validFilterFields(ctx, caller, query.filtered, query.filtering ?? []);
    },
  );

  r.post('/api/dashboard/save', { body: transientDashboard }, ({ ctx, caller, body }) => saveTransientDashboard(ctx, caller, body, null));

  r.post(
    '/api/dashboard/save/collection/:parent-collection-id',
    { params: { 'parent-collection-id': s.posInt() }, body: transientDashboard },
    ({ ctx, caller, params, body }) => saveTransientDashboard(ctx, caller, body, params['parent-collection-id']),
  );

  r.get('/api/dashboard/:id', { params: idParam, query: { dashboard_load_id: s.maybe(s.str()) } }, ({ ctx, caller, params }) =>
    getDashboard(ctx, caller, params.id),
  );

  r.put(
    '/api/dashboard/:id',
    {
      params: idParam,
      body: {
        name: s.maybe(s.name()),
        description: s.maybe(s.str()),
        caveats: s.maybe(s.any()),
        points_of_interest: s.maybe(s.any()),
        show_in_getting_started: s.maybe(s.bool()),
        enable_embedding: s.maybe(s.bool()),
        embedding_params: s.maybe(embeddingParams),
        parameters: s.maybe(s.array(parameter)),
        position: s.maybe(s.posInt()),
        width: s.optional(dashboardWidth),
        archived: s.maybe(s.bool()),
        collection_id: s.maybe(s.posInt()),
        collection_position: s.maybe(collectionPosition),
        cache_ttl: s.maybe(s.posInt()),
        auto_apply_filters: s.maybe(s.bool()),
        dashcards: s.maybe(dashcards),
        tabs: s.maybe(tabs),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateDashboard(ctx, caller, params.id, body, bodyKeys),
  );

  r.put('/api/dashboard/:id/cards', { params: idParam, body: { cards: dashcards, tabs: s.maybe(tabs) } }, ({ ctx, caller, params, body }) =>
    updateDashcards(ctx, caller, params.id, body.cards, body.tabs),
  );

  r.delete('/api/dashboard/:id', { params: idParam }, async ({ ctx, caller, params }) => {
    await deleteDashboard(ctx, caller, params.id);
  });

  r.get('/api/dashboard/:id/revisions', { params: idParam }, ({ ctx, caller, params }) => listRevisions(ctx, caller, 'dashboard', params.id));

  r.post('/api/dashboard/:id/revert', { params: idParam, body: { revision_id: s.posInt() } }, ({ ctx, caller, params, body }) =>
    revertRevision(ctx, caller, 'dashboard', params.id, body.revision_id),
  );

  r.post(
    '/api/dashboard/:from-dashboard-id/copy',
    {
      params: { 'from-dashboard-id': s.posInt() },
      body: {
        name: s.maybe(s.name()),
        description: s.maybe(s.str()),
        collection_id: s.maybe(s.posInt()),
        collection_position: s.maybe(collectionPosition),
        is_deep_copy: s.maybe(s.bool()),
      },
    },
    ({ ctx, caller, params, body }) => copyDashboard(ctx, caller, params['from-dashboard-id'], body),
  );

  r.get('/api/dashboard/:id/items', { params: idParam }, ({ ctx, caller, params }) => dashboardItems(ctx, caller, params.id));
  r.get('/api/dashboard/:id/query_metadata', { params: idParam, query: { dashboard_load_id: s.maybe(s.str()) } }, async ({ ctx, caller, params }) =>
    applyDatabaseAccess(ctx, caller, await dashboardQueryMetadata(ctx, caller, params.id), 'view'),
  );

  r.get('/api/dashboard/:id/params/:param-key/values', { params: { id: s.posInt(), 'param-key': s.nbstr() } }, ({ ctx, caller, params, query }) => {
    const { ...constraints } = constraintValues(query);
    return dashboardParameterValues(ctx, caller, params.id, params['param-key'], constraints, null);
  });

  r.get(
    '/api/dashboard/:id/params/:param-key/search/:query',
    { params: { id: s.posInt(), 'param-key': s.nbstr(), query: s.nbstr() } },
    ({ ctx, caller, params, query }) => dashboardParameterValues(ctx, caller, params.id, params['param-key'], constraintValues(query), params.query),
  );

  // ----- running dashcards

  r.post(
    '/api/dashboard/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query',
    { params: dashcardParams, body: { dashboard_load_id: s.maybe(s.str()), parameters: s.maybe(s.array(s.map())), ignore_cache: s.maybe(s.bool()) } },
    ({ ctx, caller, params, body, reply }) =>
      runDashcardQuery(ctx, caller, reply, {
        dashboardId: params['dashboard-id'],
        dashcardId: params['dashcard-id'],
        cardId: params['card-id'],
        parameters: body.parameters ?? [],
        loadId: body.dashboard_load_id,
        ignoreCache: body.ignore_cache ?? false,
      }),
  );

  r.post(
    '/api/dashboard/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query/:export-format',
    {
      params: { ...dashcardParams, 'export-format': s.enum(EXPORT_FORMATS) },
      body: {
        parameters: s.maybe(s.check<unknown>('value must be a valid JSON string.', (v) => typeof v === 'string' || Array.isArray(v))),
        format_rows: s.maybe(s.boolstr()),
        pivot_results: s.maybe(s.boolstr()),
      },
    },
    ({ ctx, caller, params, body, query, reply }) => {
      const raw = body.parameters ?? (query as Record<string, unknown>).parameters ?? null;
      return runDashcardQuery(ctx, caller, reply, {
        dashboardId: params['dashboard-id'],
        dashcardId: params['dashcard-id'],
        cardId: params['card-id'],
        parameters: raw,
        exportFormat: params['export-format'],
        formatRows: body.format_rows ?? false,
        pivot: body.pivot_results ?? false,
      });
    },
  );

  r.post(
    '/api/dashboard/pivot/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query',
    { params: dashcardParams, body: { dashboard_load_id: s.maybe(s.str()), parameters: s.maybe(s.array(s.map())) } },
    ({ ctx, caller, params, body, reply }) =>
      runDashcardQuery(ctx, caller, reply, {
        dashboardId: params['dashboard-id'],
        dashcardId: params['dashcard-id'],
        cardId: params['card-id'],
        parameters: body.parameters ?? [],
        pivot: true,
        loadId: body.dashboard_load_id,
      }),
  );

  // ----- actions on dashcards

  r.get(
    '/api/dashboard/:dashboard-id/dashcard/:dashcard-id/execute',
    { params: { 'dashboard-id': s.posInt(), 'dashcard-id': s.posInt() }, query: { parameters: s.jsonstr() } },
    ({ ctx, caller, params, query, reply }) =>
      fetchDashcardActionValues(ctx, caller, params['dashboard-id'], params['dashcard-id'], formValuesParam(query.parameters), clientGoneSignal(reply)),
  );

  r.post(
    '/api/dashboard/:dashboard-id/dashcard/:dashcard-id/execute',
    { params: { 'dashboard-id': s.posInt(), 'dashcard-id': s.posInt() }, body: { parameters: s.maybe(s.map()) } },
    async ({ ctx, caller, params, body, reply }) =>
      actionResult(await executeDashcardAction(ctx, caller, params['dashboard-id'], params['dashcard-id'], body.parameters ?? {}, clientGoneSignal(reply))),
  );
}
