// Stage 1, normalize: whatever spelling a client sent — legacy clause forms, upper-case or snake_case names, MBQL 5
// (pMBQL) stages — becomes one canonical legacy-MBQL tree (reference §5.9). Template-tag names, expression names
// and literal values are never touched. Nothing here looks at the app DB.

import { isClause, kebab, sameRef, clauseKey } from './clauses.js';
import { fromPmbql, isPmbql } from './pmbql.js';
import type { Clause, DatasetQuery, FieldRef, Join, MbqlQuery, NativeQuery, NativeSource, Parameter, TemplateTag } from './types.js';
import { invalidQuery } from '../errors.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../util/json-depth.js';

const CLAUSES = new Set(
  (
    'field expression aggregation field-id field-literal fk-> joined-field datetime-field binning-strategy aggregate-field named ' +
    'metric segment value absolute-datetime relative-datetime interval template-tag dimension variable ' +
    'count cum-count sum avg min max distinct cum-sum stddev var median percentile count-where sum-where share distinct-where ' +
    'aggregation-options rows offset ' +
    'and or not = != < > <= >= between is-null not-null is-empty not-empty contains does-not-contain starts-with ends-with inside ' +
    'time-interval relative-time-interval during in not-in ' +
    '+ - * / abs ceil floor round power sqrt exp log concat substring length trim ltrim rtrim upper lower replace ' +
    'regex-match-first regexextract host domain subdomain path month-name quarter-name day-name split-part text integer float ' +
    'date datetime collate case if coalesce datetime-add datetime-subtract datetime-diff now convert-timezone temporal-extract ' +
    'get-year get-quarter get-month get-week get-day get-day-of-week get-hour get-minute get-second today ' +
    'asc desc ascending descending'
  ).split(' '),
);

const AGGREGATIONS_WITH_FIELD = new Set(['count', 'cum-count', 'sum', 'avg', 'min', 'max', 'distinct', 'cum-sum', 'stddev', 'var', 'median', 'percentile', 'sum-where', 'distinct-where']);
const FILTERS_WITH_FIELD = new Set(['=', '!=', '<', '>', '<=', '>=', 'between', 'is-null', 'not-null', 'is-empty', 'not-empty', 'contains', 'does-not-contain', 'starts-with', 'ends-with', 'time-interval', 'relative-time-interval', 'during', 'in', 'not-in', 'inside']);
const UNIT_ARG: Record<string, number[]> = {
  'time-interval': [3],
  'relative-datetime': [2],
  interval: [2],
  'datetime-add': [3],
  'datetime-subtract': [3],
  'datetime-diff': [3],
  'temporal-extract': [2, 3],
  'get-week': [2],
  'relative-time-interval': [3, 5],
  during: [3],
};

const normalizeName = (name: string): string => (name.toLowerCase() === 'fk->' ? 'fk->' : kebab(name));

/** Normalizes a unit or enum value ("MONTH", "day_of_week" → "month", "day-of-week"). */
function enumValue(x: unknown): unknown {
  return typeof x === 'string' ? kebab(x) : x;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** Option maps: keys in kebab-case, clause values normalized; enum-valued keys lower-cased. */
function normalizeOptions(map: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(map)) {
    const key = k.startsWith('lib/') ? k : kebab(k);
    if (key === 'temporal-unit' || key === 'original-temporal-unit' || key === 'strategy') out[key] = enumValue(v);
    else if (key === 'binning' && isPlainObject(v)) out[key] = normalizeBinning(v);
    else out[key] = normalizeClause(v);
  }
  return out;
}

function normalizeBinning(v: Record<string, unknown>): Record<string, unknown> {
  const out = normalizeOptions(v);
  return out;
}

/** A field ref in canonical form; legacy field clauses are rewritten. Non-field input is normalized as a clause. */
export function normalizeFieldish(x: unknown): unknown {
  if (typeof x === 'number' && Number.isInteger(x)) return ['field', x, null];
  return normalizeClause(x);
}

function asField(x: unknown): FieldRef | null {
  const n = normalizeFieldish(x);
  return isClause(n, 'field') ? (n as FieldRef) : null;
}

function mergeFieldOptions(ref: FieldRef, extra: Record<string, unknown>): FieldRef {
  const merged = { ...(ref[2] ?? {}), ...extra };
  for (const [k, v] of Object.entries(merged)) if (v === undefined || v === null) delete merged[k];
  return ['field', ref[1], Object.keys(merged).length ? merged : null];
}

