// Related entities (Metabase's `related` API, 0.50+ shapes): for a table, field, segment, card, ad-hoc query or
// dashboard, the other things a user may want next, built from the instance's metadata and content, and only what
// the caller may see — tables they may query (and their fields and segments), cards, dashboards and collections they
// may read, nothing archived, hidden or inactive. Values are the entities' own JSON.
//
//   table     {segments, metrics, linking-to, linked-from, tables}
//   field     {table, segments, metrics, fields}
//   segment   {table, metrics, segments, linked-from}
//   card      {table, metrics, segments, dashboard-mates, dashboards, collections}
//   dashboard {cards}
//
// "Mix" lists (similarity.ts) hold the three most similar and two more for variety, chosen deterministically.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { bool, parseJson } from '../appdb/portable.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { dataAccess, visibleTablesOf, type DataAccess } from '../databases/access.js';
import type { FieldRow, TableRow } from '../databases/database-row.js';
import { fieldJson, tableJson } from '../databases/json.js';
import { segmentJson, type SegmentRow } from '../segments/segments.js';
import { cardColumnsJson } from '../cards/json.js';
import { legacyQuery } from '../cards/query-info.js';
import type { CardRow } from '../cards/store.js';
import { dashboardColumnsJson } from '../dashboards/json.js';
import type { DashboardRow } from '../dashboards/store.js';
import { collectionRowJson } from '../collections/json.js';
import { recentlyRevisedIds } from '../revisions/revisions.js';
import { contextOf, interestingMix, MAX_BEST, MAX_MATCHES, MAX_SERENDIPITY, rankBySimilarity } from './similarity.js';

type Obj = Record<string, unknown>;

/** What the caller may see, loaded once per request. */
interface Viewer {
  caller: Caller;
  data: DataAccess;
  collections: CollectionAccess;
}

async function viewerOf(ctx: AppContext, caller: Caller): Promise<Viewer> {
  const [data, collections] = await Promise.all([dataAccess(ctx, caller), collectionAccess(ctx, caller)]);
  return { caller, data, collections };
}

// ----- definitions ---------------------------------------------------------------------------------------------------

/** A card's meaning: the references of its breakouts, aggregations, expressions and fields. */
function cardContext(card: Pick<CardRow, 'dataset_query'>): Set<string> {
  const query = (legacyQuery(parseJson<Obj>(card.dataset_query, {})).query ?? {}) as Obj;
  return contextOf([query.breakout, query.aggregation, query.expressions, query.fields]);
}

function segmentContext(segment: SegmentRow): Set<string> {
  return contextOf(parseJson<Obj>(segment.definition, {}).filter);
}

const fieldContext = (field: FieldRow) => new Set([`field:${field.id}`]);

// ----- what the caller may see ------------------------------------------------------------------------------------

function visibleTables(v: Viewer, rows: TableRow[]): TableRow[] {
  return visibleTablesOf(v.data, rows.filter((t) => bool(t.active) && (t.visibility_type === null || t.visibility_type === 'normal')));
}

function readableCards(v: Viewer, rows: CardRow[]): CardRow[] {
  return rows.filter((c) => !bool(c.archived) && v.collections.canRead(c.collection_id));
}

async function tablesByIds(ctx: AppContext, ids: Iterable<number>): Promise<TableRow[]> {
  const unique = [...new Set(ids)];
  return unique.length ? ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', unique).orderBy('id').execute() : [];
}

/** Non-archived segments of a table the caller may query (segments are read through their table). */
async function segmentsOfTable(ctx: AppContext, v: Viewer, table: TableRow | null): Promise<SegmentRow[]> {
  if (!table || visibleTables(v, [table]).length === 0) return [];
  return ctx.db.selectFrom('segment').selectAll().where('table_id', '=', table.id).where('archived', '=', false).orderBy('id').execute();
}

