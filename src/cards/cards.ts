// Saved questions, models and metrics: create, read, update, archive, delete, list, copy and move (the /api/card
// CRUD). Every read and write goes through the collection checker; saving a query also needs data permission.

import { reconcileCollectionPosition, shiftCollectionPositions } from '../collections/positions.js';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, fieldError, forbidden, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, parseJson, toJson, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { METABASE_COMPATIBLE_VERSION } from '../version.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { findCollection } from '../collections/store.js';
import { pushRevision } from '../revisions/revisions.js';
import { recordView } from '../activity/views.js';
import { deleteCardRows } from './delete.js';
import { cardJson, cardsJson } from './json.js';
import { checkCanQuery } from './data-access.js';
import { cardReferences, checkedLegacyQuery, checkTypeRules, legacyQuery, queryInfo, usesClause, SAVED_QUESTIONS_DB_ID } from './query-info.js';
import { computeResultMetadata, mergeModelMetadata } from './result-metadata.js';
import { serializeCard } from './card-revisions.js';
import { cardsByIds, findCard, requireCard, resultMetadataOf, type CardRow } from './store.js';
import { RESULT_CHANGING_FIELDS } from './cache-invalidation.js';
import { embeddingChanges, checkEmbeddingChange } from '../embed/admin-keys.js';
import { fitName, NAME_MAX } from '../util/fit.js';

type Obj = Record<string, unknown>;

export const TRASH_MESSAGE = 'You cannot modify the Trash Collection.';


/** Reads a card the caller may see (403 otherwise). */
export async function readableCard(ctx: AppContext, access: CollectionAccess, id: number, db: Db = ctx.db): Promise<CardRow> {
  const row = await requireCard(ctx, id, db);
  access.checkRead(row.collection_id);
  return row;
}

export async function writableCard(ctx: AppContext, access: CollectionAccess, id: number, db: Db = ctx.db): Promise<CardRow> {
  const row = await requireCard(ctx, id, db);
  access.checkWrite(row.collection_id);
  return row;
}

export async function getCard(ctx: AppContext, caller: Caller, id: number, options: { ignoreView: boolean }) {
  const access = await collectionAccess(ctx, caller);
  const row = await readableCard(ctx, access, id);
  const json = await cardJson(ctx, access, row);
  if (!options.ignoreView) await recordView(ctx, caller, 'card', row.id, { cardType: row.type });
  return json;
}

/** Where a card will live: a collection the caller curates (never the Trash), or a dashboard's collection. */
async function placement(
  ctx: AppContext,
  access: CollectionAccess,
  collectionId: number | null,
  dashboardId: number | null,
  type: string,
): Promise<{ collectionId: number | null; dashboardId: number | null }> {
  if (dashboardId !== null) {
    if (type !== 'question') throw badRequest('Invalid dashboard-internal card');
    const dashboard = await ctx.db.selectFrom('report_dashboard').select(['id', 'collection_id', 'archived']).where('id', '=', dashboardId).executeTakeFirst();
    if (!dashboard) throw notFound();
    access.checkWrite(dashboard.collection_id);
    return { collectionId: dashboard.collection_id, dashboardId };
  }
  if (collectionId !== null) {
    if (collectionId === access.trashId) throw badRequest(TRASH_MESSAGE);
    const collection = await findCollection(ctx.db, collectionId);
    if (!collection) throw notFound();
    if (collection.namespace) throw badRequest('A Card can only go in Collections in the "default" or :analytics namespace.');
  }
  access.checkWrite(collectionId);
  return { collectionId, dashboardId: null };
}

export const CYCLE_MESSAGE = 'Cannot save card with cycles.';

/**
 * 400 when the query of card `cardId` would read the card itself — as its source, through a join, a `{{#N}}` tag or
 * a metric, directly or through other saved cards.
 */
