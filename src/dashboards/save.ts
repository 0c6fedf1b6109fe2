// POST /api/dashboard/save and /save/collection/:id: saves a denormalized dashboard (the shape of GET, with full
// `card` objects on its dashcards, as generated x-ray dashboards are) as real content. Like Metabase, it makes a new
// collection named after the dashboard ("Name", or "Name 2" when taken) under the parent — the given collection, or
// for admins "Automatically generated dashboards" at the root and for others their personal collection — and saves
// the dashboard (pinned first) and every unsaved card there.
//
// Nothing is half-made: everything that can be refused is checked before anything is written — cards referenced by
// id must exist (404), be readable (403), not be archived or another dashboard's question; unsaved cards need a valid
// query (400) on an existing database the caller may query (404/403); filter mappings need usable targets (400), and
// data permission when they point at an existing card (403). The collections, cards and dashboard are made through
// their modules (each in its own transaction), so if a later step still fails, what was made is removed again.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { createCollection, deleteNewCollection } from '../collections/collections.js';
import { findCollection } from '../collections/store.js';
import { childrenLocation } from '../collections/locations.js';
import { createCard, deleteCard } from '../cards/cards.js';
import { cardsByIds, type CardRow } from '../cards/store.js';
import { canRunAdhocQueries } from '../cards/data-access.js';
import { checkMappingAccess, type MappingCheck } from './mapping-access.js';
import { checkedLegacyQuery, checkTypeRules } from '../cards/query-info.js';
import { personalCollectionIds } from '../collections/personal.js';
import { dashboardJson } from './json.js';
import { requireDashboard } from './store.js';
import { applyLayout, checkShownCard, type DashcardInput, type TabInput } from './layout.js';
import { checkNewMappingTargets } from './mapping-targets.js';
import { insertDashboard, recordDashboardRevision, TRASH_MESSAGE } from './dashboards.js';
import { s, throwIssues, type Issue, type Schema } from '../http/schema.js';
import { fitName, NAME_MAX } from '../util/fit.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

export const GENERATED_DASHBOARDS_COLLECTION = 'Automatically generated dashboards';

/** Where the new collection goes when no parent is given; `made` learns of a collection made for it. */
async function defaultParent(ctx: AppContext, caller: Caller, made: number[]): Promise<number | null> {
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
  made.push(Number((created as { id: number }).id));
  return made[made.length - 1];
}

async function uniqueCollectionName(ctx: AppContext, name: string, parentId: number | null): Promise<string> {
  const parent = parentId === null ? null : await findCollection(ctx.db, parentId);
  const location = childrenLocation(parent ?? null);
  const rows = await ctx.db.selectFrom('collection').select('name').where('location', '=', location).execute();
  const taken = rows.filter((r) => r.name.startsWith(name)).length;
  // (a name that fills its 254-character column is cut for the number to fit)
  return taken === 0 ? name : fitName(name, NAME_MAX, { suffix: ` ${taken + 1}` });
}

function intOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

/** A card to show: an existing one (by id), an unsaved one to save, or none (text and other virtual cards). */
type CardPlan = { existing: number } | { unsaved: Obj } | null;

function planCard(card: unknown): CardPlan {
  if (!isObj(card)) return null;
  if (isId(card.id)) return { existing: card.id };
  if (!isObj(card.dataset_query) || Object.keys(card.dataset_query).length === 0) return null;
  return { unsaved: card };
}

interface DashcardPlan {
  raw: Obj;
  card: CardPlan;
  series: CardPlan[];
  mappings: Obj[];
}

/** A card about to be made, as far as the mapping checks read one (its query, for template-tag targets). */
function unsavedRow(card: Obj): CardRow {
  return { id: 0, name: String(card.name ?? ''), table_id: null, dataset_query: JSON.stringify(card.dataset_query ?? {}) } as CardRow;
}

const sized = s.str(undefined, { max: NAME_MAX });
const cardType = s.enum(['question', 'metric', 'model'] as const);

/**
 * The strings of the body that are stored as they are — unsaved cards' names, displays and types, tab names — fit
 * their varchar columns (400 otherwise; blank or missing ones get defaults).
 */
function checkStoredText(body: Obj, plans: DashcardPlan[]): void {
  const issues: Issue[] = [];
  const check = (schema: Schema<unknown>, value: unknown, path: string[]) => {
    if (typeof value !== 'string' || !value.trim()) return;
    const r = schema.parse(value, false);
    if (!r.ok) issues.push(...r.issues.map((i) => ({ ...i, path })));
  };
  for (const plan of plans) {
    for (const [key, card] of [['card', plan.card], ...plan.series.map((c) => ['series', c] as const)] as const) {
      if (!card || !('unsaved' in card)) continue;
      check(sized, card.unsaved.name, ['dashcards', key, 'name']);
      check(sized, card.unsaved.display, ['dashcards', key, 'display']);
      check(cardType, card.unsaved.type, ['dashcards', key, 'type']);
    }
  }
  for (const tab of Array.isArray(body.tabs) ? body.tabs.filter(isObj) : []) check(sized, tab.name, ['tabs', 'name']);
  if (issues.length) throwIssues(issues);
}

