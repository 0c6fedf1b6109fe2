// Dashboards: create, read, update (with the full replacement of dashcards and tabs), archive, delete and list
// (the /api/dashboard CRUD). Every read and write goes through the collection checker, like cards.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { archivedError, badRequest, forbidden, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, toJson, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { findCollection } from '../collections/store.js';
import { pushRevision } from '../revisions/revisions.js';
import { recordView } from '../activity/views.js';
import { dashboardJson, dashboardListJson, dashcardContext, dashcardJson, sortDashcards, tabJson } from './json.js';
import { dashcardsOf, requireDashboard, tabsOf, type DashboardRow } from './store.js';
import { applyLayout, checkLayoutEdits, type DashcardInput, type LayoutInput, type TabInput } from './layout.js';
import { serializeDashboard } from './dashboard-revisions.js';
import { checkEmbeddingEnabled } from '../embed/settings.js';
import { embeddingChanges, checkEmbeddingChange } from '../embed/admin-keys.js';
import { followDashboard } from './dashboard-questions.js';
import { deleteDashboardRows } from './delete.js';
import { reconcileCollectionPosition, shiftCollectionPositions } from '../collections/positions.js';

type Obj = Record<string, unknown>;

export const TRASH_MESSAGE = 'You cannot modify the Trash Collection.';

/** Reads a dashboard the caller may see (404 when missing, 403 otherwise). */
export async function readableDashboard(ctx: AppContext, access: CollectionAccess, id: number, db: Db = ctx.db): Promise<DashboardRow> {
  const row = await requireDashboard(ctx, id, db);
  access.checkRead(row.collection_id);
  return row;
}

export async function writableDashboard(ctx: AppContext, access: CollectionAccess, id: number, db: Db = ctx.db): Promise<DashboardRow> {
  const row = await requireDashboard(ctx, id, db);
  access.checkWrite(row.collection_id);
  return row;
}

/** A collection a dashboard may be put in: one the caller curates, of the default namespace, never the Trash. */
export async function checkCollectionTarget(ctx: AppContext, access: CollectionAccess, collectionId: number | null): Promise<void> {
  if (collectionId !== null) {
    if (collectionId === access.trashId) throw badRequest(TRASH_MESSAGE);
    const collection = await findCollection(ctx.db, collectionId);
    if (!collection) throw notFound();
    if (collection.namespace) throw badRequest('A Dashboard can only go in Collections in the "default" or :analytics namespace.');
  }
  access.checkWrite(collectionId);
}

export { checkEmbeddingEnabled };

/**
 * Pinning at a position moves the collection's other pinned dashboards down one place (those at the last position a
 * smallint holds stay there).
 */
export async function recordDashboardRevision(ctx: AppContext, db: Db, id: number, userId: number, isCreation = false): Promise<void> {
  await pushRevision(ctx, db, { model: 'Dashboard', modelId: id, userId, object: await serializeDashboard(ctx, db, id), isCreation });
}

export async function getDashboard(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  const row = await readableDashboard(ctx, access, id);
  const json = await dashboardJson(ctx, access, row);
  await recordView(ctx, caller, 'dashboard', id);
  return json;
}

export interface NewDashboard {
  name: string;
  description?: string | null;
  parameters?: Obj[] | null;
  cache_ttl?: number | null;
  collection_id?: number | null;
  collection_position?: number | null;
  width?: string | null;
  auto_apply_filters?: boolean | null;
}

/** Inserts a dashboard row (inside `db`'s transaction); returns its id. */
export async function insertDashboard(ctx: AppContext, db: Db, caller: Caller, input: NewDashboard): Promise<number> {
  const now = nowIso();
  const collectionId = input.collection_id ?? null;
  const id = await insertReturningId(db, ctx.dialect, 'report_dashboard', {
    entity_id: newEntityId(),
    name: input.name,
    description: input.description ?? null,
    collection_id: collectionId,
    collection_position: input.collection_position ?? null,
    creator_id: caller.user.id,
    made_public_by_id: null,
    public_uuid: null,
    enable_embedding: false,
    embedding_params: null,
    initially_published_at: null,
    parameters: JSON.stringify(input.parameters ?? []),
    auto_apply_filters: input.auto_apply_filters ?? true,
    width: input.width ?? 'fixed',
    position: null,
    caveats: null,
    points_of_interest: null,
    show_in_getting_started: false,
    cache_ttl: input.cache_ttl ?? null,
    archived: false,
    archived_directly: false,
    view_count: 0,
    last_viewed_at: null,
    created_at: now,
    updated_at: now,
  });
  if (input.collection_position) await shiftCollectionPositions(db, 'report_dashboard', collectionId, input.collection_position, id);
  return id;
}