/** Readable, non-archived cards of the given types on each of the tables. */
async function cardsOfTables(ctx: AppContext, v: Viewer, tableIds: Iterable<number | null>, types: string[]): Promise<Map<number, CardRow[]>> {
  const ids = [...new Set(tableIds)].filter((id): id is number => id !== null);
  const out = new Map<number, CardRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await ctx.db.selectFrom('report_card').selectAll().where('table_id', 'in', ids).where('type', 'in', types).where('archived', '=', false).orderBy('id').execute();
  for (const row of readableCards(v, rows)) out.get(row.table_id!)!.push(row);
  return out;
}

async function cardsOfTable(ctx: AppContext, v: Viewer, tableId: number | null, types: string[]): Promise<CardRow[]> {
  return tableId === null ? [] : (await cardsOfTables(ctx, v, [tableId], types)).get(tableId) ?? [];
}

// ----- building blocks (named as in Metabase) ---------------------------------------------------------------------

/**
 * Tables linked to the table by active foreign keys: those its keys point at (`to`), or those whose keys point at
 * it (`from`), the first 5 the caller may see.
 */
async function linkedTables(ctx: AppContext, v: Viewer, table: TableRow, direction: 'to' | 'from'): Promise<TableRow[]> {
  const [near, far] = direction === 'to' ? (['source', 'target'] as const) : (['target', 'source'] as const);
  const rows = await ctx.db
    .selectFrom('metabase_field as source')
    .innerJoin('metabase_field as target', 'target.id', 'source.fk_target_field_id')
    .select(`${far}.table_id as table_id`)
    .where(`${near}.table_id`, '=', table.id)
    .where('source.active', '=', true)
    .where('target.active', '=', true)
    .execute();
  return visibleTables(v, await tablesByIds(ctx, rows.map((r) => r.table_id))).slice(0, MAX_MATCHES);
}

type CardLike = Pick<CardRow, 'id' | 'table_id' | 'dataset_query'>;

/** Of `candidates` (cards on the card's table), those sharing some of its meaning, most similar first. */
function similarCards(card: CardLike, candidates: CardRow[]) {
  return rankBySimilarity(cardContext(card), candidates.filter((c) => c.id !== card.id), cardContext).filter((r) => r.similarity > 0);
}

/** Cards shown on a dashboard together with the card. */
async function dashboardMates(ctx: AppContext, v: Viewer, cardId: number): Promise<CardRow[]> {
  const rows = await ctx.db
    .selectFrom('report_card')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('report_dashboardcard')
        .select('card_id')
        .where('dashboard_id', 'in', (inner) => inner.selectFrom('report_dashboardcard').select('dashboard_id').where('card_id', '=', cardId))
        .where('card_id', 'is not', null),
    )
    .where('id', '!=', cardId)
    .orderBy('id')
    .execute();
  return readableCards(v, rows).slice(0, MAX_MATCHES);
}

function readableDashboards(v: Viewer, rows: DashboardRow[]): DashboardRow[] {
  return rows.filter((d) => !bool(d.archived) && v.collections.canRead(d.collection_id));
}

/** Dashboards showing similar questions (the best few), then dashboards the caller edited lately. */
async function recommendedDashboards(ctx: AppContext, v: Viewer, similar: CardRow[]): Promise<DashboardRow[]> {
  const recentIds = await recentlyRevisedIds(ctx.db, 'Dashboard', v.caller.user.id, 50);
  const recentRows = recentIds.length ? await ctx.db.selectFrom('report_dashboard').selectAll().where('id', 'in', recentIds).execute() : [];
  const recent = readableDashboards(v, recentIds.map((id) => recentRows.find((d) => d.id === id)).filter((d): d is DashboardRow => d !== undefined)).slice(0, MAX_SERENDIPITY);
  let best: DashboardRow[] = [];
  if (similar.length) {
    const shown = await ctx.db
      .selectFrom('report_dashboardcard')
      .select(['card_id', 'dashboard_id'])
      .where('card_id', 'in', similar.map((c) => c.id))
      .execute();
    const order = new Map(similar.map((c, i) => [c.id, i]));
    const dashboardIds = [...new Set(shown.sort((a, b) => order.get(a.card_id!)! - order.get(b.card_id!)! || a.dashboard_id - b.dashboard_id).map((s) => s.dashboard_id))].filter(
      (id) => !recentIds.includes(id),
    );
    const rows = dashboardIds.length ? await ctx.db.selectFrom('report_dashboard').selectAll().where('id', 'in', dashboardIds).execute() : [];
    best = readableDashboards(v, dashboardIds.map((id) => rows.find((d) => d.id === id)).filter((d): d is DashboardRow => d !== undefined)).slice(0, MAX_BEST);
  }
  return [...best, ...recent];
}

