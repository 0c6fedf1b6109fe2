// Stage 2, validate: the normalized query's structure, with a message that says which clause is wrong and why, and
// its size within what every engine runs (./limits.ts).
// (Whether a field exists or a feature is supported is checked later, when metadata and the engine are known.)

import type { DatasetQuery, Join, MbqlQuery, TemplateTag } from './types.js';
import { SAVED_QUESTIONS_DATABASE } from './types.js';
import { isClause, DATETIME_UNITS } from './clauses.js';
import { invalidQuery } from '../errors.js';
import { checkQueryLimits } from './limits.js';

type Arity = [number, number];

const AGGREGATIONS: Record<string, Arity> = {
  count: [0, 1], 'cum-count': [0, 1], sum: [1, 1], 'cum-sum': [1, 1], avg: [1, 1], min: [1, 1], max: [1, 1], distinct: [1, 1],
  stddev: [1, 1], var: [1, 1], median: [1, 1], percentile: [2, 2], 'count-where': [1, 1], 'sum-where': [2, 2], share: [1, 1],
  'distinct-where': [2, 2], 'aggregation-options': [2, 2], metric: [1, 2], offset: [2, 3],
};

const FILTERS: Record<string, Arity> = {
  and: [1, Infinity], or: [1, Infinity], not: [1, 1], '=': [2, Infinity], '!=': [2, Infinity], '<': [2, 2], '>': [2, 2], '<=': [2, 2],
  '>=': [2, 2], between: [3, 3], 'is-null': [1, 1], 'not-null': [1, 1], 'is-empty': [1, 1], 'not-empty': [1, 1],
  contains: [2, Infinity], 'does-not-contain': [2, Infinity], 'starts-with': [2, Infinity], 'ends-with': [2, Infinity], inside: [6, 6],
  'time-interval': [3, 4], 'relative-time-interval': [5, 5], during: [3, 3], segment: [1, 1], in: [2, Infinity], 'not-in': [2, Infinity],
};

const EXPRESSIONS: Record<string, Arity> = {
  '+': [2, Infinity], '-': [1, Infinity], '*': [2, Infinity], '/': [2, Infinity], abs: [1, 1], ceil: [1, 1], floor: [1, 1], round: [1, 1],
  power: [2, 2], sqrt: [1, 1], exp: [1, 1], log: [1, 1], concat: [1, Infinity], substring: [2, 3], length: [1, 1], trim: [1, 1],
  ltrim: [1, 1], rtrim: [1, 1], upper: [1, 1], lower: [1, 1], replace: [3, 3], 'regex-match-first': [2, 2], regexextract: [2, 2],
  host: [1, 1], domain: [1, 1], subdomain: [1, 1], path: [1, 1], 'month-name': [1, 1], 'quarter-name': [1, 1], 'day-name': [1, 1],
  'split-part': [3, 3], text: [1, 1], integer: [1, 1], float: [1, 1], date: [1, 1], datetime: [1, 2], collate: [2, 2], case: [1, 2],
  if: [1, 2], coalesce: [1, Infinity], 'datetime-add': [3, 3], 'datetime-subtract': [3, 3], 'datetime-diff': [3, 3], now: [0, 0],
  'convert-timezone': [2, 3], 'temporal-extract': [2, 3], 'get-year': [1, 1], 'get-quarter': [1, 1], 'get-month': [1, 1],
  'get-week': [1, 2], 'get-day': [1, 1], 'get-day-of-week': [1, 2], 'get-hour': [1, 1], 'get-minute': [1, 1], 'get-second': [1, 1],
  field: [2, 2], expression: [1, 2], aggregation: [1, 2], value: [1, 2], 'relative-datetime': [1, 2], 'absolute-datetime': [1, 2],
  interval: [2, 2], 'aggregation-options': [2, 2],
};

const TAG_TYPES = new Set(['text', 'number', 'date', 'boolean', 'dimension', 'snippet', 'card', 'temporal-unit']);
const JOIN_STRATEGIES = new Set(['left-join', 'right-join', 'inner-join', 'full-join']);
const BINNING = new Set(['num-bins', 'bin-width', 'default']);

