// /api/card (spec §4.5): saved questions, models and metrics — CRUD, listing, copy and move, their dashboards,
// timelines and series, and running them (results, exports, parameter values, metadata).

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import {
  copyCard,
  createCard,
  dashboardsOfCard,
  deleteCard,
  getCard,
  listCards,
  moveCards,
  updateCard,
  type CardFilter,
} from '../cards/cards.js';
import { MAX_COLLECTION_POSITION } from '../collections/positions.js';
import { cardTimelines } from '../cards/timelines.js';
import { cardSeries } from '../cards/series.js';
import '../cards/collection-items.js';
import '../cards/card-revisions.js';
import '../cards/current-user.js';
import '../dashboards/collection-items.js';
import { cardQueryRoutes } from './card-query.js';
import { datestr } from './timeline-event.js';
import { pagingQuery, paging } from '../http/paging.js';

const isMap = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
const parameter = s.check<Record<string, unknown>>('parameter must be a map with :id and :type keys', (v) => isMap(v) && 'id' in (v as object) && 'type' in (v as object));
const parameterMapping = s.check<Record<string, unknown>>(
  'parameter_mapping must be a map with :parameter_id and :target keys',
  (v) => isMap(v) && 'parameter_id' in (v as object) && 'target' in (v as object),
);
const EMBEDDING_VALUES = ['disabled', 'enabled', 'locked'];
const embeddingParams = s.check<Record<string, unknown>>(
  'value must be a valid embedding params map.',
  (v) => isMap(v) && Object.values(v as object).every((x) => typeof x === 'string' && EMBEDDING_VALUES.includes(x)),
);
/** `collection_position` (cards and dashboards): a smallint column. */
export const collectionPosition = s.check<number>(
  `value must be an integer greater than zero and at most ${MAX_COLLECTION_POSITION}.`,
  (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_COLLECTION_POSITION,
);
const CARD_TYPES = ['question', 'metric', 'model'] as const;
const FILTERS = ['archived', 'table', 'using_model', 'bookmarked', 'using_segment', 'all', 'mine', 'using_metric', 'database'] as const;

const commonBody = {
  type: s.maybe(s.enum(CARD_TYPES)),
  description: s.maybe(s.nbstr()),
  parameters: s.maybe(s.array(parameter)),
  parameter_mappings: s.maybe(s.array(parameterMapping)),
  result_metadata: s.maybe(s.array(s.map())),
  collection_id: s.maybe(s.posInt()),
  collection_position: s.maybe(collectionPosition),
  dashboard_id: s.maybe(s.posInt()),
  dashboard_tab_id: s.maybe(s.posInt()),
  cache_ttl: s.maybe(s.posInt()),
};

export function cardRoutes(r: Routes) {
  r.get('/api/card', { query: { f: s.maybe(s.enum(FILTERS)), model_id: s.maybe(s.posInt()) } }, ({ ctx, caller, query }) =>
    listCards(ctx, caller, (query.f ?? 'all') as CardFilter, query.model_id),
  );

  r.post(
    '/api/card',
    {
      body: {
        name: s.name(),
        dataset_query: s.map(),
        display: s.name(),
        visualization_settings: s.map(),
        ...commonBody,
      },
    },
    ({ ctx, caller, body, bodyKeys }) =>
      createCard(ctx, caller, { ...body, collection_id: bodyKeys.has('collection_id') ? body.collection_id : undefined }),
  );

  r.post('/api/card/collections', { body: { card_ids: s.array(s.posInt()), collection_id: s.maybe(s.posInt()) } }, ({ ctx, caller, body }) =>
    moveCards(ctx, caller, body.card_ids, body.collection_id),
  );

  r.get(
    '/api/card/:id',
    {
      params: { id: s.posInt() },
      // `dataset_query` is always MBQL 4 here (docs/COMPATIBILITY.md), which is what `legacy-mbql=true` asks for
      query: { ignore_view: s.maybe(s.bool()), context: s.maybe(s.enum(['collection'] as const)), 'legacy-mbql': s.maybe(s.boolstr()) },
    },
    ({ ctx, caller, params, query }) => getCard(ctx, caller, params.id, { ignoreView: query.ignore_view ?? false }),
  );

  r.put(
    '/api/card/:id',
    {
      params: { id: s.posInt() },
      query: { delete_old_dashcards: s.maybe(s.bool()) },
      body: {
        name: s.maybe(s.name()),
        dataset_query: s.maybe(s.map()),
        display: s.maybe(s.name()),
        visualization_settings: s.maybe(s.map()),
        archived: s.maybe(s.bool()),
        enable_embedding: s.maybe(s.bool()),
        embedding_params: s.maybe(embeddingParams),
        collection_preview: s.maybe(s.bool()),
        ...commonBody,
      },
    },
    ({ ctx, caller, params, query, body, bodyKeys }) =>
      updateCard(ctx, caller, params.id, body, bodyKeys, { deleteOldDashcards: query.delete_old_dashcards ?? false }),
  );

  r.delete('/api/card/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await deleteCard(ctx, caller, params.id);
  });

  r.post('/api/card/:id/copy', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => copyCard(ctx, caller, params.id));

  r.get('/api/card/:id/dashboards', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => dashboardsOfCard(ctx, caller, params.id));

  r.get(
    '/api/card/:id/timelines',
    {
      params: { id: s.posInt() },
      query: { include: s.maybe(s.enum(['events'] as const)), start: s.maybe(datestr()), end: s.maybe(datestr()) },
    },
    ({ ctx, caller, params, query }) =>
      cardTimelines(ctx, caller, params.id, { includeEvents: query.include === 'events', start: query.start, end: query.end }),
  );

  r.get(
    '/api/card/:id/series',
    {
      params: { id: s.int() },
      query: { last_cursor: s.maybe(s.posInt()), query: s.maybe(s.nbstr()), exclude_ids: s.maybe(s.array(s.posInt())), ...pagingQuery },
    },
    ({ ctx, caller, params, query }) =>
      cardSeries(ctx, caller, params.id, { lastCursor: query.last_cursor, query: query.query, excludeIds: query.exclude_ids ?? [], limit: paging(query).limit }),
  );

  cardQueryRoutes(r);
}