/** The collections of similar questions (one per collection), mixed. */
async function recommendedCollections(ctx: AppContext, v: Viewer, similar: CardRow[], seed: string) {
  const ids = [...new Set(similar.map((c) => c.collection_id).filter((id): id is number => id !== null))];
  const mixed = interestingMix(ids, seed, String);
  if (!mixed.length) return [];
  const rows = await ctx.db.selectFrom('collection').selectAll().where('id', 'in', mixed).execute();
  return mixed
    .map((id) => rows.find((r) => r.id === id))
    .filter((r): r is NonNullable<typeof r> => r !== undefined && !bool(r.archived) && v.collections.canRead(r.id))
    .map(collectionRowJson);
}

const tables = (rows: TableRow[]) => rows.map(tableJson);
const segments = (rows: SegmentRow[]) => rows.map(segmentJson);
const cards = (rows: CardRow[]) => rows.map(cardColumnsJson);
const byId = (x: { id: number }) => String(x.id);

// ----- the entities --------------------------------------------------------------------------------------------------

/** GET /api/table/:id/related (the caller may query the table). */
export async function relatedToTable(ctx: AppContext, caller: Caller, table: TableRow) {
  const v = await viewerOf(ctx, caller);
  const [to, from] = await Promise.all([linkedTables(ctx, v, table, 'to'), linkedTables(ctx, v, table, 'from')]);
  const linked = new Set([...to, ...from].map((t) => t.id));
  const siblings = await ctx.db
    .selectFrom('metabase_table')
    .selectAll()
    .where('db_id', '=', table.db_id)
    .where((eb) => (table.schema === null ? eb('schema', 'is', null) : eb('schema', '=', table.schema)))
    .where('id', '!=', table.id)
    .where('visibility_type', 'is', null)
    .where('active', '=', true)
    .orderBy('id')
    .execute();
  return {
    segments: segments(await segmentsOfTable(ctx, v, table)),
    metrics: cards(await cardsOfTable(ctx, v, table.id, ['metric'])),
    'linking-to': tables(to),
    'linked-from': tables(from),
    tables: tables(interestingMix(visibleTables(v, siblings.filter((t) => !linked.has(t.id))), `table:${table.id}`, byId)),
  };
}

/** GET /api/field/:id/related (the caller may query the field's table). */
export async function relatedToField(ctx: AppContext, caller: Caller, field: FieldRow, table: TableRow) {
  const v = await viewerOf(ctx, caller);
  const seed = `field:${field.id}`;
  const reference = fieldContext(field);
  const others = await ctx.db
    .selectFrom('metabase_field')
    .selectAll()
    .where('table_id', '=', table.id)
    .where('id', '!=', field.id)
    .where('visibility_type', '=', 'normal')
    .where('active', '=', true)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const rankedSegments = rankBySimilarity(reference, await segmentsOfTable(ctx, v, table), segmentContext).map((r) => r.item);
  const rankedMetrics = rankBySimilarity(reference, await cardsOfTable(ctx, v, table.id, ['metric']), cardContext)
    .filter((r) => r.similarity > 0)
    .map((r) => r.item);
  return {
    table: tableJson(table),
    segments: segments(interestingMix(rankedSegments, seed, byId)),
    metrics: cards(interestingMix(rankedMetrics, seed, byId)),
    fields: interestingMix(others, seed, byId).map(fieldJson),
  };
}

