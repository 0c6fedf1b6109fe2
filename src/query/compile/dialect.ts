// The SQL dialect: one method per SQL idiom that differs between engines. This base class writes standard SQL
// (mostly what PostgreSQL and DuckDB accept); each engine's src/drivers/<engine>/dialect.ts overrides what its
// engine spells differently. The compiler (./stage.ts and friends) only ever asks the dialect — it never writes
// engine-specific SQL itself.
//
// Conventions every dialect keeps, so that the same MBQL gives the same answer on every engine:
//   - temporal values handed around are the engine's own timestamp/date values (SQLite: canonical text);
//   - truncation to a unit returns a timestamp at the start of the unit (weeks start on `start-of-week`);
//   - `day-of-week` is 1..7 counted from `start-of-week`; `week-of-year` counts weeks (starting on
//     `start-of-week`) from the one holding January 1st, which is week 1;
//   - ascending order puts NULLs first, descending last (what MySQL and SQLite do without being asked);
//   - division is floating-point and NULL when the divisor is 0.

import { createHash } from 'node:crypto';
import { sql, raw, join, number, ident, param, type Sql, type SqlRenderer, type ParamType } from './sql.js';
import { zoneConversion, utcText } from './zones.js';
import { invalidQuery, unsupported, type QueryError } from '../errors.js';
import { checkIdentifier } from '../mbql/limits.js';

/** A decimal number written as text, in the regular-expression syntax every engine shares. */
export const NUMBER_PATTERN = '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$';

/** A compiler-made timestamp text, checked before it becomes SQL. */
export function checkedTimestamp(text: string): string {
  if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text)) throw new TypeError(`not a timestamp constant: ${text}`);
  return text;
}

export type TruncUnit = 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
export type BasicTruncUnit = Exclude<TruncUnit, 'week'>;
export type ExtractField = 'year' | 'quarter' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond';
export type IntervalUnit = 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
export type TemporalKind = 'date' | 'datetime' | 'time';
export type JoinStrategy = 'left-join' | 'right-join' | 'inner-join' | 'full-join';
export type StartOfWeek = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

/** ISO day number (Monday 1 … Sunday 7) of each start-of-week setting. */
export const ISO_DAY: Record<StartOfWeek, number> = {
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
  sunday: 7,
};

/** Metabase feature keywords the MBQL compiler checks before using an idiom. */
export const BASE_FEATURES = [
  'basic-aggregations',
  'standard-deviation-aggregations',
  'expressions',
  'expression-aggregations',
  'native-parameters',
  'nested-queries',
  'binning',
  'case-sensitivity-string-filter-options',
  'left-join',
  'inner-join',
  'right-join',
  'full-join',
  'advanced-math-expressions',
  'temporal-extract',
  'date-arithmetics',
  'datetime-diff',
  'now',
  'window-functions/cumulative',
  'split-part',
  'regex',
  'percentile-aggregations',
  'convert-timezone',
  'set-timezone',
] as const;

export abstract class SqlDialect implements SqlRenderer {
  abstract readonly engine: string;
  /** Features this engine supports (a subset of BASE_FEATURES). */
  abstract readonly features: ReadonlySet<string>;
  readonly numberedPlaceholders: boolean = true;

  supports(feature: string): boolean {
    return this.features.has(feature);
  }

  // ----- rendering -------------------------------------------------------------------------------------------

  /** The character that quotes identifiers (doubled inside one). */
  protected readonly identifierQuote: string = '"';

  /**
   * A quoted identifier, for the compiler and for the drivers' own statements alike. A NUL character would end the
   * statement's text on the engine, so no identifier holds one (the query's names were refused with a message naming
   * their clause by the validate stage; this is the guarantee for everything else).
   */
  quoteIdentifier(name: string): string {
    checkIdentifier(name, 'identifier');
    const q = this.identifierQuote;
    return q + name.split(q).join(q + q) + q;
  }

  /** The longest identifier the engine keeps, in UTF-8 bytes (it cuts longer ones), or null when it has no cap. */
  readonly maxIdentifierBytes: number | null = null;

