// GET /api/search (reference §15): one ranked, permission-aware list over cards, models, metrics, dashboards,
// collections, segments, tables, databases, actions (and snippets when asked for), with Metabase's filters.
//
// Flow: load the candidates of each requested kind (only what the caller may see), keep those matching the text
// and the filters, score each one (text match, pinned, bookmarked, recency, dashboard use, kind), sort, page.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { sql, type Expression, type SqlBool } from 'kysely';
import { bool, ilike, parseJson } from '../appdb/portable.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { rootCollectionName } from '../collections/json.js';
import { locationIds } from '../collections/locations.js';
import { lastEditInfo } from '../revisions/revisions.js';
import { commonName } from '../users/user-json.js';
import { bookmarkedKeys } from '../bookmarks/bookmarks.js';
import { parseDateFilter, inInterval } from './date-filter.js';
import { dataAccess } from '../permissions/data-access.js';
import { snippetAccess } from '../permissions/snippets.js';
import { legacyQuery } from '../cards/query-info.js';
import { segmentSearchRows } from '../segments/segments.js';
import { indexedEntitySearchRows } from '../model-index/search.js';

/** Result kinds in Metabase's order of preference when scores tie. */
export const SEARCH_MODELS = ['dashboard', 'metric', 'segment', 'indexed-entity', 'card', 'dataset', 'collection', 'table', 'action', 'database', 'snippet'] as const;
const DEFAULT_MODELS = ['dashboard', 'metric', 'segment', 'indexed-entity', 'card', 'dataset', 'collection', 'table', 'database', 'action'];
/** The most indexed records one search considers (a model indexes up to 25,000). */
const MAX_INDEXED_ENTITIES = 500;
/** Kinds that live outside collections (a `collection` filter leaves them out; their `collection` is all nulls). */
const OUTSIDE_COLLECTIONS = ['table', 'database', 'segment'];

export interface SearchOptions {
  q: string | null;
  models: string[];
  archived: boolean;
  tableDbId: number | null;
  personalFilter: 'only' | 'exclude' | 'only-mine' | 'exclude-others' | 'all' | null;
  createdAt: string | null;
  createdBy: number[];
  lastEditedAt: string | null;
  lastEditedBy: number[];
  verified: boolean | null;
  searchNativeQuery: boolean;
  modelAncestors: boolean;
  ids: number[];
  /** Only things in this collection or below it. */
  collection: number | null;
  includeDashboardQuestions: boolean;
  limit: number | null;
  offset: number | null;
}

interface Candidate {
  model: string;
  id: number;
  name: string;
  description: string | null;
  /** Extra texts that may match (description, native SQL…). */
  texts: string[];
  collectionId: number | null;
  collectionPosition: number | null;
  creatorId: number | null;
  createdAt: string | null;
  updatedAt: string | null;
  lastEditedAt: string | null;
  lastEditorId: number | null;
  databaseId: number | null;
  dashboardcardCount: number;
  json: Record<string, unknown>;
}

/** What a kind says of its candidates; the rest defaults (not pinned, no creator, no use on dashboards, no edits yet). */
type CandidateFields = Pick<Candidate, 'model' | 'id' | 'name' | 'description' | 'createdAt' | 'updatedAt' | 'json'> &
  Partial<Pick<Candidate, 'texts' | 'collectionId' | 'collectionPosition' | 'creatorId' | 'databaseId' | 'dashboardcardCount'>>;

function candidate(fields: CandidateFields): Candidate {
  return {
    texts: [fields.description ?? ''],
    collectionId: null,
    collectionPosition: null,
    creatorId: null,
    databaseId: null,
    dashboardcardCount: 0,
    lastEditedAt: null,
    lastEditorId: null,
    ...fields,
  };
}