/** Every check of a save, before anything is written. */
async function checkSave(ctx: AppContext, caller: Caller, access: CollectionAccess, plans: DashcardPlan[]): Promise<void> {
  const all = plans.flatMap((p) => [p.card, ...p.series]);
  const existingIds = [...new Set(all.flatMap((c) => (c && 'existing' in c ? [c.existing] : [])))];
  const existing = await cardsByIds(ctx.db, existingIds);
  for (const id of existingIds) checkShownCard(access, existing.get(id), null);
  // the checks POST /api/card makes of a query (400 saying what is wrong), then whether the caller may run them
  const unsaved = all.flatMap((c) => (c && 'unsaved' in c ? [c.unsaved] : []));
  const databases = new Set<number>();
  for (const card of unsaved) {
    const query = checkedLegacyQuery(card.dataset_query as Obj);
    checkTypeRules(typeof card.type === 'string' ? card.type : 'question', query);
    if (typeof query.database === 'number' && query.database > 0) databases.add(query.database);
  }
  if ((await canRunAdhocQueries(ctx, caller, unsaved.map(unsavedRow))).includes(false)) throw forbidden();
  if (databases.size) {
    const found = await ctx.db.selectFrom('metabase_database').select('id').where('id', 'in', [...databases]).execute();
    if (found.length !== databases.size) throw notFound();
  }
  // Filter mappings: usable targets; on an existing card, the caller must be able to query it and what the targets
  // read (as PUT asks).
  const checks: MappingCheck[] = [];
  for (const plan of plans) {
    checkNewMappingTargets(plan.mappings, []);
    const card = !plan.card ? undefined : 'existing' in plan.card ? existing.get(plan.card.existing) : unsavedRow(plan.card.unsaved);
    if (card) for (const mapping of plan.mappings) checks.push({ card, target: mapping.target });
  }
  await checkMappingAccess(ctx, caller, checks);
}

export async function saveTransientDashboard(ctx: AppContext, caller: Caller, body: Obj, parentCollectionId: number | null) {
  const access = await collectionAccess(ctx, caller);
  if (parentCollectionId !== null) {
    if (parentCollectionId === access.trashId) throw badRequest(TRASH_MESSAGE);
    if (!(await findCollection(ctx.db, parentCollectionId))) throw notFound();
    access.checkWrite(parentCollectionId);
  }
  const name = String(body.name);
  const plans: DashcardPlan[] = (Array.isArray(body.dashcards) ? body.dashcards.filter(isObj) : []).map((d) => ({
    raw: d,
    card: d.card !== undefined ? planCard(d.card) : isId(d.card_id) ? { existing: d.card_id } : null,
    series: (Array.isArray(d.series) ? d.series : []).map(planCard).filter((s) => s !== null),
    mappings: Array.isArray(d.parameter_mappings) ? d.parameter_mappings.filter(isObj) : [],
  }));
  checkStoredText(body, plans);
  await checkSave(ctx, caller, access, plans);

  const madeCollections: number[] = [];
  const madeCards: number[] = [];
  try {
    const parentId = parentCollectionId ?? (await defaultParent(ctx, caller, madeCollections));
    const collection = await createCollection(ctx, caller, {
      name: await uniqueCollectionName(ctx, name, parentId),
      description: 'Automatically generated cards.',
      parent_id: parentId,
      namespace: null,
      authority_level: null,
    });
    const collectionId = Number((collection as { id: number }).id);
    madeCollections.push(collectionId);

    /** The id of a card to show: an existing one as is, an unsaved one saved in the new collection. */
    const saveCard = async (plan: CardPlan): Promise<number | null> => {
      if (!plan) return null;
      if ('existing' in plan) return plan.existing;
      const card = plan.unsaved;
      const created = await createCard(ctx, caller, {
        name: typeof card.name === 'string' && card.name.trim() ? card.name : 'Untitled question',
        display: typeof card.display === 'string' && card.display ? card.display : 'table',
        type: typeof card.type === 'string' ? card.type : 'question',
        description: typeof card.description === 'string' ? card.description : null,
        dataset_query: card.dataset_query as Obj,
        visualization_settings: isObj(card.visualization_settings) ? card.visualization_settings : {},
        parameters: Array.isArray(card.parameters) ? card.parameters : [],
        result_metadata: Array.isArray(card.result_metadata) ? card.result_metadata : null,
        collection_id: collectionId,
      });
      const id = Number((created as { id: number }).id);
      madeCards.push(id);
      return id;
    };

    const layout: DashcardInput[] = [];
    for (const [i, { raw: d, card, series: seriesPlans, mappings }] of plans.entries()) {
      const cardId = await saveCard(card);
      const series: number[] = [];
      for (const s of seriesPlans) {
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
        parameter_mappings: mappings.map((m) => (typeof m.card_id === 'number' || cardId === null ? m : { ...m, card_id: cardId })),
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
    for (const id of madeCards) await deleteCard(ctx, caller, id).catch((e) => ctx.log.warn({ err: e }, 'could not remove a card of a failed dashboard save'));
    for (const id of madeCollections.reverse()) await deleteNewCollection(ctx, id).catch((e) => ctx.log.warn({ err: e }, 'could not remove a collection of a failed dashboard save'));
    throw error;
  }
}
