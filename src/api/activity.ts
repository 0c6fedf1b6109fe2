// /api/activity (spec §4.14): recents, recent views, popular items, the most recently viewed dashboard.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { addSelection, mostRecentlyViewedDashboard, popularItems, recentViews, recents } from '../activity/recents.js';

export function activityRoutes(r: Routes) {
  r.get('/api/activity/recent_views', {}, ({ ctx, caller }) => recentViews(ctx, caller));

  r.get(
    '/api/activity/recents',
    { query: { context: s.array(s.enum(['selections', 'views'] as const)), include_metadata: s.maybe(s.bool()) } },
    ({ ctx, caller, query }) => recents(ctx, caller, query.context, { includeMetadata: query.include_metadata ?? false }),
  );

  r.post(
    '/api/activity/recents',
    {
      body: {
        model: s.enum(['card', 'dataset', 'metric', 'dashboard', 'table', 'collection'] as const),
        model_id: s.posInt(),
        context: s.enum(['selection'] as const),
      },
    },
    async ({ ctx, caller, body }) => {
      await addSelection(ctx, caller, body.model, body.model_id);
    },
  );

  r.get('/api/activity/popular_items', {}, ({ ctx, caller }) => popularItems(ctx, caller));

  r.get('/api/activity/most_recently_viewed_dashboard', {}, ({ ctx, caller }) => mostRecentlyViewedDashboard(ctx, caller));
}
