// Stage "resolve": saved things a query refers to become part of it. `card__N` sources (questions, models) turn
// into nested `source-query`s with the card's result metadata, to any depth; `["metric", N]` aggregations and
// `["segment", N]` filters are inlined; snippets and `{{#N}}` cards of native queries are loaded. Lookups go through
// ./sources.ts (the owning modules register them), one batch per level of nesting.

import type { AppContext } from '../context.js';
import type { Clause, DatasetQuery, Join, MbqlQuery, NativeSource, TemplateTag } from './mbql/types.js';
import { SAVED_QUESTIONS_DATABASE } from './mbql/types.js';
import { isClause, mapClauses, walkClauses } from './mbql/clauses.js';
import { normalizeQuery, simplifyFilter } from './mbql/normalize.js';
import { findCards, findLegacyMetrics, findSegments, findSnippets, type SavedCard, type Snippet } from './sources.js';
import { invalidQuery, QueryError } from './errors.js';
import { checkQueryLimits, definitionExtents, MAX_CLAUSE_DEPTH } from './mbql/limits.js';
import { cardIdOf, snippetNameOf, tagsIn } from './native/template.js';

const MAX_DEPTH = 30;

export interface ResolvedQuery {
  query: DatasetQuery;
  /** Every card the query uses (sources, joins, metrics, `{{#N}}` tags), for permission checks. */
  cards: Map<number, SavedCard>;
  /** Resolved queries of cards referenced by native `{{#N}}` tags. */
  cardQueries: Map<number, DatasetQuery>;
  snippets: { byId: Map<number, Snippet>; byName: Map<string, Snippet> };
  /** The database the query runs on (a `-1337` query takes its source card's). */
  databaseId: number;
}

const CARD_SOURCE = /^card__(\d+)$/;

function cardSourceId(x: unknown): number | null {
  if (typeof x !== 'string') return null;
  const m = CARD_SOURCE.exec(x);
  return m ? Number(m[1]) : null;
}

/** Every MBQL stage and join in the query (nested ones included). */
function eachStage(query: MbqlQuery, visit: (stage: MbqlQuery | Join) => void): void {
  visit(query);
  const sq = query['source-query'];
  if (sq && !('native' in sq)) eachStage(sq as MbqlQuery, visit);
  for (const j of query.joins ?? []) {
    visit(j);
    const jsq = j['source-query'];
    if (jsq && !('native' in jsq)) eachStage(jsq as MbqlQuery, visit);
  }
}

class Resolver {
  /** The database of the query being resolved (set once known). */
  databaseId: number | null = null;
  readonly cards = new Map<number, SavedCard>();
  readonly cardQueries = new Map<number, DatasetQuery>();
  readonly snippetsById = new Map<number, Snippet>();
  readonly snippetsByName = new Map<string, Snippet>();

  constructor(private readonly ctx: AppContext) {}

  private async loadCards(ids: number[]): Promise<void> {
    const missing = ids.filter((id) => !this.cards.has(id));
    if (!missing.length) return;
    const found = await findCards(this.ctx, missing);
    for (const id of missing) {
      const card = found.get(id);
      if (!card) throw new QueryError('invalid-query', `Card ${id} does not exist.`, { 'card-id': id, status: 404 });
      if (card.archived) throw new QueryError('invalid-query', `Card ${id} is archived.`, { 'card-id': id });
      this.cards.set(id, card);
    }
  }

  private cardQuery(id: number): DatasetQuery {
    const card = this.cards.get(id)!;
    return normalizeQuery(card.dataset_query);
  }

  /** The source a card becomes inside another query. */
  private cardAsSource(id: number): { source: MbqlQuery | NativeSource; metadata: SavedCard['result_metadata'] } {
    const q = this.cardQuery(id);
    const card = this.cards.get(id)!;
    if (q.type === 'native') {
      if (!q.native) throw invalidQuery(`Card ${id} has no native query.`);
      return { source: { native: q.native.query, 'template-tags': q.native['template-tags'], 'source-card-id': id }, metadata: card.result_metadata };
    }
    if (!q.query) throw invalidQuery(`Card ${id} has no query.`);
    return { source: { ...q.query, 'source-card-id': id }, metadata: card.result_metadata };
  }

  /** Replaces `card__N` sources, level by level, until none is left. */
  async resolveCardSources(query: MbqlQuery, databaseId: number): Promise<number> {
    let db = databaseId;
    for (let depth = 0; ; depth++) {
      const pending: Array<MbqlQuery | Join> = [];
      eachStage(query, (stage) => {
        if (cardSourceId(stage['source-table']) !== null) pending.push(stage);
      });
      if (!pending.length) return db;
      if (depth > MAX_DEPTH) throw invalidQuery('Saved questions refer to each other too deeply (or in a cycle).');
      await this.loadCards(pending.map((s) => cardSourceId(s['source-table'])!));
      for (const stage of pending) {
        const id = cardSourceId(stage['source-table'])!;
        const card = this.cards.get(id)!;
        if (db === SAVED_QUESTIONS_DATABASE && card.database_id) db = card.database_id;
        if (card.database_id && card.database_id !== db) {
          throw invalidQuery(`Card ${id} is in another database (${card.database_id}) than this query (${db}).`);
        }
        const { source, metadata } = this.cardAsSource(id);
        delete stage['source-table'];
        stage['source-query'] = source;
        stage['source-card-id'] = id;
        if (metadata && metadata.length) stage['source-metadata'] = metadata;
        if ('alias' in stage && !stage.alias) stage.alias = card.name;
      }
    }
  }

