// A dashboard's layout — its tabs and dashcards — replaced as a whole (reference §7.2). The request lists the
// complete desired state: items whose id is not one of the dashboard's (conventionally negative) are created,
// listed ones are updated (only what changed), omitted ones are deleted. Tabs are ordered by their place in the
// list; deleting a tab deletes its dashcards; dashcards may point at a new tab by its temporary id.
//
// `checkLayoutEdits` runs the permission checks before the transaction (it reads through ctx.db);
// `applyLayout` runs inside the caller's transaction, so an error anywhere leaves nothing half-applied.
// PUT /api/dashboard/:id, the deprecated PUT …/cards, copies, saves and reverts all come through here.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { archivedError, badRequest, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, parseJson, toJson, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import type { CollectionAccess } from '../permissions/collections.js';
import { cardsByIds, type CardRow } from '../cards/store.js';
import { checkMappingAccess } from './mapping-access.js';
import { dashcardsOf, seriesOf, tabsOf, type DashcardRow } from './store.js';
import { checkNewMappingTargets } from './mapping-targets.js';

type Obj = Record<string, unknown>;

export interface DashcardInput {
  id: number;
  card_id?: number | null;
  action_id?: number | null;
  dashboard_tab_id?: number | null;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  parameter_mappings?: Obj[] | null;
  visualization_settings?: Obj | null;
  /** Cards overlaid on this one: `[{id}]` from clients, plain ids in revisions. */
  series?: Array<{ id: number } | number> | null;
  inline_parameters?: unknown[] | null;
}

export interface TabInput {
  id: number;
  name: string;
}

export interface LayoutInput {
  dashcards?: DashcardInput[] | null;
  tabs?: TabInput[] | null;
}

export interface LayoutChanges {
  createdDashcardIds: number[];
  deletedDashcardIds: number[];
  createdTabIds: number[];
  deletedTabIds: number[];
  /** Temporary (request) tab id → real id. */
  tabIdMap: Map<number, number>;
}

/**
 * 'edit': a user's request — every reference must be valid (400/404 otherwise).
 * 'restore': a revision or copy being put back — references to things that are gone are dropped, and items are
 * re-created under their old ids when those are free, so the dashboard looks exactly as recorded.
 */
export type LayoutMode = 'edit' | 'restore';

export const TABS_NEED_EVERY_CARD = 'This dashboard has tab, makes sure every card has a tab';