async function checkNoCycle(ctx: AppContext, cardId: number, type: string, legacy: Obj): Promise<void> {
  type Ref = { id: number; metric: boolean };
  const refsOf = (query: Obj): Ref[] => {
    const refs = cardReferences(query);
    return [...refs.sources, ...refs.tags].map((id) => ({ id, metric: false })).concat(refs.metrics.map((id) => ({ id, metric: true })));
  };
  const followed = new Set<number>();
  let frontier = refsOf(legacy);
  while (frontier.length > 0) {
    const ids = [...new Set(frontier.map((r) => r.id))].filter((id) => !followed.has(id));
    const cards = await cardsByIds(ctx.db, ids.filter((id) => id !== cardId));
    const next: Ref[] = [];
    for (const id of ids) {
      const asCard = frontier.some((r) => r.id === id && !r.metric);
      // `["metric", N]` reads card N only when N is a metric card (else it names a legacy metric)
      if (!asCard && (id === cardId ? type : cards.get(id)?.type) !== 'metric') continue;
      if (id === cardId) throw badRequest(CYCLE_MESSAGE);
      followed.add(id);
      const card = cards.get(id);
      if (card) next.push(...refsOf(parseJson<Obj>(card.dataset_query, {})));
    }
    frontier = next;
  }
}

/**
 * The database, table and source card of a query (in its checked legacy form), checked: the database, table and
 * saved cards it reads exist (404), the saved cards are readable (403), and it doesn't read the card being saved
 * (`cardId`, 400).
 */
async function resolveQuery(ctx: AppContext, access: CollectionAccess, legacy: Obj, saving: { cardId: number | null; type: string }) {
  const info = queryInfo(legacy);
  let databaseId = info.databaseId;
  let tableId = info.tableId;
  const refs = cardReferences(legacy);
  const sources = [...new Set([...(info.sourceCardId ? [info.sourceCardId] : []), ...refs.sources, ...refs.tags])];
  const sourceCards = await cardsByIds(ctx.db, sources);
  for (const id of sources) {
    const source = sourceCards.get(id);
    if (!source) throw notFound(`Card ${id} does not exist.`);
    if (!access.canRead(source.collection_id)) throw forbidden();
  }
  if (saving.cardId !== null) await checkNoCycle(ctx, saving.cardId, saving.type, legacy);
  if (info.sourceCardId) {
    const source = sourceCards.get(info.sourceCardId)!;
    if (databaseId === null || databaseId === SAVED_QUESTIONS_DB_ID) databaseId = source.database_id;
    tableId = source.table_id;
  }
  if (databaseId === SAVED_QUESTIONS_DB_ID) databaseId = null;
  if (databaseId !== null) {
    const db = await ctx.db.selectFrom('metabase_database').select('id').where('id', '=', databaseId).executeTakeFirst();
    if (!db) throw notFound();
  }
  if (tableId !== null && !info.sourceCardId) {
    // the query's own source table: it must exist, in the query's database
    const table = await ctx.db.selectFrom('metabase_table').select(['id', 'db_id']).where('id', '=', tableId).executeTakeFirst();
    if (!table) throw notFound(`Table ${tableId} does not exist.`);
    if (databaseId !== null && table.db_id !== databaseId) throw badRequest(`Invalid dataset_query: table ${tableId} is not in database ${databaseId}.`);
  }
  return { queryType: info.queryType, databaseId, tableId, sourceCardId: info.sourceCardId };
}

export interface CardInput {
  name?: string | null;
  type?: string | null;
  display?: string | null;
  description?: string | null;
  dataset_query?: Obj | null;
  visualization_settings?: Obj | null;
  parameters?: unknown[] | null;
  parameter_mappings?: unknown[] | null;
  result_metadata?: unknown[] | null;
  collection_id?: number | null;
  collection_position?: number | null;
  collection_preview?: boolean | null;
  dashboard_id?: number | null;
  dashboard_tab_id?: number | null;
  cache_ttl?: number | null;
  archived?: boolean | null;
  enable_embedding?: boolean | null;
  embedding_params?: Obj | null;
}