function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** How well `name` (and other texts) match the query: 0 when they don't. */
function textScore(query: string, candidate: Candidate): { score: number; matched: boolean; context: string | null } {
  const q = query.trim().toLowerCase();
  if (!q) return { score: 0, matched: true, context: null };
  const name = candidate.name.toLowerCase();
  const queryTokens = tokens(q);
  const nameTokens = tokens(name);
  let score = 0;
  if (name === q) score = 1;
  else if (name.startsWith(q)) score = 0.9;
  else if (name.includes(q)) score = 0.75;
  else if (queryTokens.length > 0 && queryTokens.every((t) => nameTokens.some((n) => n.startsWith(t)))) {
    score = 0.5 + (0.2 * queryTokens.length) / Math.max(queryTokens.length, nameTokens.length);
  } else if (queryTokens.some((t) => nameTokens.some((n) => n.startsWith(t)))) {
    const hits = queryTokens.filter((t) => nameTokens.some((n) => n.startsWith(t))).length;
    score = (0.4 * hits) / queryTokens.length;
  }
  if (score > 0) return { score, matched: true, context: null };
  for (const text of candidate.texts) {
    if (text && text.toLowerCase().includes(q)) return { score: 0.2, matched: true, context: text };
  }
  return { score: 0, matched: false, context: null };
}

function recencyScore(iso: string | null): number {
  if (!iso) return 0;
  const days = (Date.now() - new Date(iso).getTime()) / 86_400_000;
  const horizon = 180;
  return days <= 0 ? 1 : days >= horizon ? 0 : (horizon - days) / horizon;
}

/**
 * A superset of what `textScore` accepts, for the database to narrow candidates down first: a query token in the
 * name, or the whole query in one of the other text columns.
 */
