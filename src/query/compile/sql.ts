// SQL fragments: the only way the compiler builds SQL text. A fragment is a list of parts — compiler-written text,
// bound values and identifiers — and only the dialect turns it into a string, quoting identifiers and writing a
// placeholder for every value. Values can't be interpolated as text: the `sql` template accepts fragments, values
// made with `param()` and identifiers made with `ident()`, nothing else.

import { invalidQuery } from '../errors.js';
import { checkSqlText } from '../mbql/limits.js';

export type ParamType =
  | 'text'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'time'
  | 'instant'
  /** A value whose type the engine infers from context (native template tags). */
  | 'unknown'
  /** A list of values bound as one array (PostgreSQL's `= ANY($1)` for long IN lists). */
  | 'text[]'
  | 'integer[]'
  | 'float[]';

export class Param {
  constructor(
    readonly value: unknown,
    readonly type: ParamType,
  ) {}
}

export class Ident {
  /**
   * A possibly qualified identifier: `["PUBLIC", "ORDERS", "ID"]` renders as `"PUBLIC"."ORDERS"."ID"`. With
   * `alias`, the last part is a column alias the compiler chose (see `columnAlias`).
   */
  constructor(
    readonly parts: readonly string[],
    readonly alias = false,
  ) {}
}

export type SqlPart = string | Param | Ident | Sql;

export class Sql {
  constructor(readonly parts: readonly SqlPart[]) {}

  /** True when the fragment is empty text. */
  get isEmpty(): boolean {
    return this.parts.every((p) => (typeof p === 'string' ? p === '' : p instanceof Sql ? p.isEmpty : false));
  }
}

type Interpolation = Sql | Param | Ident;

/** `sql\`COUNT(${x})\`` — the literal text is compiler-written; interpolations must be fragments, params or idents. */
export function sql(strings: TemplateStringsArray, ...values: Interpolation[]): Sql {
  const parts: SqlPart[] = [];
  strings.forEach((text, i) => {
    if (text) parts.push(text);
    if (i < values.length) {
      const v = values[i];
      if (!(v instanceof Sql || v instanceof Param || v instanceof Ident)) {
        throw new TypeError('sql`…`: only Sql, Param and Ident values can be interpolated');
      }
      parts.push(v);
    }
  });
  return new Sql(parts);
}

export const param = (value: unknown, type: ParamType): Param => new Param(value, type);
export const ident = (...parts: string[]): Ident => new Ident(parts);
/**
 * A column alias the compiler chose (a result column's name), optionally qualified by its subquery's alias — where
 * it is defined (`AS …`) and wherever an outer query reads it. Engines that cap identifier length write a long one
 * shortened, the same way everywhere (`SqlRenderer.quoteAlias`), where the engine would cut it and make names that
 * differ only past the cap collide.
 */
export const columnAlias = (...parts: string[]): Ident => new Ident(parts, true);

/**
 * Compiler-owned text: keywords, function names, operators. Never call it with anything derived from a request;
 * the only exception is `number()`, which checks that its argument really is a finite number.
 */
export const raw = (text: string): Sql => new Sql([text]);

/** SQL a person wrote (a native query, a snippet): passed through as written; its values are still bound. */
export const nativeText = (text: string): Sql => new Sql([text]);

/** A numeric constant the compiler computed itself (a unit multiplier, a week offset); checked to be a number. */
export function number(n: number): Sql {
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new TypeError(`not a finite number: ${String(n)}`);
  return new Sql([String(n)]);
}

export function join(list: readonly Interpolation[], separator = ', '): Sql {
  const parts: SqlPart[] = [];
  list.forEach((item, i) => {
    if (i > 0) parts.push(separator);
    parts.push(item);
  });
  return new Sql(parts);
}

/** Terms `chain` writes in one run. */
const CHAIN_WIDTH = 32;

/**
 * `(a OR b OR …)`: terms joined by an associative operator, in parentheses. Past CHAIN_WIDTH terms they are grouped
 * in parenthesized runs, and runs of runs: an engine parses a chain of N terms N levels deep, and SQLite and DuckDB
 * refuse expressions more than 1,000 levels deep (a filter of 20,000 conditions is 3 runs deep instead).
 */