  /** Inlines `["metric", id]` aggregations and `["segment", id]` filters of every stage. */
  async inlineMetricsAndSegments(query: MbqlQuery): Promise<void> {
    const metricIds = new Set<number>();
    const segmentIds = new Set<number>();
    walkClauses(query, (c) => {
      if (c[0] === 'metric' && typeof c[1] === 'number') metricIds.add(c[1]);
      if (c[0] === 'segment' && typeof c[1] === 'number') segmentIds.add(c[1]);
    });
    if (!metricIds.size && !segmentIds.size) return;
    const metricDefinitions = new Map<number, { aggregation: Clause; filter: Clause | null; name: string }>();
    if (metricIds.size) {
      const cards = await findCards(this.ctx, [...metricIds]);
      const legacyIds = [...metricIds].filter((id) => cards.get(id)?.type !== 'metric');
      const legacy = await findLegacyMetrics(this.ctx, legacyIds);
      for (const id of metricIds) {
        const card = cards.get(id);
        if (card && card.type === 'metric') {
          this.cards.set(id, card);
          const q = normalizeQuery(card.dataset_query).query;
          const aggregation = q?.aggregation?.[0];
          if (!aggregation) throw invalidQuery(`Metric ${id} has no aggregation.`);
          metricDefinitions.set(id, { aggregation, filter: q?.filter ?? null, name: card.name });
          continue;
        }
        const m = legacy.get(id);
        if (!m) throw invalidQuery(`Metric ${id} does not exist.`);
        const def = normalizeQuery({ database: 0, type: 'query', query: { 'source-table': m.table_id, ...m.definition } }).query!;
        if (!def.aggregation?.[0]) throw invalidQuery(`Metric ${id} has no aggregation.`);
        metricDefinitions.set(id, { aggregation: def.aggregation[0], filter: def.filter ?? null, name: m.name });
      }
    }
    // Segments may use other segments: load them level by level (one batch each).
    const segmentFilters = new Map<number, Clause>();
    let pendingSegments = [...segmentIds];
    for (let depth = 0; pendingSegments.length; depth++) {
      if (depth > MAX_DEPTH) throw invalidQuery('Segments are nested too deeply (or in a cycle).');
      const segments = await findSegments(this.ctx, pendingSegments);
      const next = new Set<number>();
      for (const id of pendingSegments) {
        const s = segments.get(id);
        if (!s) throw invalidQuery(`Segment ${id} does not exist.`);
        const def = normalizeQuery({ database: 0, type: 'query', query: { 'source-table': s.table_id, ...s.definition } }).query!;
        if (!def.filter) throw invalidQuery(`Segment ${id} has no filter.`);
        segmentFilters.set(id, def.filter);
        walkClauses(def.filter, (c) => {
          if (c[0] === 'segment' && typeof c[1] === 'number' && !segmentFilters.has(c[1])) next.add(c[1]);
        });
      }
      pendingSegments = [...next].filter((id) => !segmentFilters.has(id));
    }
    // Measured before inlining: segments that use each other twice over would double at every level.
    definitionExtents(segmentFilters, (c) => (c[0] === 'segment' && typeof c[1] === 'number' ? c[1] : undefined), {
      cycle: () => invalidQuery('Segments are nested too deeply (or in a cycle).'),
      tooDeep: (id) => invalidQuery(`Invalid segment ${id}: with the segments it uses, its filter nests more than ${MAX_CLAUSE_DEPTH} levels deep.`),
    });
    const inlineSegments = (x: unknown, depth = 0): unknown =>
      mapClauses(x, (c) => {
        if (c[0] !== 'segment' || typeof c[1] !== 'number') return c;
        if (depth > MAX_DEPTH) throw invalidQuery('Segments are nested too deeply (or in a cycle).');
        return inlineSegments(segmentFilters.get(c[1])!, depth + 1);
      });
    eachStage(query, (stage) => {
      const s = stage as MbqlQuery;
      if (s.aggregation) s.aggregation = s.aggregation.map((a) => mapClauses(a, (c) => (c[0] === 'metric' ? metricAggregation(metricDefinitions.get(c[1])!) : c)) as Clause);
      const replaceSegments = (x: unknown) => inlineSegments(x);
      if (s.filter) s.filter = simplifyFilter(replaceSegments(s.filter)) as Clause;
      if (s.aggregation) s.aggregation = s.aggregation.map((a) => replaceSegments(a) as Clause);
      if ((stage as Join).condition) (stage as Join).condition = replaceSegments((stage as Join).condition) as Clause;
    });
  }