function describe(x: unknown): string {
  const text = JSON.stringify(x) ?? 'nothing';
  return text.length > 200 ? text.slice(0, 200) + '…' : text;
}

function checkArity(name: string, args: unknown[], arity: Arity, where: string): void {
  if (args.length < arity[0] || args.length > arity[1]) {
    const expected = arity[0] === arity[1] ? `${arity[0]}` : arity[1] === Infinity ? `at least ${arity[0]}` : `${arity[0]} to ${arity[1]}`;
    throw invalidQuery(`Invalid ${where}: "${name}" takes ${expected} argument${arity[1] === 1 && arity[0] === 1 ? '' : 's'}, got ${args.length}: ${describe([name, ...args])}`);
  }
}

function checkFieldRef(x: unknown[], where: string): void {
  const [, id, opts] = x;
  if (!(typeof id === 'number' && Number.isInteger(id) && id > 0) && !(typeof id === 'string' && id.length > 0)) {
    throw invalidQuery(`Invalid ${where}: a field ref needs a field id or a column name: ${describe(x)}`);
  }
  if (opts !== null && opts !== undefined && (typeof opts !== 'object' || Array.isArray(opts))) throw invalidQuery(`Invalid ${where}: field options must be a map: ${describe(x)}`);
  const o = (opts ?? {}) as Record<string, unknown>;
  if (typeof id === 'string' && !o['base-type']) throw invalidQuery(`Invalid ${where}: a field ref by name needs a base-type: ${describe(x)}`);
  if (o['temporal-unit'] !== undefined && !DATETIME_UNITS.includes(String(o['temporal-unit']))) {
    throw invalidQuery(`Invalid ${where}: unknown temporal-unit "${String(o['temporal-unit'])}": ${describe(x)}`);
  }
  if (o.binning !== undefined) {
    const b = o.binning as Record<string, unknown>;
    if (!b || typeof b !== 'object' || !BINNING.has(String(b.strategy))) throw invalidQuery(`Invalid ${where}: binning strategy must be num-bins, bin-width or default: ${describe(x)}`);
    if (b.strategy === 'num-bins' && !(typeof b['num-bins'] === 'number' && b['num-bins'] >= 1)) throw invalidQuery(`Invalid ${where}: num-bins binning needs a positive num-bins: ${describe(x)}`);
    if (b.strategy === 'bin-width' && !(typeof b['bin-width'] === 'number' && b['bin-width'] > 0)) throw invalidQuery(`Invalid ${where}: bin-width binning needs a positive bin-width: ${describe(x)}`);
  }
}

/** Checks a clause tree (expressions, filters and aggregations nest in each other). */
function checkClause(x: unknown, where: string): void {
  if (!Array.isArray(x)) return;
  if (!isClause(x)) {
    for (const item of x) checkClause(item, where);
    return;
  }
  const [name, ...args] = x;
  const arity = AGGREGATIONS[name] ?? FILTERS[name] ?? EXPRESSIONS[name];
  if (!arity && !['asc', 'desc'].includes(name)) throw invalidQuery(`Invalid ${where}: unknown clause "${name}": ${describe(x)}`);
  if (name === 'field') {
    checkArity(name, args, [1, 2], where);
    checkFieldRef(x, where);
    return;
  }
  if (arity) checkArity(name, args, arity, where);
  if (name === 'case' || name === 'if') {
    if (!Array.isArray(args[0]) || args[0].some((pair: unknown) => !Array.isArray(pair) || pair.length !== 2)) {
      throw invalidQuery(`Invalid ${where}: case needs a list of [condition, value] pairs: ${describe(x)}`);
    }
  }
  for (const a of args) {
    if (Array.isArray(a)) checkClause(a, where);
    else if (a && typeof a === 'object') for (const v of Object.values(a)) checkClause(v, where);
  }
}

function checkRef(x: unknown, where: string): void {
  if (!isClause(x) || !['field', 'expression', 'aggregation'].includes(x[0])) throw invalidQuery(`Invalid ${where}: expected a field, expression or aggregation reference, got ${describe(x)}`);
  checkClause(x, where);
}

