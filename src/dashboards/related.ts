// GET /api/dashboard/:id/related: other questions on the same tables as the dashboard's cards (that the caller
// can read and that aren't on the dashboard yet) — at most five, newest first.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { collectionAccess } from '../permissions/collections.js';
import { cardColumnsJson } from '../cards/json.js';
import { cardsByIds } from '../cards/store.js';
import { readableDashboard } from './dashboards.js';
import { dashcardsOf, seriesOf } from './store.js';

const MAX_RELATED = 5;

export async function relatedToDashboard(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  await readableDashboard(ctx, access, id);
  const dashcards = await dashcardsOf(ctx.db, [id]);
  const series = await seriesOf(ctx.db, dashcards.map((d) => d.id));
  const onDashboard = new Set([...dashcards.map((d) => d.card_id).filter((c): c is number => c !== null), ...[...series.values()].flat()]);
  const cards = await cardsByIds(ctx.db, onDashboard);
  const tableIds = [...new Set([...cards.values()].map((c) => c.table_id).filter((t): t is number => t !== null))];
  if (tableIds.length === 0) return { cards: [] };
  const candidates = await ctx.db
    .selectFrom('report_card')
    .selectAll()
    .where('table_id', 'in', tableIds)
    .where('archived', '=', false)
    .where((eb) => access.filter(eb, 'report_card.collection_id'))
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_RELATED + onDashboard.size)
    .execute();
  const related = candidates.filter((c) => !onDashboard.has(c.id) && (c.dashboard_id === null || c.dashboard_id === id)).slice(0, MAX_RELATED);
  return { cards: related.map((c) => ({ ...cardColumnsJson(c), model: c.type === 'model' ? 'dataset' : 'card' })) };
}
