// Reading MBQL clauses: names, field refs and their options, walking a tree.

import type { Clause, FieldOptions, FieldRef } from './types.js';

export function isClause(x: unknown, name?: string): x is Clause {
  return Array.isArray(x) && x.length > 0 && typeof x[0] === 'string' && (name === undefined || x[0] === name);
}

export function isFieldRef(x: unknown): x is FieldRef {
  return isClause(x, 'field');
}

export function fieldOptions(ref: FieldRef): FieldOptions {
  return (ref[2] ?? {}) as FieldOptions;
}

/** A copy of a field ref with options changed; options left empty become null, as Metabase writes them. */
export function withFieldOptions(ref: FieldRef, changes: Partial<FieldOptions> | ((o: FieldOptions) => FieldOptions)): FieldRef {
  const current = { ...fieldOptions(ref) };
  const next = typeof changes === 'function' ? changes(current) : { ...current, ...changes };
  for (const [k, v] of Object.entries(next)) if (v === undefined || v === null) delete next[k];
  return ['field', ref[1], Object.keys(next).length ? next : null];
}

/** Every sub-clause of `x` (depth first, `x` included) for which `visit` is called. */
export function walkClauses(x: unknown, visit: (clause: Clause) => void): void {
  if (Array.isArray(x)) {
    if (isClause(x)) visit(x);
    for (const item of x) walkClauses(item, visit);
  } else if (x && typeof x === 'object') {
    for (const v of Object.values(x)) walkClauses(v, visit);
  }
}

/** Rebuilds `x` bottom-up, replacing each clause by what `f` returns for it. */
export function mapClauses(x: unknown, f: (clause: Clause) => unknown): unknown {
  if (Array.isArray(x)) {
    const mapped = x.map((item) => mapClauses(item, f));
    return isClause(mapped) ? f(mapped as Clause) : mapped;
  }
  if (x && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = mapClauses(v, f);
    return out;
  }
  return x;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => deepEqual(v, b[i]));
  }
  if (typeof a === 'object') {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => deepEqual((a as any)[k], (b as any)[k]));
  }
  return false;
}

/** A text that two values share exactly when they are deepEqual (option maps in any key order). */
export function clauseKey(x: unknown): string {
  return JSON.stringify(x, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  ) ?? 'undefined';
}

/** Field refs compare equal ignoring option key order (and null vs {} options). */
export function sameRef(a: unknown, b: unknown): boolean {
  if (isFieldRef(a) && isFieldRef(b)) return a[1] === b[1] && deepEqual(a[2] ?? {}, b[2] ?? {});
  return deepEqual(a, b);
}

export const TEMPORAL_TRUNC_UNITS = ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const TEMPORAL_EXTRACT_UNITS = [
  'minute-of-hour',
  'hour-of-day',
  'day-of-week',
  'day-of-month',
  'day-of-year',
  'week-of-year',
  'month-of-year',
  'quarter-of-year',
  'year-of-era',
] as const;
export const DATE_UNITS = ['default', 'day', 'day-of-week', 'day-of-month', 'day-of-year', 'week', 'week-of-year', 'month', 'month-of-year', 'quarter', 'quarter-of-year', 'year', 'year-of-era'];
export const TIME_UNITS = ['default', 'millisecond', 'second', 'minute', 'minute-of-hour', 'hour', 'hour-of-day'];
export const DATETIME_UNITS = [...new Set([...DATE_UNITS, ...TIME_UNITS])];

export function isExtractionUnit(unit: string): boolean {
  return (TEMPORAL_EXTRACT_UNITS as readonly string[]).includes(unit);
}

/** `"SOURCE_TABLE"` → `"source-table"`: Metabase's keyword normalization. */
export function kebab(name: string): string {
  return name.toLowerCase().replace(/_/g, '-');
}
