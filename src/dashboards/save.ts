// POST /api/dashboard/save and /save/collection/:id: saves a denormalized dashboard (the shape of GET, with full
// `card` objects on its dashcards, as generated x-ray dashboards are) as real content. Like Metabase, it makes a new
// collection named after the dashboard ("Name", or "Name 2" when taken) under the parent — the given collection, or
// for admins "Automatically generated dashboards" at the root and for others their personal collection — and saves
// the dashboard (pinned first) and every unsaved card there.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { collectionAccess } from '../permissions/collections.js';
import { createCollection } from '../collections/collections.js';
import { findCollection } from '../collections/store.js';
import { childrenLocation } from '../collections/locations.js';
import { createCard, deleteCard } from '../cards/cards.js';
import { cardsByIds } from '../cards/store.js';
import { personalCollectionIds } from '../collections/personal.js';
import { dashboardJson } from './json.js';
import { requireDashboard } from './store.js';
import { applyLayout, type DashcardInput, type TabInput } from './layout.js';
import { insertDashboard, recordDashboardRevision } from './dashboards.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export const GENERATED_DASHBOARDS_COLLECTION = 'Automatically generated dashboards';

async function defaultParent(ctx: AppContext, caller: Caller): Promise<number | null> {
  if (!caller.isSuperuser) return (await personalCollectionIds(ctx, [caller.user.id])).get(caller.user.id) ?? null;
  const existing = await ctx.db
    .selectFrom('collection')
    .select('id')
    .where('name', '=', GENERATED_DASHBOARDS_COLLECTION)
    .where('location', '=', '/')
    .where('archived', '=', false)
    .where('personal_owner_id', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
  if (existing) return existing.id;
  const created = await createCollection(ctx, caller, { name: GENERATED_DASHBOARDS_COLLECTION, description: null, parent_id: null, namespace: null, authority_level: null });
  return Number((created as { id: number }).id);
}

async function uniqueCollectionName(ctx: AppContext, name: string, parentId: number | null): Promise<string> {
  const parent = parentId === null ? null : await findCollection(ctx.db, parentId);
  const location = childrenLocation(parent ?? null);
  const rows = await ctx.db.selectFrom('collection').select('name').where('location', '=', location).execute();
  const taken = rows.filter((r) => r.name.startsWith(name)).length;
  return taken === 0 ? name : `${name} ${taken + 1}`;
}

function intOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

export async function saveTransientDashboard(ctx: AppContext, caller: Caller, body: Obj, parentCollectionId: number | null) {
  const access = await collectionAccess(ctx, caller);
  if (parentCollectionId !== null) {
    if (!(await findCollection(ctx.db, parentCollectionId))) throw notFound();
    access.checkWrite(parentCollectionId);
  }
  const parentId = parentCollectionId ?? (await defaultParent(ctx, caller));
  const name = String(body.name);
  const collection = await createCollection(ctx, caller, {
    name: await uniqueCollectionName(ctx, name, parentId),
    description: 'Automatically generated cards.',
    parent_id: parentId,
    namespace: null,
    authority_level: null,
  });
  const collectionId = Number((collection as { id: number }).id);

  const madeCards: number[] = [];
  const existingIds = new Set<number>();
  const rawDashcards = Array.isArray(body.dashcards) ? body.dashcards.filter(isObj) : [];
  const referenced = rawDashcards.flatMap((d) => [d.card, ...(Array.isArray(d.series) ? d.series : [])]).filter(isObj).map((c) => c.id);
  for (const id of (await cardsByIds(ctx.db, referenced.filter((id): id is number => typeof id === 'number' && id > 0))).keys()) existingIds.add(id);

  /** The id of a card to show: an existing one as is, an unsaved one saved in the new collection. */
  const saveCard = async (card: unknown): Promise<number | null> => {
    if (!isObj(card)) return null;
    if (typeof card.id === 'number' && existingIds.has(card.id)) return card.id;
    if (!isObj(card.dataset_query) || Object.keys(card.dataset_query).length === 0) return null;
    const created = await createCard(ctx, caller, {
      name: typeof card.name === 'string' && card.name.trim() ? card.name : 'Untitled question',
      display: typeof card.display === 'string' && card.display ? card.display : 'table',
      type: typeof card.type === 'string' ? card.type : 'question',
      description: typeof card.description === 'string' ? card.description : null,
      dataset_query: card.dataset_query,
      visualization_settings: isObj(card.visualization_settings) ? card.visualization_settings : {},
      parameters: Array.isArray(card.parameters) ? card.parameters : [],
      result_metadata: Array.isArray(card.result_metadata) ? card.result_metadata : null,
      collection_id: collectionId,
    });
    const id = Number((created as { id: number }).id);
    madeCards.push(id);
    return id;
  };

  try {
    const layout: DashcardInput[] = [];
    for (const [i, d] of rawDashcards.entries()) {
      const cardId = d.card !== undefined ? await saveCard(d.card) : typeof d.card_id === 'number' && existingIds.has(d.card_id) ? d.card_id : null;
      const series: number[] = [];
      for (const s of Array.isArray(d.series) ? d.series : []) {
        const id = await saveCard(s);
        if (id !== null) series.push(id);
      }
      layout.push({
        id: -(i + 1),
        card_id: cardId,
        dashboard_tab_id: typeof d.dashboard_tab_id === 'number' ? d.dashboard_tab_id : null,
        row: Math.max(0, intOr(d.row, 0)),
        col: Math.max(0, intOr(d.col, 0)),
        size_x: Math.max(1, intOr(d.size_x, 4)),
        size_y: Math.max(1, intOr(d.size_y, 4)),
        parameter_mappings: (Array.isArray(d.parameter_mappings) ? d.parameter_mappings.filter(isObj) : []).map((m) =>
          typeof m.card_id === 'number' || cardId === null ? m : { ...m, card_id: cardId },
        ),
        visualization_settings: isObj(d.visualization_settings) ? d.visualization_settings : {},
        series,
      });
    }
    const tabs: TabInput[] = (Array.isArray(body.tabs) ? body.tabs.filter(isObj) : []).map((t, i) => ({
      id: typeof t.id === 'number' ? t.id : -(i + 1),
      name: typeof t.name === 'string' && t.name.trim() ? t.name : `Tab ${i + 1}`,
    }));
    const id = await ctx.db.transaction().execute(async (trx) => {
      const dashboardId = await insertDashboard(ctx, trx, caller, {
        name,
        description: typeof body.description === 'string' ? body.description : null,
        parameters: Array.isArray(body.parameters) ? body.parameters.filter(isObj) : [],
        collection_id: collectionId,
        collection_position: 1,
        width: body.width === 'full' ? 'full' : 'fixed',
      });
      // Temporary tab ids must not be mistaken for another dashboard's tabs.
      await applyLayout(ctx, trx, dashboardId, { tabs: tabs.map((t) => ({ ...t, id: -Math.abs(t.id) })), dashcards: layout.map((d) => (d.dashboard_tab_id ? { ...d, dashboard_tab_id: -Math.abs(d.dashboard_tab_id) } : d)) }, 'restore');
      await recordDashboardRevision(ctx, trx, dashboardId, caller.user.id, true);
      return dashboardId;
    });
    return dashboardJson(ctx, await collectionAccess(ctx, caller), await requireDashboard(ctx, id), { lastUsedValues: false });
  } catch (error) {
    for (const id of madeCards) await deleteCard(ctx, caller, id).catch(() => {});
    throw error;
  }
}