export async function createDashboard(ctx: AppContext, caller: Caller, input: NewDashboard) {
  const access = await collectionAccess(ctx, caller);
  await checkCollectionTarget(ctx, access, input.collection_id ?? null);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const dashboardId = await insertDashboard(ctx, trx, caller, input);
    await recordDashboardRevision(ctx, trx, dashboardId, caller.user.id, true);
    return dashboardId;
  });
  return dashboardJson(ctx, access, await requireDashboard(ctx, id), { lastUsedValues: false });
}

export interface DashboardUpdate {
  name?: string | null;
  description?: string | null;
  caveats?: unknown;
  points_of_interest?: unknown;
  show_in_getting_started?: boolean | null;
  enable_embedding?: boolean | null;
  embedding_params?: Obj | null;
  parameters?: Obj[] | null;
  position?: number | null;
  width?: string | null;
  archived?: boolean | null;
  collection_id?: number | null;
  collection_position?: number | null;
  cache_ttl?: number | null;
  auto_apply_filters?: boolean | null;
  dashcards?: DashcardInput[] | null;
  tabs?: TabInput[] | null;
}

const asText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Which columns change. `description`, `position`, `width`, `collection_id`, `collection_position` and `cache_ttl`
 * apply whenever present (null clears them); the others only when non-null (reference §7.2).
 */
function columnChanges(before: DashboardRow, input: DashboardUpdate, present: Set<string>): Obj {
  const changes: Obj = {};
  const has = (key: keyof DashboardUpdate) => present.has(key);
  const nonNull = (key: keyof DashboardUpdate) => has(key) && input[key] !== null && input[key] !== undefined;
  if (has('description')) changes.description = input.description ?? null;
  if (has('position')) changes.position = input.position ?? null;
  if (nonNull('width')) changes.width = input.width;
  if (has('collection_id')) changes.collection_id = input.collection_id ?? null;
  if (has('collection_position')) changes.collection_position = input.collection_position ?? null;
  if (has('cache_ttl')) changes.cache_ttl = input.cache_ttl ?? null;
  if (nonNull('name')) changes.name = input.name;
  if (nonNull('parameters')) changes.parameters = JSON.stringify(input.parameters);
  if (nonNull('caveats')) changes.caveats = asText(input.caveats);
  if (nonNull('points_of_interest')) changes.points_of_interest = asText(input.points_of_interest);
  if (nonNull('show_in_getting_started')) changes.show_in_getting_started = input.show_in_getting_started;
  if (nonNull('enable_embedding')) changes.enable_embedding = input.enable_embedding;
  if (input.enable_embedding === true && !before.initially_published_at) changes.initially_published_at = nowIso();
  if (nonNull('embedding_params')) changes.embedding_params = toJson(input.embedding_params);
  if (nonNull('auto_apply_filters')) changes.auto_apply_filters = input.auto_apply_filters;
  if (nonNull('archived') && input.archived !== bool(before.archived)) {
    changes.archived = input.archived;
    changes.archived_directly = input.archived;
  }
  // keep only real differences
  const row = before as unknown as Obj;
  for (const [key, value] of Object.entries(changes)) {
    const current = row[key];
    const same = typeof value === 'boolean' ? bool(current) === value : (current ?? null) === (value ?? null);
    if (same && key !== 'archived') delete changes[key];
  }
  return changes;
}