function textPrefilter(q: string | null, nameColumn: string, otherColumns: string[]): Expression<SqlBool> {
  const text = (q ?? '').trim();
  if (!text) return sql<SqlBool>`1 = 1`;
  const parts = [...new Set(tokens(text))].map((t) => ilike(nameColumn, t));
  for (const column of otherColumns) parts.push(ilike(column, text));
  if (parts.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

async function loadCandidates(ctx: AppContext, access: CollectionAccess, models: Set<string>, options: SearchOptions): Promise<Candidate[]> {
  const out: Candidate[] = [];
  // Archived things are found by those who may curate where they live (who could restore or delete them), as in
  // Metabase and the Trash; the rest by readers.
  const level = options.archived ? 'write' : 'read';
  const cardTypes = [...models].map((m) => (m === 'card' ? 'question' : m === 'dataset' ? 'model' : m === 'metric' ? 'metric' : null)).filter(Boolean) as string[];
  if (cardTypes.length > 0) {
    let q = ctx.db
      .selectFrom('report_card')
      .selectAll()
      .where('type', 'in', cardTypes)
      .where('archived', '=', options.archived)
      .where((eb) => access.filter(eb, 'report_card.collection_id', level))
      .where(textPrefilter(options.q, 'report_card.name', ['report_card.description', ...(options.searchNativeQuery ? ['report_card.dataset_query'] : [])]));
    if (!options.includeDashboardQuestions) q = q.where('dashboard_id', 'is', null);
    if (options.tableDbId !== null) q = q.where('database_id', '=', options.tableDbId);
    const rows = await q.execute();
    const counts = rows.length
      ? await ctx.db
          .selectFrom('report_dashboardcard')
          .select(['card_id', (eb) => eb.fn.count<number>('id').as('n')])
          .where('card_id', 'in', rows.map((r) => r.id))
          .groupBy('card_id')
          .execute()
      : [];
    const countOf = new Map(counts.map((c) => [c.card_id, Number(c.n)]));
    const dashboards = rows.some((r) => r.dashboard_id !== null)
      ? await ctx.db.selectFrom('report_dashboard').select(['id', 'name']).where('id', 'in', rows.map((r) => r.dashboard_id).filter((d): d is number => d !== null)).execute()
      : [];
    const dashboardName = new Map(dashboards.map((d) => [d.id, d.name]));
    for (const row of rows) {
      const query = parseJson<Record<string, any>>(row.dataset_query, {});
      // the SQL, wherever the query form keeps it (legacy `native.query`, an MBQL 5 native stage)
      const native = row.query_type === 'native' ? String((legacyQuery(query) as { native?: { query?: unknown } }).native?.query ?? '') : '';
      const model = row.type === 'model' ? 'dataset' : row.type === 'metric' ? 'metric' : 'card';
      out.push(candidate({
        model,
        id: row.id,
        name: row.name,
        description: row.description,
        texts: [row.description ?? '', ...(options.searchNativeQuery ? [native] : [])],
        collectionId: row.collection_id,
        collectionPosition: row.collection_position,
        creatorId: row.creator_id,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        databaseId: row.database_id,
        dashboardcardCount: countOf.get(row.id) ?? 0,
        json: {
          display: row.display,
          table_id: row.table_id,
          database_id: row.database_id,
          dataset_query: options.searchNativeQuery && row.query_type === 'native' ? query : null,
          query_type: row.query_type,
          dashboard_id: row.dashboard_id,
          dashboard: row.dashboard_id === null ? null : { id: row.dashboard_id, name: dashboardName.get(row.dashboard_id) ?? null, moderation_status: null },
          collection_position: row.collection_position,
          archived: bool(row.archived),
        },
      }));
    }
  }
  if (models.has('dashboard')) {
    const rows = await ctx.db
      .selectFrom('report_dashboard')
      .selectAll()
      .where('archived', '=', options.archived)
      .where((eb) => access.filter(eb, 'report_dashboard.collection_id', level))
      .where(textPrefilter(options.q, 'report_dashboard.name', ['report_dashboard.description']))
      .execute();
    for (const row of rows) {
      out.push(candidate({
        model: 'dashboard',
        id: row.id,
        name: row.name,
        description: row.description,
        collectionId: row.collection_id,
        collectionPosition: row.collection_position,
        creatorId: row.creator_id,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        json: { collection_position: row.collection_position, archived: bool(row.archived) },
      }));
    }
  }
  if (models.has('collection')) {
    const rows = (
      await ctx.db
        .selectFrom('collection')
        .selectAll()
        .where('namespace', 'is', null)
        .where('archived', '=', options.archived)
        .where(textPrefilter(options.q, 'collection.name', ['collection.description']))
        .execute()
    ).filter(
      (r) => r.type !== 'trash' && (options.archived ? access.canWrite(r.id) : access.canRead(r.id)),
    );
    for (const row of rows) {
      const ids = locationIds(row.location);
      const parent = ids.length ? ids[ids.length - 1] : null;
      out.push(candidate({
        model: 'collection',
        id: row.id,
        name: row.name,
        description: row.description,
        collectionId: parent,
        createdAt: row.created_at,
        updatedAt: row.created_at,
        json: { authority_level: row.authority_level, location: row.location, type: row.type, archived: bool(row.archived), personal_owner_id: row.personal_owner_id },
      }));
    }
  }
  if (models.has('table') && !options.archived) {
    let q = ctx.db
      .selectFrom('metabase_table')
      .innerJoin('metabase_database', 'metabase_database.id', 'metabase_table.db_id')
      .select([
        'metabase_table.id',
        'metabase_table.name',
        'metabase_table.display_name',
        'metabase_table.description',
        'metabase_table.schema',
        'metabase_table.db_id',
        'metabase_table.initial_sync_status',
        'metabase_table.created_at',
        'metabase_table.updated_at',
        'metabase_table.view_count',
      ])
      .where('metabase_table.active', '=', true)
      .where('metabase_table.visibility_type', 'is', null)
      .where('metabase_database.is_audit', '=', false);
    if (options.tableDbId !== null) q = q.where('metabase_table.db_id', '=', options.tableDbId);
    const data = await dataAccess(ctx, access.caller);
    for (const row of await q.execute()) {
      if (!data.canQueryTable({ id: row.id, db_id: row.db_id, schema: row.schema })) continue;
      out.push(candidate({
        model: 'table',
        id: row.id,
        name: row.display_name,
        description: row.description,
        texts: [row.name, row.description ?? ''],
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        databaseId: row.db_id,
        json: {
          table_id: row.id,
          table_name: row.name,
          table_schema: row.schema,
          table_description: row.description,
          database_id: row.db_id,
          initial_sync_status: row.initial_sync_status,
        },
      }));
    }
  }
  if (models.has('segment')) {
    // Segments are found by those who may query their tables; archived ones by admins, who may restore them.
    const rows = options.archived && !access.caller.isSuperuser ? [] : await segmentSearchRows(ctx, access.caller, { archived: options.archived, tableDbId: options.tableDbId });
    for (const row of rows) {
      out.push(candidate({
        model: 'segment',
        id: row.id,
        name: row.name,
        description: row.description,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        databaseId: row.db_id,
        json: {
          table_id: row.table_id,
          table_name: row.table_name,
          table_schema: row.table_schema,
          table_description: row.table_description,
          database_id: row.db_id,
          archived: bool(row.archived),
        },
      }));
    }
  }
  if (models.has('database') && !options.archived) {
    const rows = await ctx.db
      .selectFrom('metabase_database')
      .select(['id', 'name', 'description', 'engine', 'initial_sync_status', 'created_at', 'updated_at'])
      .where('is_audit', '=', false)
      .execute();
    const data = await dataAccess(ctx, access.caller);
    for (const row of rows) {
      if (!data.canSeeDatabase(row.id)) continue;
      out.push(candidate({
        model: 'database',
        id: row.id,
        name: row.name,
        description: row.description,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        databaseId: row.id,
        json: { database_id: row.id, engine: row.engine, initial_sync_status: row.initial_sync_status },
      }));
    }
  }
  if (models.has('action')) {
    // An action lives with its model: it is found where the model may be read, in the model's collection.
    const rows = await ctx.db
      .selectFrom('action')
      .innerJoin('report_card', 'report_card.id', 'action.model_id')
      .selectAll('action')
      .select(['report_card.name as model_name', 'report_card.collection_id as model_collection_id', 'report_card.database_id as model_database_id'])
      .where('action.archived', '=', options.archived)
      .where('report_card.archived', '=', false)
      .where((eb) => access.filter(eb, 'report_card.collection_id', level))
      .where(textPrefilter(options.q, 'action.name', ['action.description']))
      .execute();
    for (const row of rows) {
      out.push(candidate({
        model: 'action',
        id: row.id,
        name: row.name,
        description: row.description,
        collectionId: row.model_collection_id,
        creatorId: row.creator_id,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        databaseId: row.type === 'query' ? row.database_id : row.model_database_id,
        json: { model_id: row.model_id, model_name: row.model_name, action_type: row.type, database_id: row.type === 'query' ? row.database_id : row.model_database_id, archived: bool(row.archived) },
      }));
    }
  }
  if (models.has('indexed-entity') && !options.archived) {
    // the records of indexed models (src/model-index), found by their indexed text, where the model may be read
    for (const row of await indexedEntitySearchRows(ctx, access, { q: options.q, tableDbId: options.tableDbId, limit: MAX_INDEXED_ENTITIES })) {
      out.push(candidate({
        model: 'indexed-entity',
        id: row.model_pk,
        name: row.name,
        description: null,
        texts: [],
        collectionId: row.collection_id,
        databaseId: row.database_id,
        createdAt: null,
        updatedAt: null,
        json: { model_id: row.model_id, model_name: row.model_name, model_index_id: row.model_index_id, pk_ref: row.pk_ref },
      }));
    }
  }
  if (models.has('snippet')) {
    const snippets = await snippetAccess(ctx, access.caller, access);
    const rows = snippets.nativeWriter
      ? (await ctx.db.selectFrom('native_query_snippet').selectAll().where('archived', '=', options.archived).execute()).filter((r) =>
          options.archived ? snippets.canWrite(r.collection_id) : snippets.canRead(r.collection_id),
        )
      : [];
    for (const row of rows) {
      out.push(candidate({
        model: 'snippet',
        id: row.id,
        name: row.name,
        description: row.description,
        texts: [row.description ?? '', ...(options.searchNativeQuery ? [row.content] : [])],
        collectionId: row.collection_id,
        creatorId: row.creator_id,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        json: { archived: bool(row.archived) },
      }));
    }
  }
  return out;
}

export async function search(ctx: AppContext, caller: Caller, options: SearchOptions) {
  const access = await collectionAccess(ctx, caller);
  const requested = options.models.filter((m) => m !== 'no_models');
  const models = new Set(requested.length ? requested : DEFAULT_MODELS);
  const candidates = await loadCandidates(ctx, access, models, options);

  // last edits and creators of cards and dashboards
  const [cardEdits, dashboardEdits, bookmarks] = await Promise.all([
    lastEditInfo(ctx.db, 'Card', candidates.filter((c) => ['card', 'dataset', 'metric'].includes(c.model)).map((c) => c.id)),
    lastEditInfo(ctx.db, 'Dashboard', candidates.filter((c) => c.model === 'dashboard').map((c) => c.id)),
    bookmarkedKeys(ctx, caller.user.id),
  ]);
  for (const c of candidates) {
    const edit = c.model === 'dashboard' ? dashboardEdits.get(c.id) : ['card', 'dataset', 'metric'].includes(c.model) ? cardEdits.get(c.id) : undefined;
    if (edit) {
      c.lastEditedAt = edit.timestamp;
      c.lastEditorId = edit.id;
    }
  }

  // collections of results, and which are personal (for the personal-collection filter)
  const collections = await ctx.db.selectFrom('collection').select(['id', 'name', 'authority_level', 'type', 'location', 'personal_owner_id']).execute();
  const collectionById = new Map(collections.map((c) => [c.id, c]));
  const ownerOfTree = (collectionId: number | null): number | null => {
    if (collectionId === null) return null;
    const row = collectionById.get(collectionId);
    if (!row) return null;
    if (row.personal_owner_id !== null) return row.personal_owner_id;
    const top = locationIds(row.location)[0];
    return top !== undefined ? collectionById.get(top)?.personal_owner_id ?? null : null;
  };

  const createdAt = options.createdAt ? parseDateFilter(options.createdAt) : null;
  const lastEditedAt = options.lastEditedAt ? parseDateFilter(options.lastEditedAt) : null;
  const matches: Array<{ c: Candidate; text: ReturnType<typeof textScore> }> = [];
  for (const c of candidates) {
    const text = textScore(options.q ?? '', c);
    if (!text.matched) continue;
    if (options.ids.length && !options.ids.includes(c.id)) continue;
    if (options.createdBy.length && (c.creatorId === null || !options.createdBy.includes(c.creatorId))) continue;
    if (options.lastEditedBy.length && (c.lastEditorId === null || !options.lastEditedBy.includes(c.lastEditorId))) continue;
    if (createdAt && !inInterval(c.createdAt, createdAt)) continue;
    if (lastEditedAt && !inInterval(c.lastEditedAt, lastEditedAt)) continue;
    if (options.verified) continue; // verification is an Enterprise feature: nothing is verified
    if (options.collection !== null) {
      const home = c.model === 'collection' ? c.id : c.collectionId;
      const row = home === null ? undefined : collectionById.get(home);
      const inside = row !== undefined && (row.id === options.collection || locationIds(row.location).includes(options.collection));
      if (!inside || (c.model === 'collection' && c.id === options.collection)) continue;
      if (OUTSIDE_COLLECTIONS.includes(c.model)) continue;
    }
    if (options.personalFilter && options.personalFilter !== 'all') {
      const owner = c.model === 'collection' ? ownerOfTree(c.id) : ownerOfTree(c.collectionId);
      const personal = owner !== null;
      const mine = owner === caller.user.id;
      if (options.personalFilter === 'only' && !personal) continue;
      if (options.personalFilter === 'exclude' && personal) continue;
      if (options.personalFilter === 'only-mine' && !mine) continue;
      if (options.personalFilter === 'exclude-others' && personal && !mine) continue;
    }
    matches.push({ c, text });
  }

  const users = new Map(
    (
      await (matches.length
        ? ctx.db
            .selectFrom('core_user')
            .select(['id', 'first_name', 'last_name', 'email'])
            .where('id', 'in', [...new Set(matches.flatMap(({ c }) => [c.creatorId, c.lastEditorId]).filter((id): id is number => id !== null)), 0])
            .execute()
        : Promise.resolve([]))
    ).map((u) => [u.id, commonName(u)]),
  );

  const maxCount = Math.max(1, ...matches.map(({ c }) => c.dashboardcardCount));
  const scored = matches.map(({ c, text }) => {
    const bookmarked = bookmarks.has(`${['card', 'dataset', 'metric'].includes(c.model) ? 'card' : c.model}:${c.id}`);
    const modelRank = SEARCH_MODELS.indexOf(c.model as (typeof SEARCH_MODELS)[number]);
    const scores = [
      { name: 'text-match', weight: 10, score: text.score },
      { name: 'pinned', weight: 2, score: c.collectionPosition !== null ? 1 : 0 },
      { name: 'bookmarked', weight: 2, score: bookmarked ? 1 : 0 },
      { name: 'recency', weight: 1.5, score: recencyScore(c.lastEditedAt ?? c.updatedAt) },
      { name: 'dashboard', weight: 0.5, score: c.dashboardcardCount / maxCount },
      { name: 'model', weight: 0.5, score: modelRank < 0 ? 0 : (SEARCH_MODELS.length - modelRank) / SEARCH_MODELS.length },
      { name: 'official-collection', weight: 2, score: c.collectionId !== null && collectionById.get(c.collectionId)?.authority_level === 'official' ? 1 : 0 },
      { name: 'verified', weight: 2, score: 0 },
    ];
    const total = scores.reduce((sum, s) => sum + s.weight * s.score, 0);
    return { c, text, bookmarked, scores, total };
  });
  scored.sort((a, b) => b.total - a.total || a.c.name.toLowerCase().localeCompare(b.c.name.toLowerCase()) || a.c.id - b.c.id);

  const availableModels = [...new Set(scored.map((s) => s.c.model))].sort(
    (a, b) => SEARCH_MODELS.indexOf(a as (typeof SEARCH_MODELS)[number]) - SEARCH_MODELS.indexOf(b as (typeof SEARCH_MODELS)[number]),
  );
  const page = options.limit !== null ? scored.slice(options.offset ?? 0, (options.offset ?? 0) + options.limit) : scored;

  const collectionJson = (id: number | null) => {
    if (id === null) return { id: 'root', name: rootCollectionName(null), authority_level: null, type: null };
    const row = collectionById.get(id);
    if (!row) return null;
    const base: Record<string, unknown> = { id: row.id, name: row.name, authority_level: row.authority_level, type: row.type };
    if (options.modelAncestors) {
      base.effective_ancestors = locationIds(row.location)
        .filter((a) => access.canRead(a))
        .map((a) => collectionById.get(a))
        .filter(Boolean)
        .map((a) => ({ id: a!.id, name: a!.name, authority_level: a!.authority_level, type: a!.type }));
    }
    return base;
  };

  const data = page.map(({ c, text, bookmarked, scores }) => ({
    id: c.id,
    model: c.model,
    name: c.name,
    description: c.description,
    archived: options.archived,
    collection: OUTSIDE_COLLECTIONS.includes(c.model) ? { id: null, name: null, authority_level: null, type: null } : collectionJson(c.collectionId),
    collection_position: c.collectionPosition,
    database_id: c.databaseId,
    table_id: null,
    dataset_query: null,
    moderated_status: null,
    dashboardcard_count: ['card', 'dataset', 'metric'].includes(c.model) ? c.dashboardcardCount : null,
    bookmark: bookmarked,
    creator_id: c.creatorId,
    creator_common_name: c.creatorId !== null ? users.get(c.creatorId) ?? null : null,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    last_edited_at: c.lastEditedAt,
    last_editor_id: c.lastEditorId,
    last_editor_common_name: c.lastEditorId !== null ? users.get(c.lastEditorId) ?? null : null,
    context: text.context,
    scores,
    ...c.json,
  }));
  return {
    total: scored.length,
    data,
    models: requested.length ? requested : null,
    available_models: availableModels,
    limit: options.limit,
    offset: options.limit !== null ? options.offset ?? 0 : options.offset,
    table_db_id: options.tableDbId,
    engine: 'search.engine/in-place',
  };
}