/** Adds a dashboard question to its dashboard, under the existing cards. */
async function addToDashboard(ctx: AppContext, db: Db, cardId: number, dashboardId: number, tabId: number | null) {
  const bottom = await db
    .selectFrom('report_dashboardcard')
    .select((eb) => eb.fn.max(eb(eb.ref('row'), '+', eb.ref('size_y'))).as('bottom'))
    .where('dashboard_id', '=', dashboardId)
    .executeTakeFirst();
  const now = nowIso();
  await db
    .insertInto('report_dashboardcard')
    .values({
      entity_id: newEntityId(),
      dashboard_id: dashboardId,
      dashboard_tab_id: tabId,
      card_id: cardId,
      action_id: null,
      row: Number(bottom?.bottom ?? 0),
      col: 0,
      size_x: 12,
      size_y: 6,
      parameter_mappings: '[]',
      visualization_settings: '{}',
      inline_parameters: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function createCard(ctx: AppContext, caller: Caller, input: CardInput & { name: string; display: string; dataset_query: Obj; visualization_settings: Obj }) {
  const access = await collectionAccess(ctx, caller);
  const type = input.type ?? 'question';
  const legacy = checkedLegacyQuery(input.dataset_query);
  checkTypeRules(type, legacy);
  const where = await placement(ctx, access, input.collection_id ?? null, input.dashboard_id ?? null, type);
  if (where.dashboardId !== null && input.collection_id !== undefined && (input.collection_id ?? null) !== where.collectionId) {
    throw badRequest(`Mismatch detected between Dashboard's \`collection_id\` (${where.collectionId}) and \`collection_id\` (${input.collection_id})`);
  }
  const resolved = await resolveQuery(ctx, access, legacy, { cardId: null, type });
  await checkCanQuery(ctx, caller, input.dataset_query);
  const resultMetadata = input.result_metadata ?? (await computeResultMetadata(ctx, caller, input.dataset_query));
  const now = nowIso();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const cardId = await insertReturningId(trx, ctx.dialect, 'report_card', {
      entity_id: newEntityId(),
      name: input.name,
      description: input.description ?? null,
      display: type === 'model' ? 'table' : input.display,
      type,
      query_type: resolved.queryType,
      dataset_query: JSON.stringify(input.dataset_query),
      visualization_settings: JSON.stringify(input.visualization_settings),
      parameters: JSON.stringify(input.parameters ?? []),
      parameter_mappings: JSON.stringify(input.parameter_mappings ?? []),
      result_metadata: toJson(resultMetadata),
      database_id: resolved.databaseId,
      table_id: resolved.tableId,
      source_card_id: resolved.sourceCardId,
      collection_id: where.collectionId,
      collection_position: input.collection_position ?? null,
      collection_preview: true,
      dashboard_id: where.dashboardId,
      creator_id: caller.user.id,
      made_public_by_id: null,
      public_uuid: null,
      enable_embedding: false,
      embedding_params: null,
      initially_published_at: null,
      cache_ttl: input.cache_ttl ?? null,
      cache_invalidated_at: null,
      archived: false,
      archived_directly: false,
      card_schema: 20,
      metabase_version: METABASE_COMPATIBLE_VERSION.tag,
      view_count: 0,
      last_used_at: null,
      created_at: now,
      updated_at: now,
    });
    if (input.collection_position) await shiftCollectionPositions(trx, 'report_card', where.collectionId, input.collection_position, cardId);
    const row = await requireCard(ctx, cardId, trx);
    await pushRevision(ctx, trx, { model: 'Card', modelId: cardId, userId: caller.user.id, object: serializeCard(row), isCreation: true });
    if (where.dashboardId !== null) await addToDashboard(ctx, trx, cardId, where.dashboardId, input.dashboard_tab_id ?? null);
    return row;
  });
  // The row as read inside the transaction is the committed one (adding it to a dashboard doesn't change it).
  return cardJson(ctx, access, row, { created: true });
}

/**
 * Pinning at a position moves the other pinned cards of the collection down one place (those at the last position a
 * smallint holds stay there).
 */
export async function updateCard(ctx: AppContext, caller: Caller, id: number, input: CardInput, present: Set<string>, options: { deleteOldDashcards?: boolean } = {}) {
  const access = await collectionAccess(ctx, caller);
  const before = await writableCard(ctx, access, id);
  const has = (key: keyof CardInput) => present.has(key);
  const changes: Record<string, unknown> = {};

  const type = has('type') && input.type ? input.type : before.type;
  const datasetQuery = has('dataset_query') && input.dataset_query ? input.dataset_query : parseJson<Obj>(before.dataset_query, {});
  const queryChanged = has('dataset_query') && input.dataset_query && JSON.stringify(input.dataset_query) !== before.dataset_query;
  const legacy = queryChanged ? checkedLegacyQuery(datasetQuery) : legacyQuery(datasetQuery);
  if (type !== before.type || queryChanged) checkTypeRules(type, legacy);
  if (type !== before.type) {
    changes.type = type;
    if (type === 'model') changes.display = 'table';
  }
  if (queryChanged) {
    const resolved = await resolveQuery(ctx, access, legacy, { cardId: id, type });
    await checkCanQuery(ctx, caller, datasetQuery);
    Object.assign(changes, {
      dataset_query: JSON.stringify(datasetQuery),
      query_type: resolved.queryType,
      database_id: resolved.databaseId,
      table_id: resolved.tableId,
      source_card_id: resolved.sourceCardId,
    });
    if (!(has('result_metadata') && input.result_metadata)) {
      const fresh = await computeResultMetadata(ctx, caller, datasetQuery);
      // a model's metadata edits (names, descriptions, semantic types…) survive a change of its query
      changes.result_metadata = toJson(type === 'model' ? mergeModelMetadata(fresh, resultMetadataOf(before)) : fresh);
    }
  }
  if (has('result_metadata') && input.result_metadata) changes.result_metadata = JSON.stringify(input.result_metadata);
  if (has('name') && input.name) changes.name = input.name;
  if (has('description')) changes.description = input.description ?? null;
  if (has('display') && input.display && changes.display === undefined) changes.display = type === 'model' ? 'table' : input.display;
  if (has('visualization_settings') && input.visualization_settings) changes.visualization_settings = JSON.stringify(input.visualization_settings);
  if (has('parameters')) changes.parameters = JSON.stringify(input.parameters ?? []);
  if (has('parameter_mappings')) changes.parameter_mappings = JSON.stringify(input.parameter_mappings ?? []);
  if (has('collection_preview') && input.collection_preview !== null && input.collection_preview !== undefined) {
    changes.collection_preview = input.collection_preview;
  }
  if (has('cache_ttl')) changes.cache_ttl = input.cache_ttl ?? null;
  if (has('collection_position')) changes.collection_position = input.collection_position ?? null;
  // what the card returns changed: results cached before now are stale
  if (RESULT_CHANGING_FIELDS.some((field) => field in changes)) changes.cache_invalidated_at = nowIso();

  if (embeddingChanges(before, input, has)) {
    await checkEmbeddingChange(ctx, caller.isSuperuser);
    if (has('enable_embedding') && input.enable_embedding !== null && input.enable_embedding !== undefined) {
      changes.enable_embedding = input.enable_embedding;
      if (input.enable_embedding && !before.initially_published_at) changes.initially_published_at = nowIso();
    }
    if (has('embedding_params')) changes.embedding_params = toJson(input.embedding_params);
  }

  // moving: into another collection, or into/out of a dashboard
  const newDashboardId = has('dashboard_id') ? input.dashboard_id ?? null : before.dashboard_id;
  if (newDashboardId !== before.dashboard_id) {
    const where = await placement(ctx, access, has('collection_id') ? input.collection_id ?? null : before.collection_id, newDashboardId, type);
    changes.dashboard_id = where.dashboardId;
    changes.collection_id = where.collectionId;
  } else if (has('collection_id') && (input.collection_id ?? null) !== before.collection_id) {
    if (before.dashboard_id !== null) throw badRequest('Invalid Request.');
    const where = await placement(ctx, access, input.collection_id ?? null, null, type);
    changes.collection_id = where.collectionId;
  }

  if (has('archived') && input.archived !== null && input.archived !== undefined && input.archived !== bool(before.archived)) {
    changes.archived = input.archived;
    changes.archived_directly = input.archived;
    if (!input.archived) {
      const home = (changes.collection_id as number | null | undefined) ?? before.collection_id;
      if (home !== null) {
        const collection = await findCollection(ctx.db, home);
        if (collection && bool(collection.archived)) throw badRequest();
      }
    }
  }

  if (Object.keys(changes).length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('report_card').set({ ...changes, updated_at: nowIso() }).where('id', '=', id).execute();
      if ('collection_position' in changes || 'collection_id' in changes) {
        const home = 'collection_id' in changes ? (changes.collection_id as number | null) : before.collection_id;
        const position = 'collection_position' in changes ? (changes.collection_position as number | null) : before.collection_position;
        await reconcileCollectionPosition(trx, { table: 'report_card', id }, { collectionId: before.collection_id, position: before.collection_position }, { collectionId: home, position });
      }
      if (changes.dashboard_id !== undefined && changes.dashboard_id !== null) {
        // a dashboard question lives on its own dashboard only (the other dashboards lose it when asked to)
        if (options.deleteOldDashcards) {
          await trx.deleteFrom('report_dashboardcard').where('card_id', '=', id).where('dashboard_id', '!=', changes.dashboard_id as number).execute();
        }
        const already = await trx
          .selectFrom('report_dashboardcard')
          .select('id')
          .where('card_id', '=', id)
          .where('dashboard_id', '=', changes.dashboard_id as number)
          .executeTakeFirst();
        if (!already) await addToDashboard(ctx, trx, id, changes.dashboard_id as number, input.dashboard_tab_id ?? null);
      }
      const row = await requireCard(ctx, id, trx);
      await pushRevision(ctx, trx, { model: 'Card', modelId: id, userId: caller.user.id, object: serializeCard(row) });
    });
  }
  return cardJson(ctx, await collectionAccess(ctx, caller), await requireCard(ctx, id));
}

