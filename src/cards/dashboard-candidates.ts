// Dashboard-question candidates (Metabase 0.53+): the saved questions of a collection that could become dashboard
// questions — shown on exactly one dashboard (through a dashcard or as a series), that dashboard not in the Trash
// and in the same collection, the question itself neither archived nor a dashboard question already.
//   GET  /api/collection/:id/dashboard-question-candidates   (and /root/…)  → {data, total}
//   POST /api/collection/:id/move-dashboard-question-candidates (and /root/…) {card_ids?} → {moved: [ids]}
// Admins only (as in Metabase); the collection must exist and be readable first. Models and metrics can't live in a
// dashboard, so unlike Metabase (whose move would then fail) they are never candidates.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden, notFound } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { findCollection } from '../collections/store.js';
import { relocateCard } from './cards.js';
import type { CardRow } from './store.js';

interface DashboardInfo {
  id: number;
  name: string;
  description: string | null;
  collection_id: number | null;
  archived: boolean;
}

interface Candidate {
  card: CardRow;
  dashboard: DashboardInfo;
}

/** The dashboards each card is shown on (a dashcard of its own, or a series of another), distinct per card. */
async function dashboardsShowing(ctx: AppContext, cardIds: number[]): Promise<Map<number, DashboardInfo[]>> {
  const out = new Map<number, DashboardInfo[]>();
  if (cardIds.length === 0) return out;
  const columns = ['report_dashboard.id as id', 'report_dashboard.name as name', 'report_dashboard.description as description', 'report_dashboard.collection_id as collection_id', 'report_dashboard.archived as archived'] as const;
  const direct = await ctx.db
    .selectFrom('report_dashboardcard')
    .innerJoin('report_dashboard', 'report_dashboard.id', 'report_dashboardcard.dashboard_id')
    .select(['report_dashboardcard.card_id as card_id', ...columns])
    .where('report_dashboardcard.card_id', 'in', cardIds)
    .execute();
  const series = await ctx.db
    .selectFrom('dashboardcard_series')
    .innerJoin('report_dashboardcard', 'report_dashboardcard.id', 'dashboardcard_series.dashboardcard_id')
    .innerJoin('report_dashboard', 'report_dashboard.id', 'report_dashboardcard.dashboard_id')
    .select(['dashboardcard_series.card_id as card_id', ...columns])
    .where('dashboardcard_series.card_id', 'in', cardIds)
    .execute();
  for (const row of [...direct, ...series]) {
    if (row.card_id === null) continue;
    const list = out.get(row.card_id) ?? [];
    if (!list.some((d) => d.id === row.id)) list.push({ id: row.id, name: row.name, description: row.description, collection_id: row.collection_id, archived: bool(row.archived) });
    out.set(row.card_id, list);
  }
  return out;
}

async function candidates(ctx: AppContext, caller: Caller, collectionId: number | null): Promise<Candidate[]> {
  if (collectionId !== null) {
    const collection = await findCollection(ctx.db, collectionId);
    if (!collection) throw notFound();
    (await collectionAccess(ctx, caller)).checkRead(collectionId);
  }
  if (!caller.isSuperuser) throw forbidden();
  const cards = await ctx.db
    .selectFrom('report_card')
    .selectAll()
    .where((eb) => (collectionId === null ? eb('collection_id', 'is', null) : eb('collection_id', '=', collectionId)))
    .where('dashboard_id', 'is', null)
    .where('type', '=', 'question')
    .where('archived', '=', false)
    .orderBy('id', 'desc')
    .execute();
  const shownOn = await dashboardsShowing(ctx, cards.map((c) => c.id));
  const out: Candidate[] = [];
  for (const card of cards) {
    const dashboards = shownOn.get(card.id) ?? [];
    if (dashboards.length !== 1) continue;
    const [dashboard] = dashboards;
    if (dashboard.archived || dashboard.collection_id !== card.collection_id) continue;
    out.push({ card, dashboard });
  }
  return out;
}

export async function dashboardQuestionCandidates(ctx: AppContext, caller: Caller, collectionId: number | null, page: { limit: number | null; offset: number | null }) {
  const all = await candidates(ctx, caller, collectionId);
  const shown = page.limit === null ? all : all.slice(page.offset ?? 0, (page.offset ?? 0) + page.limit);
  return {
    data: shown.map(({ card, dashboard }) => ({
      id: card.id,
      name: card.name,
      description: card.description,
      sole_dashboard_info: { id: dashboard.id, name: dashboard.name, description: dashboard.description },
    })),
    total: all.length,
  };
}

/** Moves the candidates (all of them, or those of `cardIds` that are candidates) into their dashboards, together. */
export async function moveDashboardQuestionCandidates(ctx: AppContext, caller: Caller, collectionId: number | null, cardIds: number[] | null) {
  const chosen = (await candidates(ctx, caller, collectionId)).filter((c) => cardIds === null || cardIds.includes(c.card.id));
  await ctx.db.transaction().execute(async (trx) => {
    for (const { card, dashboard } of chosen) {
      await relocateCard(ctx, trx, card, { collectionId: dashboard.collection_id, dashboardId: dashboard.id }, caller.user.id);
    }
  });
  return { moved: chosen.map((c) => c.card.id) };
}