export function chain(terms: readonly Sql[], operator: string): Sql {
  let level = terms;
  while (level.length > CHAIN_WIDTH) {
    const grouped: Sql[] = [];
    for (let i = 0; i < level.length; i += CHAIN_WIDTH) {
      const run = level.slice(i, i + CHAIN_WIDTH);
      grouped.push(run.length === 1 ? run[0] : sql`(${join(run, operator)})`);
    }
    level = grouped;
  }
  return sql`(${join(level, operator)})`;
}

export const EMPTY = new Sql([]);

/** What a dialect has to say for a fragment to become text. */
export interface SqlRenderer {
  quoteIdentifier(name: string): string;
  /** A column alias of the compiler's (see `columnAlias`), quoted. */
  quoteAlias(name: string): string;
  /** The placeholder for the `index`th (1-based) bound value. */
  placeholder(index: number): string;
  /** Whether placeholders are numbered, so that one bound value can be referred to from several places. */
  readonly numberedPlaceholders: boolean;
  /** Wraps a placeholder so the engine knows the value's type (`$1::bigint`, `CAST(? AS DATE)`). */
  typedPlaceholder(placeholder: string, type: ParamType, value: unknown): string;
  /** The value handed to the driver for a bound parameter (e.g. booleans as 1/0 where the engine needs it). */
  bindValue(value: unknown, type: ParamType): unknown;
  /** The value written as an escaped literal (only for showing SQL to people, never for running it). */
  inlineLiteral(value: unknown, type: ParamType): string;
}

/**
 * The longest SQL text a query may compile to. Far beyond any query a person writes (a 10 MB request body included),
 * it stops the queries whose parts repeat each other — a card or snippet used twice by one used twice, and so on —
 * before their text grows past what a server can hold.
 */
export const MAX_SQL_LENGTH = 20_000_000;

export interface RenderedSql {
  sql: string;
  params: unknown[];
}

/**
 * Fragment → text + bound values. With `inline`, values are written as escaped literals instead (for
 * `/api/dataset/native`, where people read the SQL or turn it into a native question).
 */
export function render(fragment: Sql, dialect: SqlRenderer, options: { inline?: boolean } = {}): RenderedSql {
  const out: string[] = [];
  let length = 0;
  const write = (text: string) => {
    length += text.length;
    if (length > MAX_SQL_LENGTH) throw invalidQuery(`Invalid query: its SQL would be longer than ${MAX_SQL_LENGTH.toLocaleString('en-US')} characters.`);
    out.push(text);
  };
  const params: unknown[] = [];
  const seen = new Map<string, string>();
  const visit = (part: SqlPart) => {
    if (typeof part === 'string') {
      // Compiler text never holds NUL: this is SQL a person wrote (a snippet), which the engine would cut there.
      checkSqlText(part, 'native query');
      write(part);
    } else if (part instanceof Sql) for (const p of part.parts) visit(p);
    else if (part instanceof Ident) write(part.parts.map((p, i) => (part.alias && i === part.parts.length - 1 ? dialect.quoteAlias(p) : dialect.quoteIdentifier(p))).join('.'));
    else if (options.inline) write(dialect.inlineLiteral(part.value, part.type));
    else {
      // Engines with numbered placeholders get one placeholder per distinct value, so that an expression that
      // appears twice (SELECT and GROUP BY, a window's ORDER BY) is textually identical.
      const key = dialect.numberedPlaceholders ? paramKey(part) : null;
      const existing = key === null ? undefined : seen.get(key);
      if (existing) {
        write(existing);
        return;
      }
      params.push(dialect.bindValue(part.value, part.type));
      const text = dialect.typedPlaceholder(dialect.placeholder(params.length), part.type, part.value);
      if (key !== null) seen.set(key, text);
      write(text);
    }
  };
  visit(fragment);
  return { sql: out.join(''), params };
}

function paramKey(p: Param): string | null {
  const v = p.value;
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
    return `${p.type}:${typeof v}:${String(v)}`;
  }
  // An array bound as one value (a JSON path, a long IN list) is shared the same way.
  if (Array.isArray(v) && v.every((x) => x === null || typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)))) {
    return `${p.type}:array:${JSON.stringify(v)}`;
  }
  return null;
}