export async function deleteCard(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const access = await collectionAccess(ctx, caller);
  await writableCard(ctx, access, id);
  await ctx.db.transaction().execute((trx) => deleteCardRows(trx, [id]));
}

export type CardFilter = 'archived' | 'table' | 'using_model' | 'bookmarked' | 'using_segment' | 'all' | 'mine' | 'using_metric' | 'database';

export async function listCards(ctx: AppContext, caller: Caller, f: CardFilter, modelId: number | null) {
  if (['database', 'table', 'using_model', 'using_segment'].includes(f) && modelId === null) {
    throw fieldError('model_id', `model_id is a required parameter when filter mode is '${f}'`);
  }
  const access = await collectionAccess(ctx, caller);
  let query = ctx.db
    .selectFrom('report_card')
    .selectAll()
    .where('archived', '=', f === 'archived')
    .where((eb) => access.filter(eb, 'report_card.collection_id'));
  if (f === 'mine') query = query.where('creator_id', '=', caller.user.id);
  if (f === 'database') query = query.where('database_id', '=', modelId!);
  if (f === 'table') query = query.where('table_id', '=', modelId!);
  if (f === 'bookmarked') {
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('bookmark').select('model_id').where('user_id', '=', caller.user.id).where('model', '=', 'card'),
    );
  }
  let rows = await query.execute();
  if (f === 'using_model') {
    rows = rows.filter((r) => {
      const refs = cardReferences(parseJson<Obj>(r.dataset_query, {}));
      return r.source_card_id === modelId || refs.sources.includes(modelId!) || refs.tags.includes(modelId!);
    });
  }
  if (f === 'using_segment') rows = rows.filter((r) => usesClause(parseJson<Obj>(r.dataset_query, {}), 'segment', modelId));
  if (f === 'using_metric') {
    rows = rows.filter((r) => {
      const q = parseJson<Obj>(r.dataset_query, {});
      return usesClause(q, 'metric', modelId) || (modelId !== null && r.source_card_id === modelId && r.id !== modelId);
    });
  }
  rows.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  return cardsJson(ctx, access, rows);
}

