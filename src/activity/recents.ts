// Reading activity: recents (views and selections), recent_views, popular items and the most recently viewed
// dashboard (/api/activity). Items the caller can no longer read, archived ones and deleted ones are left out.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, notFound } from '../http/errors.js';
import { bool, parseJson } from '../appdb/portable.js';
import { dataAccess, type DataAccess } from '../permissions/data-access.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { rootCollectionName } from '../collections/json.js';
import { effectiveParentId } from '../collections/items.js';
import { locationIds } from '../collections/locations.js';
import { touchRecent, type StoredModel } from './views.js';
import { flushExecutions } from '../query/index.js';

interface View {
  model: string;
  model_id: number;
  timestamp: string;
}

const rootParent = () => ({ id: 'root' as const, name: rootCollectionName(null), authority_level: null });

/** Everything needed to describe the viewed items, one query per kind. */
async function loadObjects(ctx: AppContext, views: View[]) {
  const ids = (model: string) => [...new Set(views.filter((v) => v.model === model).map((v) => v.model_id))];
  const cardIds = ids('card');
  const dashboardIds = ids('dashboard');
  const collectionIds = ids('collection');
  const tableIds = ids('table');
  const [cards, dashboards, collections, tables] = await Promise.all([
    cardIds.length ? ctx.db.selectFrom('report_card').selectAll().where('id', 'in', cardIds).execute() : [],
    dashboardIds.length ? ctx.db.selectFrom('report_dashboard').selectAll().where('id', 'in', dashboardIds).execute() : [],
    collectionIds.length ? ctx.db.selectFrom('collection').selectAll().where('id', 'in', collectionIds).execute() : [],
    tableIds.length
      ? ctx.db
          .selectFrom('metabase_table')
          .innerJoin('metabase_database', 'metabase_database.id', 'metabase_table.db_id')
          .select([
            'metabase_table.id',
            'metabase_table.name',
            'metabase_table.description',
            'metabase_table.display_name',
            'metabase_table.active',
            'metabase_table.visibility_type',
            'metabase_table.schema',
            'metabase_table.view_count',
            'metabase_database.id as db_id',
            'metabase_database.name as database_name',
            'metabase_database.initial_sync_status',
          ])
          .where('metabase_table.id', 'in', tableIds)
          .execute()
      : [],
  ]);
  const parentIds = [...cards, ...dashboards].map((r) => r.collection_id).filter((id): id is number => id !== null);
  const collectionLocations = collections.flatMap((c) => locationIds(c.location));
  const parentRows = await (parentIds.length + collectionLocations.length
    ? ctx.db.selectFrom('collection').selectAll().where('id', 'in', [...new Set([...parentIds, ...collectionLocations])]).execute()
    : Promise.resolve([]));
  const dashboardNames = await (cards.some((c) => c.dashboard_id !== null)
    ? ctx.db
        .selectFrom('report_dashboard')
        .select(['id', 'name'])
        .where('id', 'in', cards.map((c) => c.dashboard_id).filter((id): id is number => id !== null))
        .execute()
    : Promise.resolve([]));
  return {
    cards: new Map(cards.map((r) => [r.id, r])),
    dashboards: new Map(dashboards.map((r) => [r.id, r])),
    collections: new Map(collections.map((r) => [r.id, r])),
    tables: new Map(tables.map((r) => [r.id, r])),
    parents: new Map(parentRows.map((r) => [r.id, r])),
    dashboardNames: new Map(dashboardNames.map((r) => [r.id, r.name])),
  };
}

type Objects = Awaited<ReturnType<typeof loadObjects>>;

function parentCollection(objects: Objects, collectionId: number | null) {
  if (collectionId === null) return rootParent();
  const parent = objects.parents.get(collectionId);
  if (!parent || bool(parent.archived)) return null;
  return { id: parent.id, name: parent.name, authority_level: parent.authority_level };
}

