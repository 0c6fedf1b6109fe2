// `definition_description`: a segment's filter in words, as the segment list shows it ("Filtered by Category is
// Widget and Price is greater than 50"). Columns are named by their fields' display names (an implicit join's as
// "Product → Category"), nested segments by their names. Anything not recognized is named by its clause.

import type { AppContext } from '../context.js';
import { isClause, walkClauses } from '../query/mbql/clauses.js';
import type { Clause } from '../query/mbql/types.js';

interface Names {
  field(id: number): string | null;
  segment(id: number): string | null;
}

/** "a", "a and b", "a, b, and c" (the conjunction Metabase's descriptions use). */
function joinWith(conjunction: string, parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  if (parts.length === 2) return `${parts[0]} ${conjunction} ${parts[1]}`;
  return `${parts.slice(0, -1).join(', ')}, ${conjunction} ${parts[parts.length - 1]}`;
}

function stripId(name: string): string {
  return name.replace(/ ID$/i, '');
}

function column(ref: unknown, names: Names): string {
  if (isClause(ref, 'field')) {
    const [, id, opts] = ref;
    const options = (opts ?? {}) as Record<string, unknown>;
    const own = typeof id === 'number' ? names.field(id) ?? `Field ${id}` : String(id);
    const via = typeof options['source-field'] === 'number' ? names.field(options['source-field'] as number) : null;
    return via ? `${stripId(via)} → ${own}` : own;
  }
  if (isClause(ref, 'expression')) return String(ref[1]);
  return JSON.stringify(ref);
}

function value(v: unknown): string {
  if (isClause(v, 'value')) return value(v[1]);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

const COMPARISONS: Record<string, string> = {
  '<': 'is less than',
  '>': 'is greater than',
  '<=': 'is less than or equal to',
  '>=': 'is greater than or equal to',
};

const STRING_OPS: Record<string, string> = {
  contains: 'contains',
  'does-not-contain': 'does not contain',
  'starts-with': 'starts with',
  'ends-with': 'ends with',
};

function relative(n: unknown, unit: string): string {
  if (n === 'current' || n === 0) return unit === 'day' ? 'is today' : `is this ${unit}`;
  if (n === 'last' || n === -1) return unit === 'day' ? 'is yesterday' : `is in the previous ${unit}`;
  if (n === 'next' || n === 1) return unit === 'day' ? 'is tomorrow' : `is in the next ${unit}`;
  if (typeof n === 'number') return n < 0 ? `is in the previous ${-n} ${unit}s` : `is in the next ${n} ${unit}s`;
  return `is ${String(n)} ${unit}`;
}

function describeFilter(clause: unknown, names: Names): string {
  if (!isClause(clause)) return value(clause);
  const [name, ...args] = clause;
  switch (name) {
    case 'and':
      return joinWith('and', args.map((a) => describeFilter(a, names)));
    case 'or':
      return joinWith('or', args.map((a) => describeFilter(a, names)));
    case 'not':
      return `not ${describeFilter(args[0], names)}`;
    case 'segment':
      return typeof args[0] === 'number' ? names.segment(args[0]) ?? `Segment ${args[0]}` : String(args[0]);
    case '=':
    case '!=': {
      const values = args.slice(1);
      const verb = name === '=' ? 'is' : 'is not';
      return `${column(args[0], names)} ${verb} ${values.length === 1 ? value(values[0]) : `${values.length} selections`}`;
    }
    case '<':
    case '>':
    case '<=':
    case '>=':
      return `${column(args[0], names)} ${COMPARISONS[name]} ${value(args[1])}`;
    case 'between':
      return `${column(args[0], names)} is between ${value(args[1])} and ${value(args[2])}`;
    case 'is-null':
    case 'is-empty':
      return `${column(args[0], names)} is empty`;
    case 'not-null':
    case 'not-empty':
      return `${column(args[0], names)} is not empty`;
    case 'contains':
    case 'does-not-contain':
    case 'starts-with':
    case 'ends-with':
      return `${column(args[0], names)} ${STRING_OPS[name]} ${args.slice(1).filter((a) => !(a && typeof a === 'object' && !Array.isArray(a))).map(value).join(', ')}`;
    case 'time-interval':
      return `${column(args[0], names)} ${relative(args[1], String(args[2]))}`;
    default:
      return `${args.length ? `${column(args[0], names)} ` : ''}${name}${args.length > 1 ? ` ${args.slice(1).map(value).join(', ')}` : ''}`;
  }
}

/** Descriptions of many segment filters at once (one query for field names, one for segment names). */
export async function describeFilters(ctx: AppContext, filters: unknown[]): Promise<Array<string | null>> {
  const fieldIds = new Set<number>();
  const segmentIds = new Set<number>();
  for (const filter of filters) {
    walkClauses(filter, (c: Clause) => {
      if (c[0] === 'field') {
        if (typeof c[1] === 'number') fieldIds.add(c[1]);
        const sourceField = (c[2] as Record<string, unknown> | null | undefined)?.['source-field'];
        if (typeof sourceField === 'number') fieldIds.add(sourceField);
      }
      if (c[0] === 'segment' && typeof c[1] === 'number') segmentIds.add(c[1]);
    });
  }
  const [fields, segments] = await Promise.all([
    fieldIds.size ? ctx.db.selectFrom('metabase_field').select(['id', 'display_name']).where('id', 'in', [...fieldIds]).execute() : [],
    segmentIds.size ? ctx.db.selectFrom('segment').select(['id', 'name']).where('id', 'in', [...segmentIds]).execute() : [],
  ]);
  const fieldNames = new Map(fields.map((f) => [f.id, f.display_name]));
  const segmentNames = new Map(segments.map((s) => [s.id, s.name]));
  const names: Names = { field: (id) => fieldNames.get(id) ?? null, segment: (id) => segmentNames.get(id) ?? null };
  return filters.map((filter) => {
    if (!isClause(filter)) return null;
    // a top-level "and" is a list of filters
    const parts = filter[0] === 'and' ? filter.slice(1) : [filter];
    return `Filtered by ${joinWith('and', parts.map((p) => describeFilter(p, names)))}`;
  });
}
