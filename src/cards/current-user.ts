// GET /api/user/current: whether the user has saved questions and dashboards, and models, they can see.

import { registerCurrentUserExtra } from '../users/current-user-extras.js';
import { collectionAccess } from '../permissions/collections.js';

registerCurrentUserExtra(async (ctx, caller) => {
  const access = await collectionAccess(ctx, caller);
  const [question, dashboard, model] = await Promise.all([
    ctx.db
      .selectFrom('report_card')
      .select('id')
      .where('archived', '=', false)
      .where('type', '=', 'question')
      .where((eb) => access.filter(eb, 'report_card.collection_id'))
      .limit(1)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('report_dashboard')
      .select('id')
      .where('archived', '=', false)
      .where((eb) => access.filter(eb, 'report_dashboard.collection_id'))
      .limit(1)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('report_card')
      .select('id')
      .where('archived', '=', false)
      .where('type', '=', 'model')
      .where((eb) => access.filter(eb, 'report_card.collection_id'))
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { has_question_and_dashboard: Boolean(question && dashboard), has_model: Boolean(model) };
});