/** One recent item in Metabase's shape, or null when it shouldn't be shown. */
function describe(objects: Objects, access: CollectionAccess, view: View, options: { includeMetadata: boolean }): Record<string, unknown> | null {
  const timestamp = view.timestamp;
  if (view.model === 'card') {
    const card = objects.cards.get(view.model_id);
    if (!card || bool(card.archived) || !access.canRead(card.collection_id)) return null;
    const parent = parentCollection(objects, card.collection_id);
    if (!parent) return null;
    const model = card.type === 'model' ? 'dataset' : card.type === 'metric' ? 'metric' : 'card';
    return {
      id: card.id,
      name: card.name,
      description: card.description,
      model,
      can_write: access.canWrite(card.collection_id),
      timestamp,
      ...(model !== 'dataset' ? { display: card.display } : {}),
      ...(model !== 'metric' ? { database_id: card.database_id } : {}),
      ...(model === 'card'
        ? {
            dashboard: card.dashboard_id === null ? null : { id: card.dashboard_id, name: objects.dashboardNames.get(card.dashboard_id) ?? null },
            entity_id: card.entity_id,
            dataset_query: parseJson(card.dataset_query, {}),
            visualization_settings: parseJson(card.visualization_settings, {}),
          }
        : {}),
      ...(options.includeMetadata ? { result_metadata: parseJson(card.result_metadata, null) } : {}),
      moderated_status: null,
      parent_collection: parent,
    };
  }
  if (view.model === 'dashboard') {
    const dashboard = objects.dashboards.get(view.model_id);
    if (!dashboard || bool(dashboard.archived) || !access.canRead(dashboard.collection_id)) return null;
    const parent = parentCollection(objects, dashboard.collection_id);
    if (!parent) return null;
    return {
      id: dashboard.id,
      name: dashboard.name,
      description: dashboard.description,
      model: 'dashboard',
      can_write: access.canWrite(dashboard.collection_id),
      timestamp,
      moderated_status: null,
      parent_collection: parent,
    };
  }
  if (view.model === 'collection') {
    const collection = objects.collections.get(view.model_id);
    if (!collection || bool(collection.archived) || collection.type === 'trash' || collection.namespace) return null;
    if (!access.canRead(collection.id)) return null;
    const parentId = effectiveParentId(access, collection);
    const parent = parentId === null ? rootParent() : objects.parents.get(parentId);
    const effective = locationIds(collection.location).filter((id) => access.canRead(id));
    return {
      id: collection.id,
      name: collection.name,
      description: collection.description,
      model: 'collection',
      can_write: access.canWrite(collection.id),
      timestamp,
      authority_level: collection.authority_level,
      collection_type: collection.type,
      effective_location: effective.length ? `/${effective.join('/')}/` : '/',
      parent_collection: parent && 'location' in parent ? { id: parent.id, name: parent.name, authority_level: parent.authority_level } : rootParent(),
    };
  }
  if (view.model === 'table') {
    const table = objects.tables.get(view.model_id);
    if (!table || !bool(table.active) || table.visibility_type === 'hidden') return null;
    return {
      id: table.id,
      name: table.name,
      description: table.description,
      model: 'table',
      display_name: table.display_name,
      can_write: access.isSuperuser,
      timestamp,
      table_schema: table.schema,
      database: { id: table.db_id, name: table.database_name, initial_sync_status: table.initial_sync_status },
    };
  }
  return null;
}

/** Tables show up only for callers who may query them (data permissions); other kinds pass. */
function queryableTable(data: DataAccess, objects: Awaited<ReturnType<typeof loadObjects>>, view: { model: string; model_id: number }): boolean {
  if (view.model !== 'table') return true;
  const table = objects.tables.get(view.model_id);
  return !table || data.canQueryTable({ id: table.id, db_id: table.db_id, schema: table.schema });
}

