// A dashcard of shared content and the card it runs: the dashcard must be on the dashboard, the card must be its
// card or one of its series, and neither may be archived.

import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { findCard, type CardRow } from '../cards/store.js';
import { seriesOf, type DashboardRow, type DashcardRow } from '../dashboards/store.js';

export async function sharedDashcard(ctx: AppContext, dashboard: DashboardRow, dashcardId: number, cardId: number): Promise<{ dashcard: DashcardRow; card: CardRow }> {
  const dashcard = await ctx.db.selectFrom('report_dashboardcard').selectAll().where('id', '=', dashcardId).where('dashboard_id', '=', dashboard.id).executeTakeFirst();
  if (!dashcard || dashcard.card_id === null) throw notFound();
  const onDashcard = dashcard.card_id === cardId || ((await seriesOf(ctx.db, [dashcard.id])).get(dashcard.id) ?? []).includes(cardId);
  if (!onDashcard) throw notFound();
  const [card, own] = await Promise.all([findCard(ctx.db, cardId), findCard(ctx.db, dashcard.card_id)]);
  if (!card || bool(card.archived) || !own || bool(own.archived)) throw notFound();
  return { dashcard, card };
}
