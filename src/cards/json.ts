// How cards look in API responses (reference §3.1): the row's columns with JSON parsed, plus the hydrations
// Metabase adds — creator, collection, last-edit-info, permissions flags, dashboard count, dashboard… — all loaded
// for a whole batch of cards with one query per kind.

import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import type { CollectionAccess } from '../permissions/collections.js';
import { hydrateCollections } from '../collections/json.js';
import { lastEditInfo } from '../revisions/revisions.js';
import { userInfos } from './creators.js';
import { canRunAdhocQueries } from './data-access.js';
import { persistedCardIds } from '../persistence/store.js';
import type { CardRow } from './store.js';
import { averageRunningTimes, flushExecutions } from '../query/index.js';

export interface CardJsonOptions {
  /** Load `parameter_usage_count` (costs a scan of parameters; only for single-card reads). */
  parameterUsage?: boolean;
  /** The cards were just made (ids are never reused): nothing has run them yet and only their own dashboard holds them. */
  created?: boolean;
}

/** Can the caller curate this card (write access to its collection)? */
export function canWriteCard(access: CollectionAccess, row: CardRow): boolean {
  return access.canWrite(row.collection_id);
}

/** The columns of a card row, JSON parsed. */
export function cardColumnsJson(row: CardRow) {
  return {
    id: row.id,
    entity_id: row.entity_id,
    name: row.name,
    description: row.description,
    display: row.display,
    type: row.type,
    query_type: row.query_type,
    dataset_query: parseJson<Record<string, unknown>>(row.dataset_query, {}),
    visualization_settings: parseJson<Record<string, unknown>>(row.visualization_settings, {}),
    parameters: parseJson<unknown[]>(row.parameters, []),
    parameter_mappings: parseJson<unknown[]>(row.parameter_mappings, []),
    result_metadata: parseJson<unknown[] | null>(row.result_metadata, null),
    database_id: row.database_id,
    table_id: row.table_id,
    source_card_id: row.source_card_id,
    collection_id: row.collection_id,
    collection_position: row.collection_position,
    collection_preview: bool(row.collection_preview),
    dashboard_id: row.dashboard_id,
    creator_id: row.creator_id,
    made_public_by_id: row.made_public_by_id,
    public_uuid: row.public_uuid,
    enable_embedding: bool(row.enable_embedding),
    embedding_params: parseJson<Record<string, unknown> | null>(row.embedding_params, null),
    initially_published_at: row.initially_published_at,
    cache_ttl: row.cache_ttl,
    cache_invalidated_at: row.cache_invalidated_at,
    archived: bool(row.archived),
    archived_directly: bool(row.archived_directly),
    card_schema: row.card_schema,
    metabase_version: row.metabase_version,
    view_count: row.view_count,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function dashboardCounts(ctx: AppContext, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('report_dashboardcard')
    .select(['card_id', (eb) => eb.fn.count<number>('id').as('n')])
    .where('card_id', 'in', ids)
    .groupBy('card_id')
    .execute();
  return new Map(rows.map((r) => [r.card_id as number, Number(r.n)]));
}

async function dashboardsOf(ctx: AppContext, ids: number[]): Promise<Map<number, { id: number; name: string; moderation_status: null }>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.selectFrom('report_dashboard').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, moderation_status: null }]));
}

async function uploadTables(ctx: AppContext, tableIds: number[]): Promise<Set<number>> {
  if (tableIds.length === 0) return new Set();
  const rows = await ctx.db.selectFrom('metabase_table').select(['id', 'is_upload']).where('id', 'in', tableIds).execute();
  return new Set(rows.filter((r) => bool(r.is_upload)).map((r) => r.id));
}

/** How many parameters (of dashboards and cards) take their values from this card. */
async function parameterUsage(ctx: AppContext, id: number): Promise<number> {
  const pattern = `%"card_id":${id}%`;
  const [dashboards, cards] = await Promise.all([
    ctx.db.selectFrom('report_dashboard').select('parameters').where('parameters', 'like', pattern).execute(),
    ctx.db.selectFrom('report_card').select('parameters').where('parameters', 'like', pattern).execute(),
  ]);
  let count = 0;
  for (const row of [...dashboards, ...cards]) {
    for (const p of parseJson<Array<Record<string, any>>>(row.parameters, [])) {
      if (p?.values_source_type === 'card' && p?.values_source_config?.card_id === id) count++;
    }
  }
  return count;
}

