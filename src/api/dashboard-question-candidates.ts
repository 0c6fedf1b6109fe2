// Dashboard-question candidates of a collection (Metabase 0.53+), and moving them into their dashboards:
//   GET  /api/collection/:id/dashboard-question-candidates, /api/collection/root/dashboard-question-candidates
//   POST /api/collection/:id/move-dashboard-question-candidates, /api/collection/root/move-dashboard-question-candidates

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { pagingQuery, paging } from '../http/paging.js';
import { dashboardQuestionCandidates, moveDashboardQuestionCandidates } from '../cards/dashboard-candidates.js';

const moveBody = { card_ids: s.maybe(s.array(s.posInt())) };

export function dashboardQuestionCandidateRoutes(r: Routes) {
  r.get('/api/collection/root/dashboard-question-candidates', { query: pagingQuery }, ({ ctx, caller, query }) =>
    dashboardQuestionCandidates(ctx, caller, null, paging(query)),
  );
  r.get('/api/collection/:id/dashboard-question-candidates', { params: { id: s.posInt() }, query: pagingQuery }, ({ ctx, caller, params, query }) =>
    dashboardQuestionCandidates(ctx, caller, params.id, paging(query)),
  );
  r.post('/api/collection/root/move-dashboard-question-candidates', { body: moveBody }, ({ ctx, caller, body }) =>
    moveDashboardQuestionCandidates(ctx, caller, null, body.card_ids ?? null),
  );
  r.post('/api/collection/:id/move-dashboard-question-candidates', { params: { id: s.posInt() }, body: moveBody }, ({ ctx, caller, params, body }) =>
    moveDashboardQuestionCandidates(ctx, caller, params.id, body.card_ids ?? null),
  );
}