export async function recents(ctx: AppContext, caller: Caller, contexts: string[], options: { includeMetadata: boolean }) {
  if (contexts.length === 0) throw badRequest('context is required.');
  const stored = contexts.map((c) => (c === 'views' ? 'view' : 'selection'));
  const views = await ctx.db
    .selectFrom('recent_views')
    .select(['model', 'model_id', 'timestamp'])
    .where('user_id', '=', caller.user.id)
    .where('context', 'in', stored)
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const [access, data, objects] = await Promise.all([collectionAccess(ctx, caller), dataAccess(ctx, caller), loadObjects(ctx, views)]);
  const seen = new Set<string>();
  const out: Array<Record<string, unknown>> = [];
  for (const view of views) {
    const item = queryableTable(data, objects, view) ? describe(objects, access, view, options) : null;
    if (!item) continue;
    const key = `${item.model}:${item.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return { recents: out };
}

export async function recentViews(ctx: AppContext, caller: Caller) {
  const { recents: items } = await recents(ctx, caller, ['views'], { includeMetadata: false });
  return { recent_views: items.slice(0, 100) };
}

const RECENT_MODELS: Record<string, StoredModel> = {
  card: 'card',
  dataset: 'card',
  metric: 'card',
  dashboard: 'dashboard',
  table: 'table',
  collection: 'collection',
};

/** POST /api/activity/recents: the caller picked an item (in a data picker, say). */
export async function addSelection(ctx: AppContext, caller: Caller, model: string, modelId: number) {
  const stored = RECENT_MODELS[model];
  const access = await collectionAccess(ctx, caller);
  let cardType: string | null = null;
  if (stored === 'card') {
    const card = await ctx.db.selectFrom('report_card').select(['collection_id', 'type']).where('id', '=', modelId).executeTakeFirst();
    if (!card) throw notFound('Model not found');
    access.checkRead(card.collection_id);
    cardType = card.type;
  } else if (stored === 'dashboard') {
    const dashboard = await ctx.db.selectFrom('report_dashboard').select('collection_id').where('id', '=', modelId).executeTakeFirst();
    if (!dashboard) throw notFound('Model not found');
    access.checkRead(dashboard.collection_id);
  } else if (stored === 'collection') {
    const collection = await ctx.db.selectFrom('collection').select('id').where('id', '=', modelId).executeTakeFirst();
    if (!collection) throw notFound('Model not found');
    access.checkRead(collection.id);
  } else {
    const table = await ctx.db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('id', '=', modelId).executeTakeFirst();
    if (!table) throw notFound('Model not found');
    (await dataAccess(ctx, caller)).checkQueryTable(table);
  }
  await touchRecent(ctx, caller.user.id, stored, modelId, 'selection', cardType);
}

/** The dashboard the caller viewed last, if within the last 24 hours (else 204). */
export async function mostRecentlyViewedDashboard(ctx: AppContext, caller: Caller) {
  const since = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
  const view = await ctx.db
    .selectFrom('recent_views')
    .innerJoin('report_dashboard', 'report_dashboard.id', 'recent_views.model_id')
    .select(['report_dashboard.id'])
    .where('recent_views.user_id', '=', caller.user.id)
    .where('recent_views.model', '=', 'dashboard')
    .where('recent_views.context', '=', 'view')
    .where('recent_views.timestamp', '>', since)
    .where('report_dashboard.archived', '=', false)
    .orderBy('recent_views.timestamp', 'desc')
    .executeTakeFirst();
  if (!view) return null;
  const dashboard = await ctx.db.selectFrom('report_dashboard').selectAll().where('id', '=', view.id).executeTakeFirstOrThrow();
  const access = await collectionAccess(ctx, caller);
  if (!access.canRead(dashboard.collection_id)) return null;
  const collection =
    dashboard.collection_id === null
      ? null
      : await ctx.db.selectFrom('collection').selectAll().where('id', '=', dashboard.collection_id).executeTakeFirst();
  return {
    ...dashboard,
    parameters: parseJson(dashboard.parameters, []),
    embedding_params: parseJson(dashboard.embedding_params, null),
    enable_embedding: bool(dashboard.enable_embedding),
    auto_apply_filters: bool(dashboard.auto_apply_filters),
    show_in_getting_started: bool(dashboard.show_in_getting_started),
    archived: bool(dashboard.archived),
    archived_directly: bool(dashboard.archived_directly),
    collection: collection ? { ...collection, archived: bool(collection.archived), is_sample: bool(collection.is_sample), is_personal: collection.personal_owner_id !== null } : null,
  };
}

const PRECEDENCE: Record<string, number> = { dashboard: 0, card: 1, dataset: 2, metric: 3, table: 4, collection: 5 };

/** The 8 most recently run cards (as questions), with how often they ran. */
async function cardRuns(ctx: AppContext) {
  await flushExecutions(ctx);
  const rows = await ctx.db
    .selectFrom('query_execution')
    .select(['card_id', (eb) => eb.fn.countAll<number>().as('cnt'), (eb) => eb.fn.max('started_at').as('max_ts')])
    .where('card_id', 'is not', null)
    .where('context', '=', 'question')
    .groupBy('card_id')
    .orderBy('max_ts', 'desc')
    .limit(8)
    .execute();
  return rows.map((r) => ({ model: 'card', model_id: Number(r.card_id), cnt: Number(r.cnt), timestamp: String(r.max_ts) }));
}

/** The 8 most recently viewed dashboards and tables (by anyone), with their view counts. */
async function pageViews(ctx: AppContext) {
  const rows = await ctx.db
    .selectFrom('recent_views')
    .leftJoin('report_dashboard', (join) => join.onRef('report_dashboard.id', '=', 'recent_views.model_id').on('recent_views.model', '=', 'dashboard'))
    .leftJoin('metabase_table', (join) => join.onRef('metabase_table.id', '=', 'recent_views.model_id').on('recent_views.model', '=', 'table'))
    .select([
      'recent_views.model',
      'recent_views.model_id',
      (eb) => eb.fn.max(eb.fn.coalesce('report_dashboard.view_count', 'metabase_table.view_count')).as('cnt'),
      (eb) => eb.fn.max('recent_views.timestamp').as('max_ts'),
    ])
    .where('recent_views.context', '=', 'view')
    .where('recent_views.model', 'in', ['dashboard', 'table'])
    .groupBy(['recent_views.model', 'recent_views.model_id'])
    .orderBy('max_ts', 'desc')
    .limit(8)
    .execute();
  return rows.map((r) => ({ model: r.model, model_id: r.model_id, cnt: Number(r.cnt ?? 0), timestamp: String(r.max_ts) }));
}

/**
 * Five popular items of the instance, as Metabase picks them: the 8 cards run last (as questions) and the 8
 * dashboards and tables viewed last, scored by how often (4), how recently (2) and official collections (1),
 * grouped by kind (dashboards, questions, models, metrics, tables).
 */
export async function popularItems(ctx: AppContext, caller: Caller) {
  const [cards, pages] = await Promise.all([cardRuns(ctx), pageViews(ctx)]);
  const views = [...cards, ...pages].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
  const [access, data, objects] = await Promise.all([collectionAccess(ctx, caller), dataAccess(ctx, caller), loadObjects(ctx, views)]);
  const described = views
    .map((view) => ({ view, item: queryableTable(data, objects, view) ? describe(objects, access, view, { includeMetadata: false }) : null }))
    .filter((x): x is { view: (typeof views)[number]; item: Record<string, unknown> } => x.item !== null);
  const n = described.length;
  const maxCount = Math.max(0, ...described.map((d) => d.view.cnt));
  const scored = described.map((d, position) => {
    const official = (d.item.parent_collection as { authority_level?: string | null } | undefined)?.authority_level === 'official';
    const score = (official ? 1 : 0) + (n ? ((n - position) / n) * 2 : 0) + (maxCount ? (d.view.cnt / maxCount) * 4 : 0);
    return { ...d, score };
  });
  scored.sort((a, b) => (PRECEDENCE[String(a.item.model)] ?? 9) - (PRECEDENCE[String(b.item.model)] ?? 9) || b.score - a.score);
  return { popular_items: scored.slice(0, 5).map((s) => s.item) };
}