function normalizeField(x: unknown[]): FieldRef {
  const [, idOrRef, opts] = x;
  const options = isPlainObject(opts) ? normalizeOptions(opts) : {};
  if (isClause(idOrRef)) {
    const inner = asField(idOrRef);
    if (inner) return mergeFieldOptions(inner, options);
  }
  return mergeFieldOptions(['field', idOrRef as number | string, null], options);
}

/** Normalizes any MBQL clause (or returns a non-clause value unchanged). */
export function normalizeClause(x: unknown): unknown {
  if (!Array.isArray(x) || x.length === 0 || typeof x[0] !== 'string') return x;
  const name = normalizeName(x[0]);
  if (!CLAUSES.has(name)) return x;
  const args = x.slice(1);
  switch (name) {
    case 'field':
      return normalizeField(x);
    case 'field-id':
      return asField(args[0]) ?? ['field', args[0], null];
    case 'field-literal':
      return ['field', args[0], args[1] ? { 'base-type': args[1] } : null];
    case 'fk->': {
      const source = asField(args[0]);
      const dest = asField(args[1]);
      if (!source || !dest) throw invalidQuery('Invalid fk-> clause');
      return mergeFieldOptions(dest, { 'source-field': source[1] });
    }
    case 'joined-field': {
      const f = asField(args[1]);
      if (!f) throw invalidQuery('Invalid joined-field clause');
      return mergeFieldOptions(f, { 'join-alias': args[0] });
    }
    case 'datetime-field': {
      const f = asField(args[0]);
      if (!f) throw invalidQuery('Invalid datetime-field clause');
      const unit = args[1] === 'as' ? args[2] : args[1];
      return mergeFieldOptions(f, { 'temporal-unit': enumValue(unit) });
    }
    case 'binning-strategy': {
      const f = asField(args[0]);
      if (!f) throw invalidQuery('Invalid binning-strategy clause');
      const strategy = enumValue(args[1]) as string;
      const binning: Record<string, unknown> = { strategy };
      if (strategy === 'num-bins') binning['num-bins'] = args[2];
      if (strategy === 'bin-width') binning['bin-width'] = args[2];
      return mergeFieldOptions(f, { binning });
    }
    case 'aggregate-field':
      return ['aggregation', args[0]];
    case 'named': {
      const opts = isPlainObject(args[2]) ? normalizeOptions(args[2]) : {};
      const key = opts['use-as-display-name?'] === false ? 'name' : 'display-name';
      return ['aggregation-options', normalizeAggregation(args[0]), { [key]: args[1] }];
    }
    case 'aggregation-options':
      return ['aggregation-options', normalizeAggregation(args[0]), isPlainObject(args[1]) ? normalizeOptions(args[1]) : {}];
    case 'asc':
    case 'desc':
    case 'ascending':
    case 'descending':
      return [name.startsWith('asc') ? 'asc' : 'desc', normalizeFieldish(args[0])];
    case 'time-interval': {
      const f = normalizeFieldish(args[0]);
      const field = isClause(f, 'field') ? mergeFieldOptions(f as FieldRef, { 'temporal-unit': undefined }) : f;
      const n = typeof args[1] === 'string' ? kebab(args[1]) : args[1];
      const rest: unknown[] = [field, n, enumValue(args[2])];
      if (isPlainObject(args[3])) rest.push(normalizeOptions(args[3]));
      return ['time-interval', ...rest];
    }
    case 'substring': {
      const [s, start, len] = args.map(normalizeClause);
      const fixedStart = start === 0 ? 1 : start;
      return len === undefined ? ['substring', s, fixedStart] : ['substring', s, fixedStart, len];
    }
    case 'case':
    case 'if': {
      const pairs = Array.isArray(args[0]) ? args[0].map((pair) => (Array.isArray(pair) ? pair.map(normalizeClause) : pair)) : args[0];
      const out: unknown[] = [name, pairs];
      if (isPlainObject(args[1])) out.push(normalizeOptions(args[1]));
      return out;
    }
    default: {
      const out: unknown[] = [name];
      const unitPositions = UNIT_ARG[name] ?? [];
      args.forEach((arg, i) => {
        const position = i + 1;
        if (unitPositions.includes(position)) out.push(enumValue(arg));
        else if (position === 1 && (FILTERS_WITH_FIELD.has(name) || AGGREGATIONS_WITH_FIELD.has(name))) out.push(normalizeFieldish(arg));
        else if (isPlainObject(arg)) out.push(normalizeOptions(arg));
        else out.push(normalizeClause(arg));
      });
      if (name === 'relative-datetime' && typeof out[1] === 'string') out[1] = kebab(out[1]);
      return out;
    }
  }
}

