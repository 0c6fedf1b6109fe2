// Stage "persisted models" (after authorize, so permissions are judged on the model's real query): a model kept as
// a table in its database (src/persistence) is read from that table instead of running its query again —
//   - wherever it is a source: questions built on it, joins to it (any depth), native SQL naming it as `{{#N}}`: the
//     compiler reads the table for that stage (`CompileOptions.persistedModel`), when the table has every column the
//     stage returns;
//   - when the model itself is run (its own query, dashcards and filters included): its stage becomes the source of
//     an outer stage that keeps its columns and order and takes the parameters, so dashboard filters apply to the
//     table's rows; a native model without parameters reads the table as it is.
// Anything that can't be read from the table exactly as the query would answer runs live instead.

import type { AppContext } from '../context.js';
import { sql, ident, type Sql } from './compile/sql.js';
import type { StageColumn } from './compile/stage.js';
import type { Clause, DatasetQuery, MbqlQuery } from './mbql/types.js';
import { isFieldRef, sameRef, isClause } from './mbql/clauses.js';
import { normalizeQuery } from './mbql/normalize.js';
import { findCards, findPersistedModels, type PersistedModel, type SavedCard } from './sources.js';
import type { ResolvedQuery } from './resolve.js';
import { canonicalJson } from '../util/canonical-json.js';

export interface PersistedPlan {
  models: Map<number, PersistedModel>;
  /** The run of a persisted model itself (its own query): read from its table. */
  own: { cardId: number; native: boolean } | null;
}

const NONE: PersistedPlan = { models: new Map(), own: null };

/** The query without what a run adds to it (parameters, constraints, middleware), for comparing. */
function bareQuery(query: DatasetQuery): string {
  const { parameters: _p, constraints: _c, middleware: _m, info: _i, ...rest } = query;
  return canonicalJson(rest);
}

function isOwnQuery(normalized: DatasetQuery, card: SavedCard): boolean {
  try {
    return bareQuery(normalized) === bareQuery(normalizeQuery(card.dataset_query));
  } catch {
    return false;
  }
}

/** What planning needs of the run's request (pipeline.ts QueryRequest). */
export interface PersistedPlanRequest {
  usePersistedModels?: boolean;
  cardId?: number | null;
  modelMetadata?: unknown;
}

export async function planPersistedModels(ctx: AppContext, request: PersistedPlanRequest, resolved: ResolvedQuery, normalized: DatasetQuery): Promise<PersistedPlan> {
  if (request.usePersistedModels === false) return NONE;
  const cards = [...resolved.cards.values()];
  let ownCard: SavedCard | undefined;
  // only a model's run carries its metadata (cards/store.ts modelMetadataOf): no lookup for other cards' runs
  if (request.cardId !== undefined && request.cardId !== null && request.modelMetadata) {
    ownCard = (await findCards(ctx, [request.cardId])).get(request.cardId);
    if (ownCard?.type === 'model') cards.push(ownCard);
  }
  const models = await findPersistedModels(ctx, cards);
  if (!models.size) return NONE;
  let own: PersistedPlan['own'] = null;
  if (ownCard && models.has(ownCard.id) && isOwnQuery(normalized, ownCard)) {
    const parameters = normalized.parameters ?? [];
    if (resolved.query.type === 'native') {
      const tags = Object.keys(resolved.query.native?.['template-tags'] ?? {});
      if (!tags.length && !parameters.length) own = { cardId: ownCard.id, native: true };
    } else if (!parameters.some((p) => p.type === 'temporal-unit')) {
      own = { cardId: ownCard.id, native: false };
    }
  }
  return { models, own };
}

export function persistedSelect(model: PersistedModel): Sql {
  return sql`SELECT * FROM ${ident(model.schema, model.table)}`;
}

/** The compiler's hook: the table's SELECT when it has every column the model's stage returns. */
export function persistedLookup(plan: PersistedPlan): (cardId: number, columns: string[]) => Sql | null {
  return (cardId, columns) => {
    const model = plan.models.get(cardId);
    if (!model) return null;
    const have = new Set(model.columns);
    return columns.every((c) => have.has(c)) ? persistedSelect(model) : null;
  };
}

/** A model's own MBQL query as the source of an outer stage (which takes the run's parameters). */
export function wrapOwnRun(query: DatasetQuery, cardId: number): DatasetQuery {
  return { ...query, query: { 'source-query': { ...query.query!, 'source-card-id': cardId } } as MbqlQuery };
}

/**
 * The model stage's order (explicit, then its breakouts ascending, as the compiler orders them) in terms of its
 * output columns, for the outer stage; null when it orders by something it doesn't return.
 */
export function orderOverSource(inner: MbqlQuery, columns: StageColumn[]): Clause[] | null {
  const out: Clause[] = [];
  const used = new Set<number>();
  const byName = (c: StageColumn): Clause => ['field', c.name, { 'base-type': c.base_type }];
  for (const item of inner['order-by'] ?? []) {
    const [dir, target] = item as ['asc' | 'desc', Clause];
    let index = -1;
    if (isClause(target, 'aggregation')) index = columns.findIndex((c) => c.aggregation_index === target[1]);
    else if (isClause(target, 'expression')) index = columns.findIndex((c) => c.expression_name === target[1]);
    else if (isFieldRef(target)) {
      index = columns.findIndex((c) => sameRef(c.field_ref, target));
      if (index < 0) index = columns.findIndex((c) => isFieldRef(c.field_ref) && c.field_ref[1] === target[1] && (c.field_ref[2]?.['join-alias'] ?? null) === (target[2]?.['join-alias'] ?? null));
    }
    if (index < 0) return null;
    if (used.has(index)) continue;
    used.add(index);
    out.push([dir, byName(columns[index])] as Clause);
  }
  columns.forEach((c, i) => {
    if (c.source === 'breakout' && !used.has(i)) out.push(['asc', byName(c)] as Clause);
  });
  return out;
}
