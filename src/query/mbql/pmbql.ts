// MBQL 5 ("pMBQL", reference §5.10) → legacy MBQL. Stages become nested `source-query`s, every clause's options
// map moves from second position to where legacy MBQL keeps it, `source-card` becomes `card__N`, `filters` becomes
// one `filter`, expressions become a name → clause map and `lib/uuid` aggregation refs become indexes.

import { invalidQuery } from '../errors.js';

type Json = any;

const isObject = (x: unknown): x is Record<string, Json> => x !== null && typeof x === 'object' && !Array.isArray(x);

export function isPmbql(query: Record<string, unknown>): boolean {
  return typeof query['lib/type'] === 'string' || Array.isArray(query.stages);
}

/** Options of a pMBQL clause without the lib-internal keys. */
function publicOptions(opts: Record<string, Json>, drop: string[] = []): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(opts)) {
    if (k.startsWith('lib/') || drop.includes(k)) continue;
    out[k] = v;
  }
  return out;
}

const AGGREGATION_NAMES = new Set([
  'count', 'cum-count', 'sum', 'avg', 'min', 'max', 'distinct', 'cum-sum', 'stddev', 'var', 'median', 'percentile',
  'count-where', 'sum-where', 'share', 'distinct-where', 'metric',
]);

interface StageContext {
  /** lib/uuid of each aggregation → its index. */
  aggregationIndex: Map<string, number>;
}

function convertClause(x: Json, ctx: StageContext): Json {
  if (!Array.isArray(x)) return x;
  if (x.length >= 2 && typeof x[0] === 'string' && isObject(x[1])) {
    const [name, opts, ...args] = x as [string, Record<string, Json>, ...Json[]];
    switch (name) {
      case 'field': {
        const o = publicOptions(opts, ['effective-type']);
        return ['field', args[0], Object.keys(o).length ? o : null];
      }
      case 'expression':
        return ['expression', args[0]];
      case 'aggregation': {
        const index = ctx.aggregationIndex.get(String(args[0]));
        if (index === undefined) throw invalidQuery(`No aggregation with uuid ${String(args[0])}`);
        return ['aggregation', index];
      }
      case 'value':
        return args[0];
      case 'case':
      case 'if': {
        const pairs = (args[0] as Json[]).map((pair: Json[]) => pair.map((p) => convertClause(p, ctx)));
        return args.length > 1 ? [name, pairs, { default: convertClause(args[1], ctx) }] : [name, pairs];
      }
      default: {
        const converted = args.map((a) => convertClause(a, ctx));
        const o = publicOptions(opts, ['name', 'display-name', 'base-type', 'effective-type']);
        const clause = Object.keys(o).length ? [name, ...converted, o] : [name, ...converted];
        if (AGGREGATION_NAMES.has(name) && (opts.name || opts['display-name'])) {
          const naming: Record<string, Json> = {};
          if (opts.name) naming.name = opts.name;
          if (opts['display-name']) naming['display-name'] = opts['display-name'];
          return ['aggregation-options', clause, naming];
        }
        return clause;
      }
    }
  }
  return x.map((item) => convertClause(item, ctx));
}

function combineFilters(filters: Json[] | undefined, ctx: StageContext): Json {
  if (!filters || filters.length === 0) return undefined;
  const converted = filters.map((f) => convertClause(f, ctx));
  return converted.length === 1 ? converted[0] : ['and', ...converted];
}

function convertStage(stage: Record<string, Json>, source: Json): Json {
  if (stage['lib/type'] === 'mbql.stage/native') {
    const out: Record<string, Json> = { native: stage.native };
    if (stage['template-tags']) out['template-tags'] = stage['template-tags'];
    return out;
  }
  const ctx: StageContext = { aggregationIndex: new Map() };
  (stage.aggregation ?? []).forEach((a: Json, i: number) => {
    if (Array.isArray(a) && isObject(a[1]) && a[1]['lib/uuid']) ctx.aggregationIndex.set(a[1]['lib/uuid'], i);
  });
  const out: Record<string, Json> = {};
  if (source) out['source-query'] = source;
  if (stage['source-table'] !== undefined) out['source-table'] = stage['source-table'];
  if (stage['source-card'] !== undefined) out['source-table'] = `card__${stage['source-card']}`;
  if (stage.aggregation) out.aggregation = stage.aggregation.map((a: Json) => convertClause(a, ctx));
  if (stage.breakout) out.breakout = stage.breakout.map((b: Json) => convertClause(b, ctx));
  if (stage.fields) out.fields = stage.fields.map((f: Json) => convertClause(f, ctx));
  const filter = combineFilters(stage.filters, ctx);
  if (filter) out.filter = filter;
  if (stage['order-by']) out['order-by'] = stage['order-by'].map((o: Json) => convertClause(o, ctx));
  if (stage.limit !== undefined && stage.limit !== null) out.limit = stage.limit;
  if (stage.page) out.page = stage.page;
  if (Array.isArray(stage.expressions)) {
    const exprs: Record<string, Json> = {};
    for (const e of stage.expressions) {
      const name = Array.isArray(e) && isObject(e[1]) ? e[1]['lib/expression-name'] : undefined;
      if (!name) throw invalidQuery('Each MBQL 5 expression needs lib/expression-name.');
      exprs[name] = convertClause(e, ctx);
    }
    out.expressions = exprs;
  } else if (isObject(stage.expressions)) {
    out.expressions = stage.expressions;
  }
  if (stage.joins) out.joins = stage.joins.map((j: Json) => convertJoin(j, ctx));
  return out;
}

function convertJoin(join: Record<string, Json>, ctx: StageContext): Json {
  const inner = convertStages(join.stages ?? []);
  const out: Record<string, Json> = {};
  // A single simple stage joins its table or card directly.
  if (inner && !inner['source-query'] && Object.keys(inner).every((k) => k === 'source-table')) out['source-table'] = inner['source-table'];
  else if (inner) out['source-query'] = inner;
  if (join.alias) out.alias = join.alias;
  if (join.strategy) out.strategy = join.strategy;
  if (join.fields !== undefined) out.fields = Array.isArray(join.fields) ? join.fields.map((f: Json) => convertClause(f, ctx)) : join.fields;
  const condition = combineFilters(join.conditions, ctx);
  if (condition) out.condition = condition;
  return out;
}

function convertStages(stages: Json[]): Json {
  let current: Json = undefined;
  for (const stage of stages) current = convertStage(stage, current);
  return current;
}

/** A pMBQL dataset query → a legacy one (still to be normalized). */
export function fromPmbql(query: Record<string, Json>): Record<string, Json> {
  const stages: Json[] = query.stages ?? [];
  if (stages.length === 0) throw invalidQuery('An MBQL 5 query needs at least one stage.');
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'lib/type' || k === 'stages' || k.startsWith('lib/')) continue;
    out[k] = v;
  }
  const last = stages[stages.length - 1];
  if (stages.length === 1 && last['lib/type'] === 'mbql.stage/native') {
    out.type = 'native';
    out.native = { query: last.native, 'template-tags': last['template-tags'] ?? {} };
    return out;
  }
  out.type = 'query';
  out.query = convertStages(stages);
  return out;
}
