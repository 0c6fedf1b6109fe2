// GET /api/user/current: whether the user has saved questions and dashboards, and models, they can see.

import { registerCurrentUserExtra } from '../users/current-user-extras.js';
import { collectionAccess } from '../permissions/collections.js';
import { bool } from '../appdb/portable.js';

registerCurrentUserExtra(async (ctx, caller) => {
  const access = await collectionAccess(ctx, caller);
  // One round trip: this runs on every page load.
  const row = await ctx.db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('report_card')
            .select('report_card.id')
            .where('report_card.archived', '=', false)
            .where('report_card.type', '=', 'question')
            .where((w) => access.filter(w, 'report_card.collection_id')),
        )
        .as('has_question'),
      eb
        .exists(
          eb
            .selectFrom('report_dashboard')
            .select('report_dashboard.id')
            .where('report_dashboard.archived', '=', false)
            .where((w) => access.filter(w, 'report_dashboard.collection_id')),
        )
        .as('has_dashboard'),
      eb
        .exists(
          eb
            .selectFrom('report_card')
            .select('report_card.id')
            .where('report_card.archived', '=', false)
            .where('report_card.type', '=', 'model')
            .where((w) => access.filter(w, 'report_card.collection_id')),
        )
        .as('has_model'),
    ])
    .executeTakeFirstOrThrow();
  return { has_question_and_dashboard: bool(row.has_question) && bool(row.has_dashboard), has_model: bool(row.has_model) };
});
