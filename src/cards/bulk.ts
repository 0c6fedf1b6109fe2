// POST /api/cards/dashboards: for several cards, the dashboards each appears on — as Metabase tells them to the
// bulk-move dialog: a dashboard the caller can't read is only `{"error": "unreadable-dashboard"}`, one they can read
// but not change carries `"error": "unwritable-dashboard"`.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableCard } from './cards.js';

export async function dashboardsOfCards(ctx: AppContext, caller: Caller, cardIds: number[]) {
  const access = await collectionAccess(ctx, caller);
  const ids = [...new Set(cardIds)];
  for (const id of ids) await readableCard(ctx, access, id);
  const rows = ids.length
    ? await ctx.db
        .selectFrom('report_dashboardcard')
        .innerJoin('report_dashboard', 'report_dashboard.id', 'report_dashboardcard.dashboard_id')
        .select(['report_dashboardcard.card_id as card_id', 'report_dashboard.id as id', 'report_dashboard.name as name', 'report_dashboard.collection_id as collection_id'])
        .where('report_dashboardcard.card_id', 'in', ids)
        .where('report_dashboard.archived', '=', false)
        .orderBy('report_dashboard.name')
        .orderBy('report_dashboard.id')
        .execute()
    : [];
  return ids.map((cardId) => {
    const seen = new Set<number>();
    const dashboards = rows
      .filter((r) => r.card_id === cardId && !seen.has(r.id) && seen.add(r.id))
      .map((r) => {
        if (!access.canRead(r.collection_id)) return { error: 'unreadable-dashboard' };
        if (!access.canWrite(r.collection_id)) return { id: r.id, name: r.name, error: 'unwritable-dashboard' };
        return { id: r.id, name: r.name };
      });
    return { card_id: cardId, dashboards };
  });
}