function normalizeAggregation(x: unknown): unknown {
  if (typeof x === 'string') return [normalizeName(x)];
  return normalizeClause(x);
}

/** `"count"`, `["count"]`, `[["count"], ["sum", 3]]` → a list of aggregation clauses, `rows` removed. */
function normalizeAggregations(x: unknown): Clause[] {
  let list: unknown[];
  if (typeof x === 'string') list = [x];
  else if (isClause(x) && CLAUSES.has(normalizeName(x[0]))) list = [x];
  else if (Array.isArray(x)) list = x;
  else return [];
  return list.map(normalizeAggregation).filter((c) => !(isClause(c, 'rows'))) as Clause[];
}

function normalizeOrderBy(x: unknown): Clause[] {
  if (!Array.isArray(x)) return [];
  return x.map((item) => {
    if (isClause(item) && ['asc', 'desc', 'ascending', 'descending'].includes(normalizeName(item[0]))) return normalizeClause(item) as Clause;
    if (Array.isArray(item) && item.length === 2 && typeof item[1] === 'string') {
      const direction = normalizeName(item[1]).startsWith('asc') ? 'asc' : 'desc';
      return [direction, normalizeFieldish(item[0])] as Clause;
    }
    return ['asc', normalizeFieldish(item)] as Clause;
  });
}

/** Flattens nested and/or, drops duplicate arguments and unwraps single-argument compounds. */
export function simplifyFilter(filter: unknown): unknown {
  if (!isClause(filter)) return filter;
  const [name, ...args] = filter;
  if (name === 'not') {
    const inner = simplifyFilter(args[0]);
    if (isClause(inner, 'not')) return simplifyFilter(inner[1]);
    return ['not', inner];
  }
  if (name !== 'and' && name !== 'or') return filter;
  const flat: unknown[] = [];
  // Duplicates are found by key, not by comparing every pair: a filter of 20,000 conditions stays linear.
  const seen = new Set<string>();
  for (const arg of args.map(simplifyFilter)) {
    if (arg === null || arg === undefined) continue;
    const parts = isClause(arg, name) ? arg.slice(1) : [arg];
    for (const p of parts) {
      const key = clauseKey(p);
      if (seen.has(key)) continue;
      seen.add(key);
      flat.push(p);
    }
  }
  if (flat.length === 0) return null;
  if (flat.length === 1) return flat[0];
  return [name, ...flat];
}

function normalizeJoin(join: unknown): Join {
  if (!isPlainObject(join)) throw invalidQuery('Each join must be a map.');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(join)) {
    const key = kebab(k);
    if (key === 'source-query') out[key] = normalizeSourceQuery(v);
    else if (key === 'condition') out[key] = simplifyFilter(normalizeClause(v));
    else if (key === 'fields') out[key] = typeof v === 'string' ? kebab(v) : Array.isArray(v) ? v.map(normalizeFieldish) : v;
    else if (key === 'strategy') out[key] = enumValue(v);
    else out[key] = v;
  }
  return out as Join;
}

function normalizeSourceQuery(x: unknown): MbqlQuery | NativeSource {
  if (!isPlainObject(x)) throw invalidQuery('source-query must be a map.');
  const keys = Object.keys(x).map(kebab);
  if (keys.includes('native')) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) {
      const key = kebab(k);
      out[key] = key === 'template-tags' && isPlainObject(v) ? normalizeTemplateTags(v) : v;
    }
    return out as unknown as NativeSource;
  }
  return normalizeInner(x);
}

/** Normalizes an inner MBQL query (one stage and, recursively, its sources). */
export function normalizeInner(query: Record<string, unknown>): MbqlQuery {
  const out: MbqlQuery = {};
  for (const [k, v] of Object.entries(query)) {
    const key = kebab(k);
    if (v === null || v === undefined) continue;
    switch (key) {
      case 'source-query':
        out[key] = normalizeSourceQuery(v);
        break;
      case 'aggregation': {
        const list = normalizeAggregations(v);
        if (list.length) out.aggregation = list;
        break;
      }
      case 'breakout':
      case 'fields':
        if (Array.isArray(v) && v.length) out[key] = v.map(normalizeFieldish) as Clause[];
        break;
      case 'filter': {
        const f = simplifyFilter(normalizeClause(v));
        if (f) out.filter = f as Clause;
        break;
      }
      case 'order-by': {
        const list = normalizeOrderBy(v);
        if (list.length) out['order-by'] = list;
        break;
      }
      case 'expressions':
        if (isPlainObject(v) && Object.keys(v).length) {
          const exprs: Record<string, unknown> = {};
          for (const [name, e] of Object.entries(v)) exprs[name] = normalizeClause(e);
          out.expressions = exprs;
        }
        break;
      case 'joins':
        if (Array.isArray(v) && v.length) out.joins = v.map(normalizeJoin);
        break;
      case 'page':
        if (isPlainObject(v)) out.page = v as unknown as MbqlQuery['page'];
        break;
      default:
        out[key] = v;
    }
  }
  // Breakout fields never also appear in fields.
  if (out.breakout && out.fields) {
    const fields = out.fields.filter((f) => !out.breakout!.some((b) => sameRef(b, f)));
    if (fields.length) out.fields = fields;
    else delete out.fields;
  }
  return out;
}

