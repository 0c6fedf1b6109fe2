// POST /api/dashboard/:id/copy (reference §7.3). A shallow copy's dashcards show the same cards; a deep copy
// (`is_deep_copy`) duplicates every card the caller can read into the target collection and rewires dashcards,
// filter mappings and series to the duplicates (models stay shared; unreadable or archived cards are left out and
// listed in `uncopied`). A dashboard's own questions can't be shared with another dashboard: a deep copy duplicates
// them into the new dashboard, and a shallow copy of a dashboard that has any (not archived) is refused with
// Metabase's 400 (archived ones are left out of either copy). Tabs come along.
//
// Cards are made through the cards module (each in its own transaction), so the copy is built in three steps — the
// dashboard row, the cards, then the layout — and everything made is removed again if a later step fails.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest } from '../http/errors.js';
import { bool, parseJson } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { createCard, deleteCard } from '../cards/cards.js';
import { cardsByIds, type CardRow } from '../cards/store.js';
import { dashboardJson } from './json.js';
import { dashcardsOf, mappingsOf, parametersOf, requireDashboard, seriesOf, tabsOf, vizSettingsOf } from './store.js';
import { applyLayout, type DashcardInput } from './layout.js';
import { checkCollectionTarget, insertDashboard, readableDashboard, recordDashboardRevision } from './dashboards.js';
import { fitName, NAME_MAX } from '../util/fit.js';

type Obj = Record<string, unknown>;

export const SHALLOW_COPY_OF_DASHBOARD_QUESTIONS = 'You cannot do a shallow copy of this dashboard because it contains Dashboard Questions.';

export interface CopyInput {
  name?: string | null;
  description?: string | null;
  collection_id?: number | null;
  collection_position?: number | null;
  is_deep_copy?: boolean | null;
}

/** Makes a duplicate of `card` through the cards module; returns its id. */
async function duplicateCard(ctx: AppContext, caller: Caller, card: CardRow, where: { collectionId: number | null; dashboardId: number | null }, name: string): Promise<number> {
  const created = await createCard(ctx, caller, {
    name,
    type: card.type,
    display: card.display,
    description: card.description,
    dataset_query: parseJson<Obj>(card.dataset_query, {}),
    visualization_settings: parseJson<Obj>(card.visualization_settings, {}),
    parameters: parseJson<unknown[]>(card.parameters, []),
    parameter_mappings: parseJson<unknown[]>(card.parameter_mappings, []),
    result_metadata: parseJson<unknown[] | null>(card.result_metadata, null),
    collection_id: where.collectionId,
    dashboard_id: where.dashboardId,
    cache_ttl: card.cache_ttl,
  });
  return Number((created as { id: number }).id);
}

export async function copyDashboard(ctx: AppContext, caller: Caller, fromId: number, input: CopyInput) {
  const access = await collectionAccess(ctx, caller);
  const source = await readableDashboard(ctx, access, fromId);
  const targetCollection = input.collection_id ?? null;
  await checkCollectionTarget(ctx, access, targetCollection);
  const deep = input.is_deep_copy === true;

  const [dashcards, tabs] = await Promise.all([dashcardsOf(ctx.db, [fromId]), tabsOf(ctx.db, [fromId])]);
  const series = await seriesOf(ctx.db, dashcards.map((d) => d.id));
  const cardIds = [...new Set([...dashcards.map((d) => d.card_id).filter((id): id is number => id !== null), ...[...series.values()].flat()])];
  const cards = await cardsByIds(ctx.db, cardIds);

  // (dashcards whose card is archived are not read; archived series cards are)
  const ownQuestions = [...cards.values()].filter((c) => c.dashboard_id === fromId && !bool(c.archived));
  if (!deep && ownQuestions.length) throw badRequest(SHALLOW_COPY_OF_DASHBOARD_QUESTIONS);

  // Which cards get duplicates, and where.
  const toDuplicate: CardRow[] = [];
  const uncopied: CardRow[] = [];
  const droppedQuestions: number[] = [];
  for (const id of cardIds) {
    const card = cards.get(id);
    if (!card) continue;
    const ownQuestion = card.dashboard_id === fromId;
    if (ownQuestion) {
      if (!bool(card.archived)) toDuplicate.push(card);
      else if (deep) uncopied.push(card);
      else droppedQuestions.push(card.id);
    } else if (deep) {
      if (!access.canRead(card.collection_id) || bool(card.archived)) uncopied.push(card);
      else if (card.type !== 'model') toDuplicate.push(card);
    }
  }

  const newId = await ctx.db.transaction().execute((trx) =>
    insertDashboard(ctx, trx, caller, {
      name: input.name ?? source.name,
      description: input.description ?? source.description,
      parameters: parametersOf(source),
      collection_id: targetCollection,
      collection_position: input.collection_position ?? null,
      width: source.width,
      auto_apply_filters: bool(source.auto_apply_filters),
    }),
  );
  const duplicates = new Map<number, number>();
  try {
    const sameCollection = targetCollection === source.collection_id;
    for (const card of toDuplicate) {
      const ownQuestion = card.dashboard_id === fromId;
      // (cut so the suffix fits a name that already fills its 254-character column)
      const name = !ownQuestion && sameCollection ? fitName(card.name, NAME_MAX, { suffix: ' - Duplicate' }) : card.name;
      const where = { collectionId: targetCollection, dashboardId: ownQuestion ? newId : null };
      duplicates.set(card.id, await duplicateCard(ctx, caller, card, where, name));
    }
    const dropped = new Set([...uncopied.map((c) => c.id), ...droppedQuestions]);
    const rewire = (id: number) => duplicates.get(id) ?? id;
    const layout: DashcardInput[] = [];
    for (const d of dashcards) {
      if (deep && d.action_id !== null) continue;
      if (d.card_id !== null && dropped.has(d.card_id)) continue;
      layout.push({
        id: d.id,
        card_id: d.card_id === null ? null : rewire(d.card_id),
        action_id: d.action_id,
        dashboard_tab_id: d.dashboard_tab_id,
        row: d.row,
        col: d.col,
        size_x: d.size_x,
        size_y: d.size_y,
        parameter_mappings: mappingsOf(d).map((m) => (typeof m.card_id === 'number' ? { ...m, card_id: rewire(m.card_id) } : m)),
        visualization_settings: vizSettingsOf(d),
        inline_parameters: parseJson<unknown[] | null>(d.inline_parameters, null),
        series: (series.get(d.id) ?? []).filter((id) => !dropped.has(id)).map(rewire),
      });
    }
    await ctx.db.transaction().execute(async (trx) => {
      // Dashboard questions arrive on their dashboard with a dashcard of their own; the copied layout replaces those.
      await trx.deleteFrom('report_dashboardcard').where('dashboard_id', '=', newId).execute();
      await applyLayout(ctx, trx, newId, { tabs: tabs.map((t) => ({ id: t.id, name: t.name })), dashcards: layout }, 'restore');
      await recordDashboardRevision(ctx, trx, newId, caller.user.id, true);
    });
  } catch (error) {
    for (const [original, duplicate] of duplicates) {
      if (cards.get(original)?.dashboard_id !== fromId) await deleteCard(ctx, caller, duplicate).catch(() => {});
    }
    await ctx.db.deleteFrom('report_dashboard').where('id', '=', newId).execute();
    throw error;
  }

  const json = await dashboardJson(ctx, await collectionAccess(ctx, caller), await requireDashboard(ctx, newId), { lastUsedValues: false });
  return uncopied.length ? { ...json, uncopied: uncopied.map((c) => ({ id: c.id, name: c.name })) } : json;
}
