// What a card's `dataset_query` says about the card: its query type, database, table and source card, plus the
// rules each card type puts on its query (models, metrics).
//
// A card stores the query as its client sent it — legacy MBQL, or MBQL 5 (`{"lib/type": "mbql/query", "stages": …}`,
// what Metabase's web app saves since 0.57). Everything here reads the query's legacy form (`legacyQuery`, the query
// engine's normalization), so both say the same things.

import { badRequest } from '../http/errors.js';
import { normalizeQuery, QueryError } from '../query/index.js';
import { validateQuery } from '../query/mbql/validate.js';

type Obj = Record<string, unknown>;

export const SAVED_QUESTIONS_DB_ID = -1337;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Queries this module normalized itself: every function here takes either form, and a saved card's query is read by
 * several of them in turn (a save checks types, sources, references), so a legacy form is not normalized again.
 */
const LEGACY = new WeakSet<Obj>();

function normalized(datasetQuery: Obj): Obj {
  const legacy = normalizeQuery(datasetQuery) as unknown as Obj;
  LEGACY.add(legacy);
  return legacy;
}

/** The legacy MBQL form of a query (MBQL 5 converted, spellings normalized); the query itself when it can't be read. */
export function legacyQuery(datasetQuery: Obj): Obj {
  if (LEGACY.has(datasetQuery)) return datasetQuery;
  try {
    return normalized(datasetQuery);
  } catch {
    return datasetQuery;
  }
}

/** Template tags must be maps (the normalizer would silently drop the others), in either query form. */
function checkTemplateTagMaps(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) checkTemplateTagMaps(item);
    return;
  }
  if (!isObj(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'template-tags' || key === 'template_tags') && isObj(value)) {
      for (const [name, tag] of Object.entries(value)) {
        if (!isObj(tag)) throw badRequest(`Invalid template tag ${JSON.stringify(name)}: must be a map.`);
      }
    } else {
      checkTemplateTagMaps(value);
    }
  }
}

/**
 * A query sent to be saved in a card, checked: its legacy form, or a 400 saying what is wrong with it (the query
 * engine's own validation — the same messages a run of it would give).
 */
export function checkedLegacyQuery(datasetQuery: Obj): Obj {
  checkTemplateTagMaps(datasetQuery);
  let legacy: Obj;
  try {
    legacy = normalized(datasetQuery);
  } catch (error) {
    if (error instanceof QueryError) throw badRequest(`Invalid dataset_query: ${error.message}`);
    throw badRequest('Invalid dataset_query: it is not a query this server can read.');
  }
  if (legacy.type !== 'query' && legacy.type !== 'native') {
    throw badRequest(`Invalid dataset_query: its query type must be "query" or "native", got ${JSON.stringify(legacy.type ?? null)}.`);
  }
  if (legacy.database !== undefined && legacy.database !== null && !Number.isInteger(legacy.database)) {
    throw badRequest(`Invalid dataset_query: database must be a database id, got ${JSON.stringify(legacy.database)}.`);
  }
  try {
    validateQuery(legacy as never);
  } catch (error) {
    if (error instanceof QueryError) throw badRequest(`Invalid dataset_query: ${error.message}`);
    throw badRequest('Invalid dataset_query: it is not a query this server can read.');
  }
  return legacy;
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

export function queryInfo(query: Obj): QueryInfo {
  const datasetQuery = legacyQuery(query);
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
export function templateTags(query: Obj): Record<string, Obj> {
  const native = legacyQuery(query).native;
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

export interface CardReferences {
  /** `card__N` sources anywhere: the query's own source, nested source queries, joins. */
  sources: number[];
  /** `{{#N}}` tags of native SQL, the query's own or a nested native source's. */
  tags: number[];
  /** `["metric", N]` aggregations (metric cards, or legacy metrics). */
  metrics: number[];
}

/** Every saved card a query reads, by how it reads it. */
export function cardReferences(query: Obj): CardReferences {
  const out: CardReferences = { sources: [], tags: [], metrics: [] };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      if (node[0] === 'metric' && typeof node[1] === 'number') out.metrics.push(node[1]);
      for (const item of node) visit(item);
      return;
    }
    if (!isObj(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'source-table') {
        const id = cardIdOfSourceTable(value);
        if (id !== null) out.sources.push(id);
      } else if (key === 'template-tags' && isObj(value)) {
        for (const tag of Object.values(value)) {
          const id = isObj(tag) && tag.type === 'card' ? Number(tag['card-id']) : NaN;
          if (Number.isInteger(id) && id > 0) out.tags.push(id);
        }
      } else {
        visit(value);
      }
    }
  };
  visit(legacyQuery(query));
  return { sources: [...new Set(out.sources)], tags: [...new Set(out.tags)], metrics: [...new Set(out.metrics)] };
}

export const MODEL_VARIABLES_MESSAGE = 'A model made from a native SQL question cannot have a variable or field filter.';
export const INVALID_METRIC_MESSAGE = 'Card of type metric is invalid, cannot be saved.';

/** Enforces what each card type allows of its query. */
export function checkTypeRules(type: string, query: Obj): void {
  const datasetQuery = legacyQuery(query);
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
export function fullyParameterized(query: Obj): boolean {
  const datasetQuery = legacyQuery(query);
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
export function usesClause(query: Obj, clause: string, id: number | null): boolean {
  const datasetQuery = legacyQuery(query);
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