function checkJoin(j: Join, index: number, aliases: Set<string>): void {
  const where = `join ${j.alias ?? index}`;
  const hasTable = j['source-table'] !== undefined;
  const hasQuery = j['source-query'] !== undefined;
  if (hasTable === hasQuery) throw invalidQuery(`Invalid ${where}: exactly one of source-table and source-query is required.`);
  if (hasTable) checkSourceTable(j['source-table'], where);
  if (hasQuery) checkSourceQuery(j['source-query']!);
  if (j.strategy !== undefined && !JOIN_STRATEGIES.has(j.strategy)) throw invalidQuery(`Invalid ${where}: unknown strategy "${String(j.strategy)}".`);
  if (j.alias !== undefined) {
    if (typeof j.alias !== 'string' || !j.alias) throw invalidQuery(`Invalid ${where}: alias must be a non-empty string.`);
    if (aliases.has(j.alias)) throw invalidQuery(`Invalid joins: the alias "${j.alias}" is used twice.`);
    aliases.add(j.alias);
  }
  if (j.condition !== undefined) checkClause(j.condition, `${where} condition`);
  if (j.fields !== undefined && j.fields !== 'all' && j.fields !== 'none' && !Array.isArray(j.fields)) throw invalidQuery(`Invalid ${where}: fields must be "all", "none" or a list of field refs.`);
}

function checkSourceTable(x: unknown, where: string): void {
  if (typeof x === 'number' && Number.isInteger(x) && x > 0) return;
  if (typeof x === 'string' && /^card__[1-9]\d*$/.test(x)) return;
  throw invalidQuery(`Invalid ${where}: source-table must be a table id or "card__<id>", got ${describe(x)}`);
}

function checkSourceQuery(sq: unknown): void {
  if (!sq || typeof sq !== 'object') throw invalidQuery('Invalid source-query: must be a map.');
  if ('native' in sq) {
    if (typeof (sq as { native: unknown }).native !== 'string') throw invalidQuery('Invalid source-query: native must be a SQL string.');
    checkTemplateTags((sq as { 'template-tags'?: Record<string, TemplateTag> })['template-tags']);
    return;
  }
  checkStage(sq as MbqlQuery);
}