export async function updateDashboard(ctx: AppContext, caller: Caller, id: number, input: DashboardUpdate, present: Set<string>) {
  const access = await collectionAccess(ctx, caller);
  const before = await writableDashboard(ctx, access, id);
  const changes = columnChanges(before, input, present);

  if ('collection_id' in changes) await checkCollectionTarget(ctx, access, changes.collection_id as number | null);
  if (embeddingChanges(before, input, (key) => present.has(key))) await checkEmbeddingChange(ctx, caller.isSuperuser);
  if (changes.archived === false) {
    const home = (changes.collection_id as number | null | undefined) ?? before.collection_id;
    if (home !== null) {
      const collection = await findCollection(ctx.db, home);
      if (collection && bool(collection.archived)) throw badRequest('You cannot unarchive a Dashboard into an archived Collection.');
    }
  }

  const layout: LayoutInput = {};
  if (present.has('dashcards') && input.dashcards) layout.dashcards = input.dashcards;
  if (present.has('tabs') && input.tabs) layout.tabs = input.tabs;
  const touchesLayout = Boolean(layout.dashcards || layout.tabs);
  if (touchesLayout) {
    const staysArchived = changes.archived === undefined ? bool(before.archived) : Boolean(changes.archived);
    if (staysArchived) throw archivedError();
    await checkLayoutEdits(ctx, caller, access, id, layout);
  }

  await ctx.db.transaction().execute(async (trx) => {
    let layoutChanged = false;
    if (touchesLayout) {
      const result = await applyLayout(ctx, trx, id, layout, 'edit');
      layoutChanged = true;
      void result;
    }
    if (Object.keys(changes).length || layoutChanged) {
      await trx.updateTable('report_dashboard').set({ ...changes, updated_at: nowIso() }).where('id', '=', id).execute();
    }
    if ('collection_id' in changes || 'archived' in changes) await followDashboard(trx, id);
    if ('collection_position' in changes || 'collection_id' in changes) {
      const home = 'collection_id' in changes ? (changes.collection_id as number | null) : before.collection_id;
      const position = 'collection_position' in changes ? (changes.collection_position as number | null) : before.collection_position;
      await reconcileCollectionPosition(trx, { table: 'report_dashboard', id }, { collectionId: before.collection_id, position: before.collection_position }, { collectionId: home, position });
    }
    await recordDashboardRevision(ctx, trx, id, caller.user.id);
  });
  return dashboardJson(ctx, await collectionAccess(ctx, caller), await requireDashboard(ctx, id));
}

/** The deprecated PUT /api/dashboard/:id/cards: the layout part of an update, answered as `{cards, tabs}`. */
export async function updateDashcards(ctx: AppContext, caller: Caller, id: number, cards: DashcardInput[], tabs: TabInput[] | null) {
  const present = new Set(['dashcards', ...(tabs ? ['tabs'] : [])]);
  await updateDashboard(ctx, caller, id, { dashcards: cards, tabs }, present);
  const access = await collectionAccess(ctx, caller);
  const [dashcardRows, tabRows] = await Promise.all([dashcardsOf(ctx.db, [id]), tabsOf(ctx.db, [id])]);
  const dashcards = sortDashcards(dashcardRows);
  const context = await dashcardContext(ctx, access, dashcards);
  return { cards: dashcards.map((d) => dashcardJson(d, context)), tabs: tabRows.map(tabJson) };
}

/** Hard delete: the dashboard, its dashcards, tabs, dashboard questions, history and activity. */
export async function deleteDashboard(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const access = await collectionAccess(ctx, caller);
  await writableDashboard(ctx, access, id);
  await ctx.db.transaction().execute((trx) => deleteDashboardRows(trx, id));
}

export type DashboardFilter = 'all' | 'mine' | 'archived';

/** GET /api/dashboard (deprecated): the dashboards the caller can see, by lower-case name. */
export async function listDashboards(ctx: AppContext, caller: Caller, f: DashboardFilter) {
  const access = await collectionAccess(ctx, caller);
  let query = ctx.db
    .selectFrom('report_dashboard')
    .selectAll()
    .where('archived', '=', f === 'archived')
    .where((eb) => access.filter(eb, 'report_dashboard.collection_id'));
  if (f === 'mine') query = query.where('creator_id', '=', caller.user.id);
  const rows = await query.execute();
  rows.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  return dashboardListJson(ctx, rows);
}

/** GET /api/dashboard/embeddable: `[{name, id}]` of dashboards with embedding on (admins, embedding enabled). */
export async function embeddableDashboards(ctx: AppContext) {
  await checkEmbeddingEnabled(ctx);
  const rows = await ctx.db
    .selectFrom('report_dashboard')
    .select(['id', 'name'])
    .where('enable_embedding', '=', true)
    .where('archived', '=', false)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({ name: r.name, id: r.id }));
}

/** GET /api/dashboard/public: `[{name, id, public_uuid}]` of shared dashboards (admins, public sharing enabled). */
export async function publicDashboards(ctx: AppContext) {
  if (!(await ctx.settings.getBoolean('enable-public-sharing'))) throw badRequest('Public sharing is not enabled.');
  const rows = await ctx.db
    .selectFrom('report_dashboard')
    .select(['id', 'name', 'public_uuid'])
    .where('public_uuid', 'is not', null)
    .where('archived', '=', false)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({ name: r.name, id: r.id, public_uuid: r.public_uuid }));
}