export function normalizeTemplateTags(tags: Record<string, unknown>): Record<string, TemplateTag> {
  const out: Record<string, TemplateTag> = {};
  for (const [name, tag] of Object.entries(tags)) {
    if (!isPlainObject(tag)) continue;
    const t: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(tag)) {
      const key = kebab(k);
      if (key === 'type' || key === 'widget-type') t[key] = typeof v === 'string' ? v.toLowerCase().replace(/_/g, '-') : v;
      else if (key === 'dimension') t[key] = normalizeFieldish(v);
      else if (key === 'options' && isPlainObject(v)) t[key] = normalizeOptions(v);
      else t[key] = v;
    }
    if (t.name === undefined) t.name = name;
    out[name] = t as unknown as TemplateTag;
  }
  return out;
}

function normalizeNative(native: unknown): NativeQuery {
  if (!isPlainObject(native)) throw invalidQuery('native must be a map.');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(native)) {
    const key = kebab(k);
    out[key] = key === 'template-tags' && isPlainObject(v) ? normalizeTemplateTags(v) : v;
  }
  return out as NativeQuery;
}

export function normalizeParameter(p: unknown): Parameter {
  if (!isPlainObject(p)) throw invalidQuery('Each parameter must be a map.');
  checkDepth(p, 'parameter');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) {
    const key = kebab(k);
    if (key === 'target') out[key] = normalizeTarget(v);
    else if (key === 'type') out[key] = typeof v === 'string' ? v.toLowerCase() : v;
    else out[key] = v;
  }
  return out as Parameter;
}

function normalizeTarget(target: unknown): unknown {
  if (!Array.isArray(target) || typeof target[0] !== 'string') return target;
  const kind = kebab(target[0]);
  const inner = target[1];
  let normalizedInner: unknown = inner;
  if (isClause(inner)) {
    normalizedInner = kebab(inner[0]) === 'template-tag' ? ['template-tag', inner[1]] : normalizeFieldish(inner);
  }
  return target.length > 2 ? [kind, normalizedInner, target[2]] : [kind, normalizedInner];
}

/**
 * Queries reach the engine from request bodies (nested at most MAX_JSON_DEPTH levels), but also from the app DB (a
 * card saved before that bound) and from MBQL 5's flat list of stages (each becomes a level of `source-query`): what
 * is deeper is refused here, before the recursive steps below and after them.
 */
function checkDepth(value: unknown, what: string): void {
  if (jsonDeeperThan(value)) throw invalidQuery(`Invalid ${what}: it is nested more than ${MAX_JSON_DEPTH} levels deep.`);
}

/** The whole dataset query → canonical legacy MBQL. Accepts MBQL 5 (`lib/type`) input too. */
export function normalizeQuery(input: unknown): DatasetQuery {
  if (!isPlainObject(input)) throw invalidQuery('The query must be a map.');
  checkDepth(input, 'query');
  const source = isPmbql(input) ? fromPmbql(input) : input;
  if (source !== input) checkDepth(source, 'query');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) {
    const key = kebab(k);
    switch (key) {
      case 'type':
        out.type = typeof v === 'string' ? v.toLowerCase() : v;
        break;
      case 'query':
        if (isPlainObject(v)) out.query = normalizeInner(v);
        else out.query = v;
        break;
      case 'native':
        out.native = normalizeNative(v);
        break;
      case 'parameters':
        if (Array.isArray(v) && v.length) out.parameters = v.map(normalizeParameter);
        break;
      case 'constraints':
      case 'middleware':
        if (isPlainObject(v)) {
          const m: Record<string, unknown> = {};
          for (const [mk, mv] of Object.entries(v)) m[kebab(mk)] = mv;
          out[key] = m;
        }
        break;
      default:
        out[key] = v;
    }
  }
  return out as DatasetQuery;
}