/** GET /api/segment/:id/related (the caller may read the segment). */
export async function relatedToSegment(ctx: AppContext, caller: Caller, segment: SegmentRow) {
  const v = await viewerOf(ctx, caller);
  const table = (await tablesByIds(ctx, [segment.table_id]))[0] ?? null;
  const others = (await segmentsOfTable(ctx, v, table)).filter((s) => s.id !== segment.id);
  return {
    table: table ? tableJson(table) : null,
    metrics: cards(await cardsOfTable(ctx, v, segment.table_id, ['metric'])),
    segments: segments(interestingMix(rankBySimilarity(segmentContext(segment), others, segmentContext).map((r) => r.item), `segment:${segment.id}`, byId)),
    'linked-from': table ? tables(await linkedTables(ctx, v, table, 'from')) : [],
  };
}

/**
 * GET /api/card/:id/related (the caller may read the card), and POST /api/card/related for an unsaved query (`card`
 * then has no id; its table is the query's source table).
 */
export async function relatedToCard(ctx: AppContext, caller: Caller, card: CardLike) {
  const v = await viewerOf(ctx, caller);
  const seed = `card:${card.id}:${card.dataset_query}`;
  const table = card.table_id === null ? null : (await tablesByIds(ctx, [card.table_id]))[0] ?? null;
  const [questions, metrics] = await Promise.all([
    cardsOfTable(ctx, v, card.table_id, ['question', 'model']).then((candidates) => similarCards(card, candidates)),
    cardsOfTable(ctx, v, card.table_id, ['metric']).then((candidates) => similarCards(card, candidates)),
  ]);
  const similar = questions.map((r) => r.item);
  const rankedSegments = rankBySimilarity(cardContext(card), await segmentsOfTable(ctx, v, table), segmentContext).map((r) => r.item);
  return {
    table: table ? tableJson(table) : null,
    metrics: cards(interestingMix(metrics.map((r) => r.item), seed, byId)),
    segments: segments(interestingMix(rankedSegments, seed, byId)),
    'dashboard-mates': card.id > 0 ? cards(await dashboardMates(ctx, v, card.id)) : [],
    dashboards: (await recommendedDashboards(ctx, v, similar)).map(dashboardColumnsJson),
    collections: await recommendedCollections(ctx, v, similar, seed),
  };
}

/** GET /api/dashboard/:id/related (the caller may read the dashboard): questions like the ones on it. */
export async function relatedToDashboard(ctx: AppContext, caller: Caller, dashboard: DashboardRow) {
  const v = await viewerOf(ctx, caller);
  const onDashboard = await ctx.db
    .selectFrom('report_card')
    .selectAll()
    .where('id', 'in', (eb) => eb.selectFrom('report_dashboardcard').select('card_id').where('dashboard_id', '=', dashboard.id).where('card_id', 'is not', null))
    .orderBy('id')
    .execute();
  const shown = new Set(onDashboard.map((c) => c.id));
  const candidates = await cardsOfTables(ctx, v, onDashboard.map((c) => c.table_id), ['question', 'model']);
  const best = new Map<number, { item: CardRow; similarity: number }>();
  for (const card of onDashboard) {
    for (const r of similarCards(card, card.table_id === null ? [] : candidates.get(card.table_id) ?? [])) {
      if (shown.has(r.item.id)) continue;
      const seen = best.get(r.item.id);
      if (!seen || r.similarity > seen.similarity) best.set(r.item.id, r);
    }
  }
  const ranked = [...best.values()].sort((a, b) => b.similarity - a.similarity || a.item.id - b.item.id).map((r) => r.item);
  return { cards: cards(interestingMix(ranked, `dashboard:${dashboard.id}`, byId)) };
}