export async function copyCard(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  const original = await readableCard(ctx, access, id);
  return createCard(ctx, caller, {
    name: fitName(original.name, NAME_MAX, { prefix: 'Copy of ' }), // the name column holds 254 characters
    type: original.type,
    display: original.display,
    description: original.description,
    dataset_query: parseJson<Obj>(original.dataset_query, {}),
    visualization_settings: parseJson<Obj>(original.visualization_settings, {}),
    parameters: parseJson<unknown[]>(original.parameters, []),
    parameter_mappings: parseJson<unknown[]>(original.parameter_mappings, []),
    result_metadata: parseJson<unknown[] | null>(original.result_metadata, null),
    collection_id: original.collection_id,
    dashboard_id: original.dashboard_id,
    cache_ttl: original.cache_ttl,
  });
}

/** POST /api/card/collections: moves many cards at once (null: to the root). */
/**
 * Moves cards into one collection, or into one dashboard (as its dashboard questions): every card is checked first
 * (it exists, the caller may write where it is and where it goes, it may live there), then all move in one
 * transaction — all or nothing.
 */
export async function moveCards(ctx: AppContext, caller: Caller, cardIds: number[], collectionId: number | null, dashboardId: number | null = null) {
  const access = await collectionAccess(ctx, caller);
  const cards = await cardsByIds(ctx.db, cardIds);
  for (const id of cardIds) {
    const card = cards.get(id);
    if (!card) throw notFound();
    access.checkWrite(card.collection_id);
  }
  const targets = new Map<string, { collectionId: number | null; dashboardId: number | null }>();
  for (const type of new Set([...cards.values()].map((c) => c.type as string))) {
    targets.set(type, await placement(ctx, access, collectionId, dashboardId, type));
  }
  if (!targets.size) await placement(ctx, access, collectionId, dashboardId, 'question');
  await ctx.db.transaction().execute(async (trx) => {
    for (const id of new Set(cardIds)) {
      const card = cards.get(id)!;
      await relocateCard(ctx, trx, card, targets.get(card.type as string)!, caller.user.id);
    }
  });
  return { status: 'ok' };
}