export function seriesIds(series: DashcardInput['series']): number[] {
  return (series ?? []).map((s) => (typeof s === 'number' ? s : Number(s?.id))).filter((id) => Number.isInteger(id) && id > 0);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function mappingCardId(mapping: Obj, dashcardCardId: number | null | undefined): number | null {
  return typeof mapping.card_id === 'number' ? mapping.card_id : dashcardCardId ?? null;
}

/**
 * A card about to be shown on a dashboard (a dashcard's card or one of its series) exists (404), is readable (403),
 * isn't archived, and isn't another dashboard's question (400). `dashboardId` null: a dashboard not made yet.
 */
export function checkShownCard(access: CollectionAccess, card: CardRow | undefined, dashboardId: number | null): asserts card is CardRow {
  if (!card) throw notFound();
  access.checkRead(card.collection_id);
  if (bool(card.archived)) throw archivedError();
  if (card.dashboard_id !== null && card.dashboard_id !== dashboardId) {
    throw badRequest('This card is saved in another dashboard (a dashboard question) and can only be shown there.');
  }
}

/**
 * The checks of an edit, against the current layout: cards added to the dashboard (or swapped in) and added series
 * cards pass `checkShownCard`; new filter mappings need a usable target (400); action buttons need an existing action
 * whose model is readable; new or changed filter mappings need data permission on the card's table.
 */
export async function checkLayoutEdits(ctx: AppContext, caller: Caller, access: CollectionAccess, dashboardId: number, input: LayoutInput): Promise<void> {
  if (!input.dashcards) return;
  const current = await dashcardsOf(ctx.db, [dashboardId]);
  const currentById = new Map(current.map((d) => [d.id, d]));
  const currentSeries = await seriesOf(ctx.db, current.map((d) => d.id));
  const addedCards = new Set<number>();
  const addedSeries = new Set<number>();
  const addedActions = new Set<number>();
  const mappingChecks: Array<{ cardId: number; target: unknown }> = [];
  for (const dc of input.dashcards) {
    const existing = currentById.get(dc.id);
    const cardId = dc.card_id === undefined ? existing?.card_id ?? null : dc.card_id;
    if (cardId !== null && (!existing || existing.card_id !== cardId)) addedCards.add(cardId);
    if (typeof dc.action_id === 'number' && existing?.action_id !== dc.action_id) addedActions.add(dc.action_id);
    if (dc.series !== undefined && dc.series !== null) {
      const before = new Set(existing ? currentSeries.get(existing.id) ?? [] : []);
      for (const id of seriesIds(dc.series)) if (!before.has(id)) addedSeries.add(id);
    }
    const mappings = dc.parameter_mappings ?? [];
    checkNewMappingTargets(mappings, existing ? parseJson<unknown[]>(existing.parameter_mappings, []) : []);
    const mappingsChanged = !existing || (dc.parameter_mappings !== undefined && !sameJson(parseJson(existing.parameter_mappings, []), mappings)) || existing.card_id !== cardId;
    if (mappingsChanged) {
      for (const mapping of mappings) {
        const id = mappingCardId(mapping, cardId);
        if (id !== null) mappingChecks.push({ cardId: id, target: mapping.target });
      }
    }
  }
  const actions = addedActions.size ? await ctx.db.selectFrom('action').select(['id', 'model_id', 'archived']).where('id', 'in', [...addedActions]).execute() : [];
  const cards = await cardsByIds(ctx.db, [...addedCards, ...addedSeries, ...mappingChecks.map((m) => m.cardId), ...actions.map((a) => a.model_id)]);
  // An action button needs an action the caller can see (through its model).
  for (const id of addedActions) {
    const action = actions.find((a) => a.id === id);
    const model = action ? cards.get(action.model_id) : undefined;
    if (!action || bool(action.archived) || !model) throw notFound();
    access.checkRead(model.collection_id);
  }
  for (const id of new Set([...addedCards, ...addedSeries])) checkShownCard(access, cards.get(id), dashboardId);
  await checkMappingAccess(
    ctx,
    caller,
    mappingChecks.map(({ cardId, target }) => {
      const card = cards.get(cardId);
      if (!card) throw notFound(`Card ${cardId} does not exist or does not have a valid query.`);
      return { card, target };
    }),
  );
}

/** An id given back to a re-created row when no row holds it (revisions and copies keep their ids stable). */
async function freeId(db: Db, table: 'report_dashboardcard' | 'dashboard_tab', id: number): Promise<boolean> {
  if (!(id > 0)) return false;
  const taken = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  return !taken;
}

async function insertRow(ctx: AppContext, db: Db, table: 'report_dashboardcard' | 'dashboard_tab', values: Obj, keepId: number | null): Promise<number> {
  if (keepId !== null && (await freeId(db, table, keepId))) {
    await db.insertInto(table).values({ ...values, id: keepId } as never).execute();
    return keepId;
  }
  return insertReturningId(db, ctx.dialect, table, values);
}

async function replaceSeries(db: Db, dashcardId: number, cardIds: number[]): Promise<void> {
  await db.deleteFrom('dashboardcard_series').where('dashboardcard_id', '=', dashcardId).execute();
  if (cardIds.length === 0) return;
  await db
    .insertInto('dashboardcard_series')
    .values(cardIds.map((cardId, position) => ({ dashboardcard_id: dashcardId, card_id: cardId, position })))
    .execute();
}

/** The columns a dashcard input sets (only the keys it has, for updates). */
function dashcardColumns(dc: DashcardInput, tabId: number | null | undefined): Obj {
  const out: Obj = { row: dc.row, col: dc.col, size_x: dc.size_x, size_y: dc.size_y };
  if (dc.card_id !== undefined) out.card_id = dc.card_id;
  if (dc.action_id !== undefined) out.action_id = dc.action_id;
  if (tabId !== undefined) out.dashboard_tab_id = tabId;
  if (dc.parameter_mappings !== undefined) out.parameter_mappings = JSON.stringify(dc.parameter_mappings ?? []);
  if (dc.visualization_settings !== undefined) out.visualization_settings = JSON.stringify(dc.visualization_settings ?? {});
  if (dc.inline_parameters !== undefined) out.inline_parameters = toJson(dc.inline_parameters);
  return out;
}

function changedColumns(existing: DashcardRow, wanted: Obj): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(wanted)) {
    const current = (existing as unknown as Obj)[key];
    if (key === 'parameter_mappings' || key === 'visualization_settings' || key === 'inline_parameters') {
      if (!sameJson(parseJson(current as string | null, null), parseJson(value as string | null, null))) out[key] = value;
    } else if ((current ?? null) !== (value ?? null)) out[key] = value;
  }
  return out;
}

