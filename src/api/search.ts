// GET /api/search (reference §15).

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { pagingQuery, paging } from '../http/paging.js';
import { search, SEARCH_MODELS } from '../search/search.js';

export function searchRoutes(r: Routes) {
  r.get(
    '/api/search',
    {
      query: {
        q: s.maybe(s.str()),
        models: s.maybe(s.array(s.enum([...SEARCH_MODELS, 'no_models', 'pulse', 'document'] as const))),
        archived: s.maybe(s.bool()),
        table_db_id: s.maybe(s.posInt()),
        filter_items_in_personal_collection: s.maybe(s.enum(['only', 'exclude', 'only-mine', 'exclude-others', 'all'] as const)),
        created_at: s.maybe(s.nbstr()),
        created_by: s.maybe(s.array(s.posInt())),
        last_edited_at: s.maybe(s.nbstr()),
        last_edited_by: s.maybe(s.array(s.posInt())),
        verified: s.maybe(s.bool()),
        search_native_query: s.maybe(s.bool()),
        model_ancestors: s.maybe(s.bool()),
        ids: s.maybe(s.array(s.posInt())),
        collection: s.maybe(s.posInt()),
        calculate_available_models: s.maybe(s.bool()),
        include_dashboard_questions: s.maybe(s.bool()),
        context: s.maybe(s.str()),
        ...pagingQuery,
      },
    },
    ({ ctx, caller, query }) =>
      search(ctx, caller, {
        q: query.q,
        models: query.models ?? [],
        archived: query.archived ?? false,
        tableDbId: query.table_db_id,
        personalFilter: query.filter_items_in_personal_collection,
        createdAt: query.created_at,
        createdBy: query.created_by ?? [],
        lastEditedAt: query.last_edited_at,
        lastEditedBy: query.last_edited_by ?? [],
        verified: query.verified,
        searchNativeQuery: query.search_native_query ?? false,
        modelAncestors: query.model_ancestors ?? false,
        ids: query.ids ?? [],
        collection: query.collection,
        includeDashboardQuestions: query.include_dashboard_questions ?? false,
        ...paging(query),
      }),
  );
}
