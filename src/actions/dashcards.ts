// Action buttons on dashboards: a dashcard with an `action_id` runs that action.

import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { requireAction, type ActionRow } from './store.js';

/** The action of a dashboard's dashcard (404 when the dashcard isn't the dashboard's, has no action, or it's archived). */
export async function dashcardAction(ctx: AppContext, dashboard: { id: number }, dashcardId: number): Promise<ActionRow> {
  const dashcard = await ctx.db
    .selectFrom('report_dashboardcard')
    .select(['id', 'action_id'])
    .where('id', '=', dashcardId)
    .where('dashboard_id', '=', dashboard.id)
    .executeTakeFirst();
  if (!dashcard || dashcard.action_id === null) throw notFound();
  return requireAction(ctx, dashcard.action_id);
}