/**
 * Inside the caller's transaction, puts a card (already checked) in its new place: a collection, or a dashboard as
 * its dashboard question (on that dashboard, added under its cards unless it is there already); its old dashboard
 * loses it; a revision records the move.
 */
export async function relocateCard(ctx: AppContext, trx: Db, card: CardRow, where: { collectionId: number | null; dashboardId: number | null }, userId: number): Promise<void> {
  if (card.collection_id === where.collectionId && card.dashboard_id === where.dashboardId) return;
  await trx
    .updateTable('report_card')
    .set({ collection_id: where.collectionId, dashboard_id: where.dashboardId, collection_position: null, updated_at: nowIso() })
    .where('id', '=', card.id)
    .execute();
  // moved in bulk, it is unpinned: the collection it left closes the gap
  const before = { collectionId: card.collection_id, position: card.collection_position };
  await reconcileCollectionPosition(trx, { table: 'report_card', id: card.id }, before, { collectionId: where.collectionId, position: null });
  if (card.dashboard_id !== null) {
    await trx.deleteFrom('report_dashboardcard').where('card_id', '=', card.id).where('dashboard_id', '=', card.dashboard_id).execute();
  }
  if (where.dashboardId !== null) {
    const already = await trx.selectFrom('report_dashboardcard').select('id').where('card_id', '=', card.id).where('dashboard_id', '=', where.dashboardId).executeTakeFirst();
    if (!already) await addToDashboard(ctx, trx, card.id, where.dashboardId, null);
  }
  const row = await requireCard(ctx, card.id, trx);
  await pushRevision(ctx, trx, { model: 'Card', modelId: card.id, userId, object: serializeCard(row) });
}

/** GET /api/card/:id/dashboards: the dashboards (the caller can see) that show the card. */
export async function dashboardsOfCard(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  await readableCard(ctx, access, id);
  const rows = await ctx.db
    .selectFrom('report_dashboard')
    .select(['report_dashboard.id', 'report_dashboard.name', 'report_dashboard.collection_id'])
    .where('report_dashboard.id', 'in', (eb) => eb.selectFrom('report_dashboardcard').select('dashboard_id').where('card_id', '=', id))
    .where('report_dashboard.archived', '=', false)
    .orderBy('report_dashboard.name')
    .execute();
  return rows.filter((r) => access.canRead(r.collection_id)).map((r) => ({ id: r.id, name: r.name }));
}

export { findCard };