/** Applies the desired layout inside `db`'s transaction. */
export async function applyLayout(ctx: AppContext, db: Db, dashboardId: number, input: LayoutInput, mode: LayoutMode): Promise<LayoutChanges> {
  const now = nowIso();
  const changes: LayoutChanges = { createdDashcardIds: [], deletedDashcardIds: [], createdTabIds: [], deletedTabIds: [], tabIdMap: new Map() };
  const currentTabs = await tabsOf(db, [dashboardId]);
  let finalTabIds = currentTabs.map((t) => t.id);

  // ----- tabs
  if (input.tabs) {
    const currentById = new Map(currentTabs.map((t) => [t.id, t]));
    const kept = new Set<number>();
    finalTabIds = [];
    for (const [position, tab] of input.tabs.entries()) {
      const existing = currentById.get(tab.id);
      if (existing) {
        kept.add(existing.id);
        finalTabIds.push(existing.id);
        if (existing.name !== tab.name || existing.position !== position) {
          await db.updateTable('dashboard_tab').set({ name: tab.name, position, updated_at: now }).where('id', '=', existing.id).execute();
        }
        continue;
      }
      const id = await insertRow(
        ctx,
        db,
        'dashboard_tab',
        { entity_id: newEntityId(), dashboard_id: dashboardId, name: tab.name, position, created_at: now, updated_at: now },
        mode === 'restore' ? tab.id : null,
      );
      changes.tabIdMap.set(tab.id, id);
      changes.createdTabIds.push(id);
      finalTabIds.push(id);
    }
    changes.deletedTabIds = currentTabs.filter((t) => !kept.has(t.id)).map((t) => t.id);
    if (changes.deletedTabIds.length) {
      const onDeleted = await db
        .selectFrom('report_dashboardcard')
        .select('id')
        .where('dashboard_id', '=', dashboardId)
        .where('dashboard_tab_id', 'in', changes.deletedTabIds)
        .execute();
      changes.deletedDashcardIds.push(...onDeleted.map((r) => r.id));
      await db.deleteFrom('report_dashboardcard').where('dashboard_id', '=', dashboardId).where('dashboard_tab_id', 'in', changes.deletedTabIds).execute();
      await db.deleteFrom('dashboard_tab').where('id', 'in', changes.deletedTabIds).execute();
    }
  }

  const finalTabs = new Set(finalTabIds);
  const current = (await dashcardsOf(db, [dashboardId])).filter((d) => !changes.deletedDashcardIds.includes(d.id));

  // ----- dashcards
  if (!input.dashcards) {
    await putOrphansOnFirstTab(db, dashboardId, finalTabIds, now);
    return changes;
  }

  let wanted = input.dashcards.map((dc) => {
    const raw = dc.dashboard_tab_id ?? null;
    const tabId = raw === null ? null : changes.tabIdMap.get(raw) ?? raw;
    return { dc, tabId };
  });
  if (mode === 'restore') {
    // Cards deleted since the revision can't come back; a tab that is gone leaves its cards on the first tab.
    const referenced = [...new Set(wanted.flatMap(({ dc }) => [...(dc.card_id ? [dc.card_id] : []), ...seriesIds(dc.series)]))];
    const existingCards = await cardsByIds(db, referenced);
    // (a card archived since is still there, hidden: its dashcard stays as it is)
    wanted = wanted
      .filter(({ dc }) => !dc.card_id || (existingCards.has(dc.card_id) && !bool(existingCards.get(dc.card_id)!.archived)))
      .map(({ dc, tabId }) => ({
        dc: { ...dc, series: seriesIds(dc.series).filter((id) => existingCards.has(id)) },
        tabId: finalTabIds.length === 0 ? null : tabId !== null && finalTabs.has(tabId) ? tabId : finalTabIds[0],
      }));
  } else {
    if (finalTabIds.length && wanted.some((w) => w.tabId === null)) throw badRequest(TABS_NEED_EVERY_CARD);
    const stray = wanted.find((w) => w.tabId !== null && !finalTabs.has(w.tabId));
    if (stray) throw badRequest(`Tab ${stray.dc.dashboard_tab_id} is not a tab of this dashboard.`);
  }

  const currentById = new Map(current.map((d) => [d.id, d]));
  const currentSeries = await seriesOf(db, current.map((d) => d.id));
  const keep = new Set<number>();
  for (const { dc, tabId } of wanted) {
    const existing = currentById.get(dc.id);
    if (existing) {
      keep.add(existing.id);
      const updates = changedColumns(existing, dashcardColumns(dc, tabId));
      if (Object.keys(updates).length) {
        await db.updateTable('report_dashboardcard').set({ ...updates, updated_at: now }).where('id', '=', existing.id).execute();
      }
      if (dc.series !== undefined && dc.series !== null) {
        const ids = seriesIds(dc.series);
        if (!sameJson(ids, currentSeries.get(existing.id) ?? [])) await replaceSeries(db, existing.id, ids);
      }
      continue;
    }
    const id = await insertRow(
      ctx,
      db,
      'report_dashboardcard',
      {
        entity_id: newEntityId(),
        dashboard_id: dashboardId,
        dashboard_tab_id: tabId,
        card_id: dc.card_id ?? null,
        action_id: dc.action_id ?? null,
        row: dc.row,
        col: dc.col,
        size_x: dc.size_x,
        size_y: dc.size_y,
        parameter_mappings: JSON.stringify(dc.parameter_mappings ?? []),
        visualization_settings: JSON.stringify(dc.visualization_settings ?? {}),
        inline_parameters: toJson(dc.inline_parameters ?? null),
        created_at: now,
        updated_at: now,
      },
      mode === 'restore' ? dc.id : null,
    );
    keep.add(id);
    changes.createdDashcardIds.push(id);
    await replaceSeries(db, id, seriesIds(dc.series));
  }
  const gone = current.filter((d) => !keep.has(d.id)).map((d) => d.id);
  if (gone.length) {
    await db.deleteFrom('report_dashboardcard').where('id', 'in', gone).execute();
    changes.deletedDashcardIds.push(...gone);
  }
  await putOrphansOnFirstTab(db, dashboardId, finalTabIds, now);
  return changes;
}

/**
 * Once a dashboard has tabs every dashcard needs one: those without (cards placed before the first tab was made,
 * including hidden ones whose card is archived) go on the first tab.
 */
async function putOrphansOnFirstTab(db: Db, dashboardId: number, tabIds: number[], now: string): Promise<void> {
  if (tabIds.length === 0) return;
  await db
    .updateTable('report_dashboardcard')
    .set({ dashboard_tab_id: tabIds[0], updated_at: now })
    .where('dashboard_id', '=', dashboardId)
    .where((eb) => eb.or([eb('dashboard_tab_id', 'is', null), eb('dashboard_tab_id', 'not in', tabIds)]))
    .execute();
}