  /**
   * A column alias the compiler chose: past the engine's cap it becomes its longest prefix that leaves room for `_`
   * and 8 hex digits of a hash of the whole name — the same text at the alias and at every reference, and names
   * alike in their first bytes stay apart. Results keep the full name (columns are read by position).
   */
  quoteAlias(name: string): string {
    const max = this.maxIdentifierBytes;
    if (max === null || Buffer.byteLength(name, 'utf8') <= max) return this.quoteIdentifier(name);
    let prefix = '';
    for (const ch of name) {
      if (Buffer.byteLength(prefix + ch, 'utf8') > max - 9) break;
      prefix += ch;
    }
    return this.quoteIdentifier(`${prefix}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`);
  }

  placeholder(index: number): string {
    return '$' + index;
  }

  /** The engine's type name for a bound value's type, or null to leave the placeholder bare. */
  protected abstract paramTypeName(type: ParamType): string | null;

  typedPlaceholder(placeholder: string, type: ParamType, _value?: unknown): string {
    const name = this.paramTypeName(type);
    return name ? `CAST(${placeholder} AS ${name})` : placeholder;
  }

  /**
   * How a string literal writes the NUL character (none can hold it raw: the engine would end the statement's text
   * there), or null when the engine's text can't hold NUL at all — then values with one are refused, bound or not.
   */
  protected readonly nulCharacter: string | null = 'CHR(0)';

  /** A text value this engine can't take (null when it can): see `nulCharacter`. */
  private refusedText(value: unknown): QueryError | null {
    if (this.nulCharacter !== null) return null;
    const text = Array.isArray(value) ? value.find((v) => typeof v === 'string' && v.includes('\u0000')) : value;
    if (typeof text !== 'string' || !text.includes('\u0000')) return null;
    const shown = JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
    return invalidQuery(`${this.engineName} text can't contain NUL characters (\\u0000), so the value ${shown} can't be used in a query on it.`);
  }

  /** The engine's name in messages. */
  protected get engineName(): string {
    return this.engine;
  }

  bindValue(value: unknown, type: ParamType): unknown {
    if (value === null || value === undefined) return null;
    if (type === 'integer' && typeof value === 'number' && !Number.isInteger(value)) return Math.trunc(value);
    const refused = this.refusedText(value);
    if (refused) throw refused;
    return value;
  }

