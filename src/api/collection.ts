// /api/collection: collections, their items and tree, the root and trash pseudo-collections, and the collection
// permissions graph.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { pagingQuery, paging } from '../http/paging.js';
import {
  createCollection,
  getCollection,
  getRootCollection,
  getTrashCollection,
  listCollections,
  updateCollection,
} from '../collections/collections.js';
import { collectionItemsFor, rootItemsFor, type ItemsOptions, type PinnedState, type SortColumn } from '../collections/items.js';
import { collectionTree } from '../collections/tree.js';
import { collectionGraph, latestRevision, updateCollectionGraph } from '../permissions/collection-graph.js';
import { collectionTimelines } from '../timelines/timelines.js';
import { deleteArchivedCollection } from '../collections/delete.js';


const ITEM_MODELS = ['dashboard', 'dataset', 'no_models', 'timeline', 'snippet', 'collection', 'pulse', 'metric', 'card'] as const;

const itemsQuery = {
  models: s.maybe(s.array(s.enum(ITEM_MODELS))),
  archived: s.maybe(s.boolstr()),
  pinned_state: s.maybe(s.enum(['is_not_pinned', 'is_pinned', 'all'] as const)),
  sort_column: s.maybe(s.enum(['model', 'name', 'last_edited_by', 'last_edited_at'] as const)),
  sort_direction: s.maybe(s.enum(['desc', 'asc'] as const)),
  official_collections_first: s.maybe(s.boolstr()),
  show_dashboard_questions: s.maybe(s.boolstr()),
  include_can_run_adhoc_query: s.maybe(s.boolstr()),
  ...pagingQuery,
};

function itemsOptions(query: Record<string, unknown>, namespace: string | null): ItemsOptions {
  return {
    models: (query.models as string[] | null) ?? [],
    archived: (query.archived as boolean | null) ?? false,
    pinnedState: ((query.pinned_state as string | null) ?? 'all') as PinnedState,
    sortColumn: ((query.sort_column as string | null) ?? 'name') as SortColumn,
    sortDirection: ((query.sort_direction as string | null) ?? 'asc') as 'asc' | 'desc',
    officialCollectionsFirst: (query.official_collections_first as boolean | null) ?? null,
    showDashboardQuestions: (query.show_dashboard_questions as boolean | null) ?? false,
    includeCanRunAdhocQuery: (query.include_can_run_adhoc_query as boolean | null) ?? false,
    namespace,
    ...paging(query as { limit: number | null; offset: number | null }),
  };
}

const timelinesQuery = {
  include: s.maybe(s.enum(['events'] as const)),
  archived: s.maybe(s.bool()),
};

export function collectionRoutes(r: Routes) {
  r.get(
    '/api/collection',
    {
      query: {
        archived: s.maybe(s.boolstr()),
        'exclude-other-user-collections': s.maybe(s.boolstr()),
        namespace: s.maybe(s.nbstr()),
        'personal-only': s.maybe(s.boolstr()),
      },
    },
    ({ ctx, caller, query }) =>
      listCollections(ctx, caller, {
        archived: query.archived ?? false,
        excludeOtherUserCollections: query['exclude-other-user-collections'] ?? false,
        namespace: query.namespace,
        personalOnly: query['personal-only'] ?? false,
      }),
  );

  r.get(
    '/api/collection/tree',
    {
      query: {
        'exclude-archived': s.maybe(s.bool()),
        'exclude-other-user-collections': s.maybe(s.bool()),
        namespace: s.maybe(s.nbstr()),
        shallow: s.maybe(s.bool()),
        'collection-id': s.maybe(s.posInt()),
      },
    },
    ({ ctx, caller, query }) =>
      collectionTree(ctx, caller, {
        excludeArchived: query['exclude-archived'] ?? false,
        excludeOtherUserCollections: query['exclude-other-user-collections'] ?? false,
        namespace: query.namespace,
        shallow: query.shallow ?? false,
        collectionId: query['collection-id'],
      }),
  );

  r.get('/api/collection/graph', { auth: 'admin', query: { namespace: s.maybe(s.nbstr()) } }, ({ ctx, query }) =>
    collectionGraph(ctx, query.namespace),
  );

  r.put(
    '/api/collection/graph',
    {
      auth: 'admin',
      query: { 'skip-graph': s.maybe(s.boolstr()), force: s.maybe(s.boolstr()) },
      body: { namespace: s.maybe(s.name()), revision: s.maybe(s.int()), groups: s.map(), force: s.maybe(s.boolstr()) },
    },
    async ({ ctx, caller, query, body }) => {
      await updateCollectionGraph(ctx, caller, {
        namespace: body.namespace,
        revision: body.revision,
        groups: body.groups,
        // Metabase reads `force` from the body (reference §9.2); the query string is accepted too
        force: body.force ?? query.force ?? false,
      });
      if (query['skip-graph']) return { revision: await latestRevision(ctx.db) };
      return collectionGraph(ctx, body.namespace);
    },
  );

  r.get('/api/collection/root', { query: { namespace: s.maybe(s.nbstr()) } }, ({ ctx, caller, query }) =>
    getRootCollection(ctx, caller, query.namespace),
  );

  r.get('/api/collection/root/items', { query: { ...itemsQuery, namespace: s.maybe(s.nbstr()) } }, ({ ctx, caller, query }) =>
    rootItemsFor(ctx, caller, itemsOptions(query, query.namespace)),
  );

  r.get('/api/collection/root/timelines', { query: timelinesQuery }, ({ ctx, caller, query }) =>
    collectionTimelines(ctx, caller, null, { includeEvents: query.include === 'events', archived: query.archived ?? false }),
  );

  r.get('/api/collection/trash', {}, ({ ctx, caller }) => getTrashCollection(ctx, caller));

  r.get('/api/collection/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getCollection(ctx, caller, params.id));

  r.get('/api/collection/:id/items', { params: { id: s.posInt() }, query: itemsQuery }, ({ ctx, caller, params, query }) =>
    collectionItemsFor(ctx, caller, params.id, itemsOptions(query, null)),
  );

  r.get('/api/collection/:id/timelines', { params: { id: s.posInt() }, query: timelinesQuery }, ({ ctx, caller, params, query }) =>
    collectionTimelines(ctx, caller, params.id, { includeEvents: query.include === 'events', archived: query.archived ?? false }),
  );

  r.post(
    '/api/collection',
    {
      body: {
        name: s.name(),
        description: s.maybe(s.nbstr()),
        parent_id: s.maybe(s.posInt()),
        namespace: s.maybe(s.name()),
        authority_level: s.maybe(s.enum(['official'] as const)),
      },
    },
    ({ ctx, caller, body }) => createCollection(ctx, caller, body),
  );

  r.put(
    '/api/collection/:id',
    {
      params: { id: s.posInt() },
      body: {
        name: s.maybe(s.name()),
        description: s.maybe(s.nbstr()),
        archived: s.maybe(s.boolstr()),
        parent_id: s.maybe(s.posInt()),
        authority_level: s.maybe(s.enum(['official'] as const)),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateCollection(ctx, caller, params.id, { ...body, present: bodyKeys }),
  );

  r.delete('/api/collection/:id', { auth: 'admin', params: { id: s.posInt() } }, async ({ ctx, params }) => {
    await deleteArchivedCollection(ctx, params.id);
  });
}