  /** Snippets (transitively) and `{{#N}}` cards of a native query (and of native sources). */
  async resolveNative(text: string, tags: Record<string, TemplateTag>, depth = 0): Promise<void> {
    if (depth > MAX_DEPTH) throw invalidQuery('Snippets or card references are nested too deeply (or in a cycle).');
    const ids: number[] = [];
    const names: string[] = [];
    const cardIds: number[] = [];
    for (const tag of Object.values(tags)) {
      if (tag.type === 'snippet') {
        if (tag['snippet-id'] !== undefined) ids.push(Number(tag['snippet-id']));
        if (tag['snippet-name']) names.push(String(tag['snippet-name']));
      }
      if (tag.type === 'card' && tag['card-id'] !== undefined) cardIds.push(Number(tag['card-id']));
    }
    for (const tag of tagsIn(text)) {
      const snippet = snippetNameOf(tag);
      if (snippet) names.push(snippet);
      const card = cardIdOf(tag);
      if (card !== null) cardIds.push(card);
    }
    const newIds = ids.filter((id) => !this.snippetsById.has(id));
    const newNames = names.filter((n) => !this.snippetsByName.has(n.toLowerCase()));
    if (newIds.length || newNames.length) {
      const found = await findSnippets(this.ctx, newIds, newNames);
      for (const s of found) {
        this.snippetsById.set(s.id, s);
        this.snippetsByName.set(s.name.toLowerCase(), s);
      }
      for (const s of found) await this.resolveNative(s.content, { ...tags, ...s.template_tags }, depth + 1);
    }
    const newCards = cardIds.filter((id) => !this.cardQueries.has(id));
    if (newCards.length) {
      await this.loadCards(newCards);
      for (const id of newCards) {
        const q = this.cardQuery(id);
        if (this.databaseId !== null && q.database !== this.databaseId && this.cards.get(id)!.database_id !== this.databaseId) {
          throw invalidQuery(`Card ${id} is in another database than this query.`);
        }
        this.cardQueries.set(id, q);
        await this.resolveQuery(q, depth + 1);
      }
    }
  }

  /** Resolves a whole dataset query in place; returns its database id. */
  async resolveQuery(q: DatasetQuery, depth = 0): Promise<number> {
    let db = Number(q.database);
    if (depth === 0 && db !== SAVED_QUESTIONS_DATABASE) this.databaseId = db;
    if (q.type === 'native') {
      if (q.native) await this.resolveNative(q.native.query ?? '', q.native['template-tags'] ?? {}, depth);
      return db;
    }
    if (!q.query) return db;
    db = await this.resolveCardSources(q.query, db);
    await this.inlineMetricsAndSegments(q.query);
    const natives: NativeSource[] = [];
    eachStage(q.query, (stage) => {
      const sq = stage['source-query'];
      if (sq && 'native' in sq) natives.push(sq as NativeSource);
    });
    for (const n of natives) await this.resolveNative(n.native, n['template-tags'] ?? {}, depth);
    return db;
  }
}

/** A metric's aggregation, restricted to its filter (count → count-where, others aggregate CASE WHEN filter). */
function metricAggregation(def: { aggregation: Clause; filter: Clause | null; name: string }): Clause {
  let agg = def.aggregation;
  let naming: Record<string, unknown> = {};
  if (isClause(agg, 'aggregation-options')) {
    naming = (agg[2] ?? {}) as Record<string, unknown>;
    agg = agg[1] as Clause;
  }
  if (def.filter) {
    const f = def.filter;
    const [name, ...args] = agg;
    if (name === 'count' && args.length === 0) agg = ['count-where', f];
    else if (name === 'count') agg = ['count', ['case', [[f, args[0]]]]];
    else if (name === 'share' || name === 'count-where') agg = [name, ['and', f, args[0]]];
    else if (name === 'sum-where' || name === 'distinct-where') agg = [name, args[0], ['and', f, args[1]]];
    else agg = [name, ['case', [[f, args[0]]]], ...args.slice(1)];
  }
  return ['aggregation-options', agg, { 'display-name': naming['display-name'] ?? def.name, ...(naming.name ? { name: naming.name } : {}) }];
}

export async function resolveQuery(ctx: AppContext, query: DatasetQuery): Promise<ResolvedQuery> {
  const resolver = new Resolver(ctx);
  const copy = structuredClone(query);
  const databaseId = await resolver.resolveQuery(copy);
  if (!Number.isInteger(databaseId) || databaseId === SAVED_QUESTIONS_DATABASE) throw invalidQuery('`database` is required for all queries whose type is not `internal`.');
  // Saved questions became nested stages and segments their filters: the whole must still be within bounds.
  checkQueryLimits(copy);
  for (const cardQuery of resolver.cardQueries.values()) checkQueryLimits(cardQuery);
  return {
    query: { ...copy, database: databaseId },
    cards: resolver.cards,
    cardQueries: resolver.cardQueries,
    snippets: { byId: resolver.snippetsById, byName: resolver.snippetsByName },
    databaseId,
  };
}