/** When each card's query last started (from the query execution log). */
async function lastQueryStarts(ctx: AppContext, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  await flushExecutions(ctx);
  const rows = await ctx.db
    .selectFrom('query_execution')
    .select(['card_id', (eb) => eb.fn.max('started_at').as('last')])
    .where('card_id', 'in', ids)
    .groupBy('card_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.card_id), String(r.last)]));
}

/** Full card JSON for a batch of rows, in the same order. */
export async function cardsJson(ctx: AppContext, access: CollectionAccess, rows: CardRow[], options: CardJsonOptions = {}) {
  const ids = rows.map((r) => r.id);
  const [creators, collections, counts, edits, dashboards, uploads, usage] = await Promise.all([
    userInfos(ctx.db, rows.map((r) => r.creator_id)),
    hydrateCollections(ctx, access, rows.map((r) => r.collection_id).filter((id): id is number => id !== null)),
    options.created ? Promise.resolve(new Map(rows.filter((r) => r.dashboard_id !== null).map((r) => [r.id, 1]))) : dashboardCounts(ctx, ids),
    lastEditInfo(ctx.db, 'Card', ids),
    dashboardsOf(ctx, rows.map((r) => r.dashboard_id).filter((id): id is number => id !== null)),
    uploadTables(ctx, rows.filter((r) => r.type === 'model' && r.table_id !== null).map((r) => r.table_id as number)),
    options.parameterUsage && rows.length === 1 ? parameterUsage(ctx, rows[0].id) : Promise.resolve(0),
  ]);
  const [adhoc, averages, lastStarts, persisted] = await Promise.all([
    canRunAdhocQueries(ctx, access.caller, rows),
    options.created ? Promise.resolve(new Map<number, number>()) : averageRunningTimes(ctx, ids),
    options.created ? Promise.resolve(new Map<number, string>()) : lastQueryStarts(ctx, ids),
    persistedCardIds(ctx.db, rows.filter((r) => r.type === 'model').map((r) => r.id)),
  ]);
  return rows.map((row, i) => {
    const canWrite = canWriteCard(access, row);
    const archived = bool(row.archived);
    const collection = row.collection_id === null ? null : collections.get(row.collection_id) ?? null;
    const collectionArchived = collection ? Boolean(collection.archived) : false;
    const edit = edits.get(row.id);
    return {
      ...cardColumnsJson(row),
      creator: creators.get(row.creator_id) ?? null,
      collection,
      can_write: canWrite,
      can_restore: archived && bool(row.archived_directly) && canWrite && !collectionArchived,
      can_delete: archived && canWrite,
      can_manage_db: access.isSuperuser,
      can_run_adhoc_query: adhoc[i],
      dashboard_count: counts.get(row.id) ?? 0,
      dashboard: row.dashboard_id === null ? null : dashboards.get(row.dashboard_id) ?? null,
      parameter_usage_count: usage,
      average_query_time: averages.get(row.id) ?? null,
      last_query_start: lastStarts.get(row.id) ?? null,
      moderation_reviews: [],
      based_on_upload: row.type === 'model' && row.table_id !== null && uploads.has(row.table_id) ? row.table_id : null,
      ...(row.type === 'model' ? { persisted: persisted.has(row.id) } : {}),
      ...(edit ? { 'last-edit-info': edit } : {}),
    };
  });
}

/**
 * A card as GET /api/card/:id returns it. `created`: the card was just made, so no parameter can take its values from
 * it yet (ids are never reused) and its `parameter_usage_count` is 0 without scanning every card's parameters.
 */
export async function cardJson(ctx: AppContext, access: CollectionAccess, row: CardRow, options: { created?: boolean } = {}) {
  return (await cardsJson(ctx, access, [row], { parameterUsage: !options.created, created: options.created }))[0];
}