function checkStage(q: MbqlQuery): void {
  const hasTable = q['source-table'] !== undefined;
  const hasQuery = q['source-query'] !== undefined;
  if (hasTable === hasQuery) throw invalidQuery('Invalid query: exactly one of source-table and source-query is required.');
  if (hasTable) checkSourceTable(q['source-table'], 'query');
  if (hasQuery) checkSourceQuery(q['source-query']);
  if (q.aggregation !== undefined) {
    if (!Array.isArray(q.aggregation)) throw invalidQuery('Invalid aggregation: must be a list of aggregation clauses.');
    for (const a of q.aggregation) {
      if (!isClause(a)) throw invalidQuery(`Invalid aggregation: ${describe(a)}`);
      checkClause(a, 'aggregation');
    }
  }
  for (const key of ['breakout', 'fields'] as const) {
    const list = q[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalidQuery(`Invalid ${key}: must be a list of field references.`);
    for (const f of list) {
      if (!isClause(f) || !['field', 'expression'].includes(f[0])) throw invalidQuery(`Invalid ${key}: expected a field or expression reference, got ${describe(f)}`);
      checkClause(f, key);
    }
  }
  if (q.filter !== undefined) {
    if (!isClause(q.filter)) throw invalidQuery(`Invalid filter: ${describe(q.filter)}`);
    checkClause(q.filter, 'filter');
  }
  if (q.expressions !== undefined) {
    if (typeof q.expressions !== 'object' || Array.isArray(q.expressions)) throw invalidQuery('Invalid expressions: must be a map of name → expression.');
    for (const [name, e] of Object.entries(q.expressions)) {
      if (!name) throw invalidQuery('Invalid expressions: an expression needs a name.');
      checkClause(e, `expression "${name}"`);
    }
  }
  if (q['order-by'] !== undefined) {
    for (const o of q['order-by']) {
      if (!isClause(o) || (o[0] !== 'asc' && o[0] !== 'desc') || o.length !== 2) throw invalidQuery(`Invalid order-by: expected ["asc"|"desc", ref], got ${describe(o)}`);
      checkRef(o[1], 'order-by');
    }
  }
  // Row counts are written into the SQL as integers: past 2^53 a number has no exact integer (1e30 would be written
  // "1e+30"), and no engine has that many rows to skip anyway.
  if (q.limit !== undefined && !(typeof q.limit === 'number' && Number.isSafeInteger(q.limit) && q.limit >= 0)) {
    throw invalidQuery(`Invalid limit: must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got ${describe(q.limit)}`);
  }
  if (q.page !== undefined) {
    const p = q.page as unknown as Record<string, unknown>;
    if (!p || !(Number.isInteger(p.page) && (p.page as number) >= 1) || !(Number.isInteger(p.items) && (p.items as number) >= 1)) {
      throw invalidQuery(`Invalid page: must be {"page": ≥1, "items": ≥1}, got ${describe(q.page)}`);
    }
    if (!Number.isSafeInteger((p.page as number) * (p.items as number))) {
      throw invalidQuery(`Invalid page: page × items must be at most ${Number.MAX_SAFE_INTEGER}, got ${describe(q.page)}`);
    }
  }
  if (q.joins !== undefined) {
    if (!Array.isArray(q.joins)) throw invalidQuery('Invalid joins: must be a list of join maps.');
    const aliases = new Set<string>();
    q.joins.forEach((j, i) => checkJoin(j, i, aliases));
  }
}

function checkTemplateTags(tags: Record<string, TemplateTag> | undefined): void {
  if (tags === undefined || tags === null) return;
  if (typeof tags !== 'object' || Array.isArray(tags)) throw invalidQuery('Invalid template-tags: must be a map of tag name → tag.');
  for (const [name, tag] of Object.entries(tags)) {
    if (!tag || typeof tag !== 'object') throw invalidQuery(`Invalid template tag "${name}": must be a map.`);
    if (!TAG_TYPES.has(tag.type)) throw invalidQuery(`Invalid template tag "${name}": unknown type "${String(tag.type)}".`);
    if (tag.type === 'dimension' && !isClause(tag.dimension, 'field')) throw invalidQuery(`Invalid template tag "${name}": a field filter needs a "dimension" field reference.`);
    if (tag.type === 'dimension') checkClause(tag.dimension, `template tag "${name}"`);
    if (tag.type === 'card' && !(Number.isInteger(tag['card-id']) && (tag['card-id'] as number) > 0)) throw invalidQuery(`Invalid template tag "${name}": a card tag needs a card-id.`);
  }
}

export function validateQuery(q: DatasetQuery): void {
  if (q.type !== 'query' && q.type !== 'native') throw invalidQuery(`Invalid query type: ${describe(q.type)} (expected "query" or "native").`);
  const db = q.database;
  if (!(typeof db === 'number' && Number.isInteger(db) && (db > 0 || db === SAVED_QUESTIONS_DATABASE))) {
    throw invalidQuery('`database` is required for all queries whose type is not `internal`.');
  }
  if (q.type === 'native') {
    if (!q.native || typeof q.native.query !== 'string') throw invalidQuery('A native query needs its SQL in native.query.');
    checkTemplateTags(q.native['template-tags']);
  } else {
    if (!q.query || typeof q.query !== 'object') throw invalidQuery('A structured query needs a "query" map.');
    checkStage(q.query);
    if (db === SAVED_QUESTIONS_DATABASE && typeof q.query['source-table'] !== 'string' && !q.query['source-query']) {
      throw invalidQuery('`database` is required for all queries whose type is not `internal`.');
    }
  }
  const c = q.constraints;
  if (c) {
    const max = c['max-results'];
    const bare = c['max-results-bare-rows'];
    if (max !== undefined && !(Number.isSafeInteger(max) && max >= 0)) throw invalidQuery(`Invalid constraints: max-results must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}.`);
    if (bare !== undefined && !(Number.isSafeInteger(bare) && bare >= 0)) throw invalidQuery(`Invalid constraints: max-results-bare-rows must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}.`);
    if (max !== undefined && bare !== undefined && bare > max) throw invalidQuery('Invalid constraints: max-results-bare-rows must be less than or equal to max-results.');
  }
  checkQueryLimits(q);
}