  inlineLiteral(value: unknown, type: ParamType): string {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'NULL';
      return String(value);
    }
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    if (typeof value === 'bigint') return value.toString();
    const quoted = this.quoteString(String(value));
    const name = type === 'text' || type === 'unknown' ? null : this.paramTypeName(type);
    return name ? `CAST(${quoted} AS ${name})` : quoted;
  }

  quoteString(text: string): string {
    if (!text.includes('\u0000')) return "'" + text.replace(/'/g, "''") + "'";
    const refused = this.refusedText(text);
    if (refused) throw refused;
    return '(' + text.split('\u0000').map((part) => this.quoteString(part)).join(` || ${this.nulCharacter} || `) + ')';
  }

  // ----- query structure -------------------------------------------------------------------------------------

  /** `LIMIT n OFFSET m`; either may be null. */
  limitOffset(limit: number | null, offset: number | null): string {
    const parts: string[] = [];
    if (limit !== null) parts.push(`LIMIT ${Math.trunc(limit)}`);
    if (offset !== null && offset > 0) parts.push(`OFFSET ${Math.trunc(offset)}`);
    return parts.join(' ');
  }

  /** One ORDER BY item with the cross-engine null ordering (NULLs first ascending, last descending). */
  orderItem(expr: Sql, direction: 'asc' | 'desc'): Sql {
    return direction === 'asc' ? sql`${expr} ASC NULLS FIRST` : sql`${expr} DESC NULLS LAST`;
  }

  joinKeyword(strategy: JoinStrategy): string {
    switch (strategy) {
      case 'inner-join':
        return 'INNER JOIN';
      case 'right-join':
        return 'RIGHT JOIN';
      case 'full-join':
        return 'FULL OUTER JOIN';
      default:
        return 'LEFT JOIN';
    }
  }

  /** A table reference: schema-qualified when the engine has schemas. */
  table(schema: string | null, name: string): Sql {
    return schema ? sql`${ident(schema, name)}` : sql`${ident(name)}`;
  }

  /** Whether a SELECT list may end with `source.*` after named columns (all our engines accept it). */
  readonly supportsQualifiedStar: boolean = true;

  // ----- literals and casts ----------------------------------------------------------------------------------

  literal(value: unknown, type: ParamType): Sql {
    if (value === null || value === undefined) return raw('NULL');
    return sql`${param(value, type)}`;
  }

  booleanConstant(value: boolean): Sql {
    return raw(value ? 'TRUE' : 'FALSE');
  }

  /** A boolean condition used as a value (a column or an expression result). */
  booleanValue(condition: Sql): Sql {
    return sql`(CASE WHEN ${condition} THEN TRUE WHEN NOT (${condition}) THEN FALSE END)`;
  }

  /** A boolean-valued column or expression used as a condition. */
  truthy(expr: Sql): Sql {
    return sql`(${expr} = TRUE)`;
  }

  castToFloat(expr: Sql): Sql {
    return sql`CAST(${expr} AS DOUBLE PRECISION)`;
  }

  castToInteger(expr: Sql): Sql {
    return sql`CAST(${expr} AS BIGINT)`;
  }

  castToText(expr: Sql): Sql {
    return sql`CAST(${expr} AS TEXT)`;
  }

  castToDate(expr: Sql): Sql {
    return sql`CAST(${expr} AS DATE)`;
  }

  castToDatetime(expr: Sql): Sql {
    return sql`CAST(${expr} AS TIMESTAMP)`;
  }

  /**
   * Text → integer, the `integer` expression on text: a decimal number (spaces around it allowed) rounded half away
   * from zero, as `integer` rounds numbers ("12.7" → 13); anything else NULL — the same on every engine (they'd
   * otherwise truncate, round, return 0 or fail).
   */
  textToInteger(expr: Sql): Sql {
    const t = this.trim(expr);
    return sql`(CASE WHEN ${this.regexMatches(t, sql`${param(NUMBER_PATTERN, 'text')}`)} THEN ${this.castToInteger(this.round(this.castToFloat(t)))} END)`;
  }

  /** Text → float, the `float` expression on text: a decimal number, else NULL. */
  textToFloat(expr: Sql): Sql {
    const t = this.trim(expr);
    return sql`(CASE WHEN ${this.regexMatches(t, sql`${param(NUMBER_PATTERN, 'text')}`)} THEN ${this.castToFloat(t)} END)`;
  }

  /** A float as text the way PostgreSQL writes it: the shortest digits that read back the same ("2", "0.1"). */
  floatToText(x: Sql): Sql {
    return this.castToText(this.castToFloat(x));
  }

  /** A boolean (a column or an expression's value) as 'true' / 'false'. */
  booleanToText(x: Sql): Sql {
    const t = this.truthy(x);
    return sql`(CASE WHEN ${t} THEN 'true' WHEN NOT ${t} THEN 'false' END)`;
  }

  /** A stored temporal column (or expression) as a value that compares and computes correctly. */
  temporal(expr: Sql, _kind: TemporalKind): Sql {
    return expr;
  }

  /** A timestamp-with-time-zone column as a local timestamp in `zone` (the report time zone). */
  atTimeZone(expr: Sql, zone: string): Sql {
    return sql`(${expr} AT TIME ZONE ${param(zone, 'text')})`;
  }

  /** convert-timezone: a timestamp read in `from` (or UTC) shown as a local timestamp in `to`. */
  convertTimezone(expr: Sql, to: string, from: string | null): Sql {
    return sql`((${expr} AT TIME ZONE ${param(from ?? 'UTC', 'text')}) AT TIME ZONE ${param(to, 'text')})`;
  }

  /**
   * Whether statements run with the report time zone as their session time zone (so that native SQL sees it):
   * for every query, for native queries only (MySQL: MBQL converts zones itself and keeps the session in UTC), or
   * never (the engine has no session zone, or it is locked).
   */
  readonly sessionTimezone: 'all' | 'native' | 'none' = 'none';

  /** A timestamp constant the compiler computed ('YYYY-MM-DD HH:MM:SS'), comparable with the engine's timestamps. */
  timestampConstant(text: string): Sql {
    return raw(`TIMESTAMP '${checkedTimestamp(text)}'`);
  }

  /**
   * Wall-clock times in `from` as wall-clock times in `to`, with the zones' offsets computed in JS (./zones.ts): for
   * engines without named time zones. The shift is picked by comparing `x` with the offset changes (a balanced
   * tree of CASEs, so a value costs a handful of comparisons).
   */
  protected shiftBetweenZones(x: Sql, from: string, to: string): Sql {
    const segments = zoneConversion(from, to);
    const pick = (lo: number, hi: number): Sql => {
      if (lo === hi) return number(segments[lo].shift);
      const mid = (lo + hi + 1) >> 1;
      return sql`(CASE WHEN ${x} < ${this.timestampConstant(utcText(segments[mid].fromLocal!))} THEN ${pick(lo, mid - 1)} ELSE ${pick(mid, hi)} END)`;
    };
    if (segments.length === 1 && segments[0].shift === 0) return x;
    return this.addInterval(x, pick(0, segments.length - 1), 'minute');
  }

  // ----- arithmetic --------------------------------------------------------------------------------------------

  divide(a: Sql, b: Sql): Sql {
    return sql`(${this.castToFloat(a)} / NULLIF(${this.castToFloat(b)}, 0))`;
  }

  floor(x: Sql): Sql {
    return sql`FLOOR(${x})`;
  }

  ceil(x: Sql): Sql {
    return sql`CEIL(${x})`;
  }

  round(x: Sql): Sql {
    return sql`ROUND(${x})`;
  }

  abs(x: Sql): Sql {
    return sql`ABS(${x})`;
  }

  power(x: Sql, y: Sql): Sql {
    return sql`POWER(${this.castToFloat(x)}, ${y})`;
  }

  sqrt(x: Sql): Sql {
    return sql`SQRT(${x})`;
  }

  exp(x: Sql): Sql {
    return sql`EXP(${x})`;
  }

  /** Natural logarithm. */
  ln(x: Sql): Sql {
    return sql`LN(${x})`;
  }

  // ----- aggregation -----------------------------------------------------------------------------------------

  stddev(x: Sql): Sql {
    return sql`STDDEV_POP(${x})`;
  }

  variance(x: Sql): Sql {
    return sql`VAR_POP(${x})`;
  }

  percentile(x: Sql, p: Sql): Sql {
    return sql`PERCENTILE_CONT(${p}) WITHIN GROUP (ORDER BY ${x})`;
  }

  median(x: Sql): Sql {
    return this.percentile(x, raw('0.5'));
  }

  /**
   * Engines whose PERCENTILE_CONT is a window function only (MariaDB): the compiler computes percentiles per group
   * in a joined subquery (`StageCompiler.windowPercentile`) instead of as an aggregate.
   */
  readonly percentileAsWindow: boolean = false;

  /** `PERCENTILE_CONT(p)` over a window partitioned by `partition` (the group's keys). */
  windowPercentile(x: Sql, p: number, partition: Sql[]): Sql {
    const over = partition.length ? sql`PARTITION BY ${join(partition)}` : raw('');
    return sql`PERCENTILE_CONT(${number(p)}) WITHIN GROUP (ORDER BY ${x}) OVER (${over})`;
  }

  /** `a = b` that holds for two NULLs too. */
  nullSafeEquals(a: Sql, b: Sql): Sql {
    return sql`(${a} IS NOT DISTINCT FROM ${b})`;
  }

  avg(x: Sql): Sql {
    return sql`AVG(${this.castToFloat(x)})`;
  }

  // ----- strings -----------------------------------------------------------------------------------------------

  concat(parts: Sql[]): Sql {
    return sql`CONCAT(${join(parts.map((p) => this.castToText(p)))})`;
  }

  /** 1-based start; length optional. */
  substring(s: Sql, start: Sql, length: Sql | null): Sql {
    return length ? sql`SUBSTRING(${s} FROM ${start} FOR ${length})` : sql`SUBSTRING(${s} FROM ${start})`;
  }

  length(s: Sql): Sql {
    return sql`CHAR_LENGTH(${s})`;
  }

  trim(s: Sql): Sql {
    return sql`TRIM(${s})`;
  }

  ltrim(s: Sql): Sql {
    return sql`LTRIM(${s})`;
  }

  rtrim(s: Sql): Sql {
    return sql`RTRIM(${s})`;
  }

  upper(s: Sql): Sql {
    return sql`UPPER(${s})`;
  }

  lower(s: Sql): Sql {
    return sql`LOWER(${s})`;
  }

  replace(s: Sql, match: Sql, replacement: Sql): Sql {
    return sql`REPLACE(${s}, ${match}, ${replacement})`;
  }

  regexMatchFirst(s: Sql, pattern: Sql): Sql {
    return sql`SUBSTRING(${s} FROM ${pattern})`;
  }

  /** Replaces the first match of `pattern`. */
  regexReplace(s: Sql, pattern: Sql, replacement: Sql): Sql {
    return sql`REGEXP_REPLACE(${s}, ${pattern}, ${replacement})`;
  }

  regexMatches(s: Sql, pattern: Sql): Sql {
    return sql`(${s} ~ ${pattern})`;
  }

  /** How a replacement string refers to the `n`th captured group. */
  backReference(n: number): string {
    return '\\' + n;
  }

  splitPart(s: Sql, delimiter: Sql, n: Sql): Sql {
    return sql`SPLIT_PART(${s}, ${delimiter}, ${this.castToInteger(n)})`;
  }

  /** 1-based position of `needle` in `haystack`, 0 when absent (case-sensitive). */
  position(haystack: Sql, needle: Sql): Sql {
    return sql`STRPOS(${haystack}, ${needle})`;
  }

  contains(haystack: Sql, needle: Sql, caseSensitive: boolean): Sql {
    const [h, n] = caseSensitive ? [haystack, needle] : [this.lower(haystack), this.lower(needle)];
    return sql`(${this.position(h, n)} > 0)`;
  }

  startsWith(s: Sql, prefix: Sql, caseSensitive: boolean): Sql {
    const [h, n] = caseSensitive ? [s, prefix] : [this.lower(s), this.lower(prefix)];
    return sql`(${this.substring(h, raw('1'), this.length(n))} = ${n})`;
  }

  endsWith(s: Sql, suffix: Sql, caseSensitive: boolean): Sql {
    const [h, n] = caseSensitive ? [s, suffix] : [this.lower(s), this.lower(suffix)];
    return sql`(RIGHT(${h}, ${this.length(n)}) = ${n})`;
  }

  /**
   * `x IN (…)` / `x NOT IN (…)` for a long list of literal values, in a form that doesn't need a placeholder per
   * value (engines cap bound parameters); null when the engine has none (the list is bound value by value).
   */
  longIn(_x: Sql, _values: unknown[], _type: 'text' | 'integer' | 'float', _negate: boolean): Sql | null {
    return null;
  }

  /**
   * The value at `path` (the keys below the column) inside the JSON column `column`, as a value of `baseType`: how a
   * field unfolded from a JSON column (`nfc_path`) is read. Only engines with `nested-field-columns` override it; the
   * compiler checks the feature first, so this is a safety net.
   */
  jsonPathValue(_column: Sql, _path: readonly string[], _baseType: string): Sql {
    throw unsupported(`Fields nested inside JSON columns are not supported by ${this.engine} databases.`);
  }

  /** The most bound parameters one statement may have (a clear error beyond it rather than the driver's), or null. */
  readonly maxBoundParameters: number | null = null;

  /** Case-sensitive string equality, or inequality (MySQL's collations compare case-insensitively unless told). */
  stringEquals(a: Sql, b: Sql, negate = false): Sql {
    return negate ? sql`(${a} <> ${b})` : sql`(${a} = ${b})`;
  }

  /** Case-sensitive `a IN (…)` / `a NOT IN (…)` for text. */
  stringIn(a: Sql, list: Sql[], negate = false): Sql {
    return sql`(${a} ${raw(negate ? 'NOT IN' : 'IN')} (${join(list)}))`;
  }

  // ----- temporal ----------------------------------------------------------------------------------------------

  /** The current timestamp (local, in the session time zone); the compiler prefers a bound "now". */
  now(): Sql {
    return raw('CURRENT_TIMESTAMP');
  }

  /** Truncation to a unit other than week. */
  truncBasic(x: Sql, unit: BasicTruncUnit): Sql {
    return sql`DATE_TRUNC(${raw(`'${unit}'`)}, ${x})`;
  }

  /** Truncation with weeks starting on `startOfWeek`. */
  truncate(x: Sql, unit: TruncUnit, startOfWeek: StartOfWeek): Sql {
    if (unit !== 'week') return this.truncBasic(x, unit);
    const day = this.truncBasic(x, 'day');
    return this.addInterval(day, sql`(${this.daysSinceWeekStart(day, startOfWeek)}) * -1`, 'day');
  }

  /** 0..6: how many days `x` is after the most recent `startOfWeek` day. */
  daysSinceWeekStart(x: Sql, startOfWeek: StartOfWeek): Sql {
    const shift = (7 - ISO_DAY[startOfWeek]) % 7;
    return shift ? sql`((${this.isoDayOfWeek(x)} + ${number(shift)}) % 7)` : sql`(${this.isoDayOfWeek(x)} % 7)`;
  }

  extract(x: Sql, field: ExtractField): Sql {
    return sql`CAST(EXTRACT(${raw(field.toUpperCase())} FROM ${x}) AS INTEGER)`;
  }

  /** Monday 1 … Sunday 7. */
  isoDayOfWeek(x: Sql): Sql {
    return sql`CAST(EXTRACT(ISODOW FROM ${x}) AS INTEGER)`;
  }

  dayOfYear(x: Sql): Sql {
    return sql`CAST(EXTRACT(DOY FROM ${x}) AS INTEGER)`;
  }

  isoWeek(x: Sql): Sql {
    return sql`CAST(EXTRACT(WEEK FROM ${x}) AS INTEGER)`;
  }

  /** 1..7 counted from `startOfWeek`. */
  dayOfWeek(x: Sql, startOfWeek: StartOfWeek): Sql {
    return sql`(${this.daysSinceWeekStart(x, startOfWeek)} + 1)`;
  }

  /** Week number with weeks starting on `startOfWeek`, week 1 holding January 1st. */
  weekOfYear(x: Sql, startOfWeek: StartOfWeek): Sql {
    const weekStart = this.truncate(x, 'week', startOfWeek);
    const firstWeekStart = this.truncate(this.truncBasic(x, 'year'), 'week', startOfWeek);
    return sql`(${this.integerDivide(this.dayDiff(firstWeekStart, weekStart), number(7))} + 1)`;
  }

  /** Integer division of two integers (rounding toward negative infinity for non-negative inputs). */
  integerDivide(a: Sql, b: Sql): Sql {
    return sql`CAST(FLOOR(${this.castToFloat(a)} / ${b}) AS INTEGER)`;
  }

  /** Whole days from `a` to `b` (both at midnight). */
  dayDiff(a: Sql, b: Sql): Sql {
    return sql`CAST(${this.castToDate(b)} - ${this.castToDate(a)} AS INTEGER)`;
  }

  /** Seconds from `a` to `b` (fractional). */
  secondsBetween(a: Sql, b: Sql): Sql {
    return sql`(EXTRACT(EPOCH FROM ${this.castToDatetime(b)}) - EXTRACT(EPOCH FROM ${this.castToDatetime(a)}))`;
  }

  /** `x` plus `amount` units (amount an integer expression, may be negative). */
  addInterval(x: Sql, amount: Sql, unit: IntervalUnit): Sql {
    if (unit === 'quarter') return this.addInterval(x, sql`(${amount}) * 3`, 'month');
    if (unit === 'week') return this.addInterval(x, sql`(${amount}) * 7`, 'day');
    if (unit === 'millisecond') return sql`(${x} + (${amount}) * INTERVAL '1 millisecond')`;
    return sql`(${x} + (${amount}) * INTERVAL ${raw(`'1 ${unit}'`)})`;
  }

  /**
   * datetime-diff: whole units from `a` to `b`, truncated toward zero. Seconds, minutes and hours count elapsed
   * time; days and weeks count calendar days; months, quarters and years count calendar months, less one when
   * the later date's day and time of month haven't reached the earlier one's.
   */
  datetimeDiff(a0: Sql, b0: Sql, unit: 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year'): Sql {
    const a = this.castToDatetime(a0);
    const b = this.castToDatetime(b0);
    switch (unit) {
      case 'second':
      case 'minute':
      case 'hour': {
        const size = unit === 'second' ? 1 : unit === 'minute' ? 60 : 3600;
        return this.truncateTowardZero(sql`(${this.secondsBetween(a, b)}) / ${number(size)}`);
      }
      case 'day':
        return this.dayDiff(this.truncBasic(a, 'day'), this.truncBasic(b, 'day'));
      case 'week':
        return this.truncateTowardZero(sql`${this.castToFloat(this.dayDiff(this.truncBasic(a, 'day'), this.truncBasic(b, 'day')))} / 7`);
      default: {
        const months = this.monthsBetween(a, b);
        const size = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
        return size === 1 ? months : this.truncateTowardZero(sql`${this.castToFloat(months)} / ${number(size)}`);
      }
    }
  }

  truncateTowardZero(x: Sql): Sql {
    return this.castToInteger(sql`(CASE WHEN ${x} < 0 THEN CEIL(${x}) ELSE FLOOR(${x}) END)`);
  }

  /** Whole calendar months from `a` to `b`, truncated toward zero. */
  monthsBetween(a: Sql, b: Sql): Sql {
    const raw12 = sql`((${this.extract(b, 'year')} - ${this.extract(a, 'year')}) * 12 + (${this.extract(b, 'month')} - ${this.extract(a, 'month')}))`;
    const rest = (x: Sql) =>
      sql`(${this.extract(x, 'day')} * 1000000 + ${this.extract(x, 'hour')} * 10000 + ${this.extract(x, 'minute')} * 100 + ${this.extract(x, 'second')})`;
    return sql`(${raw12} - (CASE WHEN ${raw12} > 0 AND ${rest(b)} < ${rest(a)} THEN 1 WHEN ${raw12} < 0 AND ${rest(b)} > ${rest(a)} THEN -1 ELSE 0 END))`;
  }

  /** A time of day as a timestamp on a fixed day, so that timestamp truncation applies to it. */
  timeAsDatetime(t: Sql): Sql {
    return sql`(CAST('2000-01-01' AS DATE) + ${t})`;
  }

  castToTime(x: Sql): Sql {
    return sql`CAST(${x} AS TIME)`;
  }

  /** A text expression parsed as a date / datetime (the `date` and `datetime` expressions). */
  parseDate(s: Sql): Sql {
    return this.castToDate(s);
  }

  parseDatetime(s: Sql): Sql {
    return this.castToDatetime(s);
  }

  /**
   * A temporal value as text (the `text` expression), the way PostgreSQL writes it: '2024-01-31 10:30:00' with the
   * fraction of a second only when there is one, trailing zeros dropped ('… 10:30:00.28'); '2024-01-31' for dates;
   * '10:30:00' for times.
   */
  temporalToText(x: Sql, kind: TemporalKind): Sql {
    const type = kind === 'date' ? 'DATE' : kind === 'time' ? 'TIME' : 'TIMESTAMP';
    return this.castToText(sql`CAST(${x} AS ${raw(type)})`);
  }

  /**
   * `datetime` of a number, by its mode: seconds, milliseconds, microseconds or nanoseconds since the epoch.
   */
  epochToDatetime(x: Sql, unit: 'second' | 'millisecond' | 'microsecond' | 'nanosecond'): Sql {
    const epoch = sql`${param('1970-01-01T00:00:00.000', 'datetime')}`;
    if (unit === 'second') return this.addInterval(epoch, x, 'second');
    if (unit === 'millisecond') return this.addInterval(epoch, x, 'millisecond');
    return this.addInterval(epoch, sql`(${x} / ${raw(unit === 'microsecond' ? '1000' : '1000000')})`, 'millisecond');
  }
}

export type { Sql } from './sql.js';
