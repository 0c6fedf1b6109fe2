// What a card's `dataset_query` says about the card: its query type, database, table and source card, plus the
// rules each card type puts on its query (models, metrics).

import { badRequest } from '../http/errors.js';

type Obj = Record<string, unknown>;

export const SAVED_QUESTIONS_DB_ID = -1337;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `card__12` → 12. */
export function cardIdOfSourceTable(sourceTable: unknown): number | null {
  if (typeof sourceTable !== 'string') return null;
  const m = /^card__([1-9]\d*)$/.exec(sourceTable);
  return m ? Number(m[1]) : null;
}

/** The innermost MBQL stage (following source-query), where source-table lives. */
export function innermostQuery(query: Obj): Obj {
  let q = query;
  while (isObj(q['source-query'])) q = q['source-query'] as Obj;
  return q;
}

export interface QueryInfo {
  queryType: 'query' | 'native' | null;
  databaseId: number | null;
  /** A real table id when the query starts from a table. */
  tableId: number | null;
  /** The saved question or model the query starts from (`card__N`). */
  sourceCardId: number | null;
}

export function queryInfo(datasetQuery: Obj): QueryInfo {
  const type = datasetQuery.type === 'native' ? 'native' : datasetQuery.type === 'query' ? 'query' : null;
  const database = typeof datasetQuery.database === 'number' ? datasetQuery.database : null;
  let tableId: number | null = null;
  let sourceCardId: number | null = null;
  if (type === 'query' && isObj(datasetQuery.query)) {
    const inner = innermostQuery(datasetQuery.query);
    const source = inner['source-table'] ?? inner.source_table;
    if (typeof source === 'number') tableId = source;
    sourceCardId = cardIdOfSourceTable(source);
  }
  return { queryType: type, databaseId: database, tableId, sourceCardId };
}

/** Template tags of a native query (`{}` when none). */
export function templateTags(datasetQuery: Obj): Record<string, Obj> {
  const native = datasetQuery.native;
  if (!isObj(native)) return {};
  const tags = native['template-tags'] ?? native.template_tags;
  return isObj(tags) ? (tags as Record<string, Obj>) : {};
}

/** Cards referenced by `{{#N}}` tags of a native query. */
export function referencedCardIds(datasetQuery: Obj): number[] {
  return Object.values(templateTags(datasetQuery))
    .filter((t) => t.type === 'card')
    .map((t) => Number(t['card-id'] ?? t.card_id))
    .filter((n) => Number.isInteger(n) && n > 0);
}

export const MODEL_VARIABLES_MESSAGE = 'A model made from a native SQL question cannot have a variable or field filter.';
export const INVALID_METRIC_MESSAGE = 'Card of type metric is invalid, cannot be saved.';

/** Enforces what each card type allows of its query. */
export function checkTypeRules(type: string, datasetQuery: Obj): void {
  if (type === 'model' && datasetQuery.type === 'native') {
    const variables = Object.values(templateTags(datasetQuery)).filter((t) => t.type !== 'snippet' && t.type !== 'card');
    if (variables.length > 0) throw badRequest(MODEL_VARIABLES_MESSAGE);
  }
  if (type === 'metric') {
    if (datasetQuery.type !== 'query' || !isObj(datasetQuery.query)) throw badRequest(INVALID_METRIC_MESSAGE);
    const query = datasetQuery.query;
    const aggregation = query.aggregation;
    const breakout = query.breakout;
    if (!Array.isArray(aggregation) || aggregation.length !== 1) throw badRequest(INVALID_METRIC_MESSAGE);
    if (breakout !== undefined && breakout !== null && (!Array.isArray(breakout) || breakout.length > 1)) {
      throw badRequest(INVALID_METRIC_MESSAGE);
    }
  }
}

/**
 * Is the native query runnable without values supplied from outside? Every tag outside an optional `[[…]]` block
 * is a field filter, snippet or card reference or has a default, and no required tag lacks a default.
 */
export function fullyParameterized(datasetQuery: Obj): boolean {
  if (datasetQuery.type !== 'native' || !isObj(datasetQuery.native)) return true;
  const tags = templateTags(datasetQuery);
  if (Object.keys(tags).length === 0) return true;
  const text = String(datasetQuery.native.query ?? '');
  const outside = text.replace(/\[\[[\s\S]*?\]\]/g, '');
  const obligatory = [...outside.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((m) => m[1]);
  const hasDefault = (t: Obj | undefined) => t !== undefined && t.default !== undefined && t.default !== null;
  const free = obligatory.every((name) => {
    const tag = tags[name];
    return !tag || ['dimension', 'snippet', 'card'].includes(String(tag.type)) || hasDefault(tag);
  });
  return free && Object.values(tags).every((t) => !t.required || hasDefault(t));
}

/** Does the MBQL query use the given clause (e.g. ["segment", 4], ["metric", 7]) anywhere? */
export function usesClause(datasetQuery: Obj, clause: string, id: number | null): boolean {
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) {
      if (node[0] === clause && (id === null || node[1] === id)) return true;
      return node.some(visit);
    }
    if (isObj(node)) return Object.values(node).some(visit);
    return false;
  };
  return datasetQuery.type === 'query' && visit(datasetQuery.query);
}
