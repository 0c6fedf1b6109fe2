// SQLite's SQL dialect for the MBQL compiler. SQLite has no temporal types: timestamps are text, so every temporal
// value is brought to one canonical text form ('YYYY-MM-DD HH:MM:SS.SSS', dates 'YYYY-MM-DD') that sorts and
// compares correctly, and bound temporal values are written the same way. Percentiles use SQLite's built-in
// percentile_cont (3.47+); regular expressions and split_part are functions the statement workers add
// (../sqlite/workers.ts); time zones are converted with offsets computed in JS (no session zone).

import { SqlDialect, BASE_FEATURES, checkedTimestamp, type BasicTruncUnit, type ExtractField, type IntervalUnit, type TemporalKind } from '../../query/compile/dialect.js';
import { sql, raw, join, param, type Sql, type ParamType } from '../../query/compile/sql.js';

const UNSUPPORTED = new Set(['set-timezone']);
const DATETIME = "'%Y-%m-%d %H:%M:%f'";

const TRUNC_FORMAT: Partial<Record<BasicTruncUnit, string>> = {
  millisecond: '%Y-%m-%d %H:%M:%f',
  second: '%Y-%m-%d %H:%M:%S.000',
  minute: '%Y-%m-%d %H:%M:00.000',
  hour: '%Y-%m-%d %H:00:00.000',
  day: '%Y-%m-%d 00:00:00.000',
  month: '%Y-%m-01 00:00:00.000',
  year: '%Y-01-01 00:00:00.000',
};

const MODIFIER_UNIT: Record<IntervalUnit, [string, number]> = {
  millisecond: ['seconds', 0.001],
  second: ['seconds', 1],
  minute: ['minutes', 1],
  hour: ['hours', 1],
  day: ['days', 1],
  week: ['days', 7],
  month: ['months', 1],
  quarter: ['months', 3],
  year: ['years', 1],
};

const EXTRACT_FORMAT: Partial<Record<ExtractField, string>> = {
  year: '%Y',
  month: '%m',
  day: '%d',
  hour: '%H',
  minute: '%M',
  second: '%S',
};

export class SqliteDialect extends SqlDialect {
  readonly engine = 'sqlite';
  readonly features: ReadonlySet<string> = new Set(BASE_FEATURES.filter((f) => !UNSUPPORTED.has(f)));
  override readonly numberedPlaceholders = false;

  protected paramTypeName(type: ParamType): string | null {
    return type === 'integer' ? 'INTEGER' : type === 'float' ? 'REAL' : null;
  }

  override placeholder(): string {
    return '?';
  }

  protected override readonly nulCharacter = 'CHAR(0)';

  override bindValue(value: unknown, type: ParamType): unknown {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string') {
      if (type === 'datetime' || type === 'instant') return canonicalDatetime(value);
      if (type === 'time') return canonicalTime(value);
    }
    return super.bindValue(value, type);
  }

  override inlineLiteral(value: unknown, type: ParamType): string {
    if (typeof value === 'boolean') return value ? '1' : '0';
    return super.inlineLiteral(this.bindValue(value, type), type);
  }

  override readonly maxBoundParameters = 32_766;

  /** A long IN list is one JSON parameter read by json_each. */
  override longIn(x: Sql, values: unknown[], _type: 'text' | 'integer' | 'float', negate: boolean): Sql {
    return sql`(${x} ${raw(negate ? 'NOT IN' : 'IN')} (SELECT value FROM json_each(${param(JSON.stringify(values), 'text')})))`;
  }

  override limitOffset(limit: number | null, offset: number | null): string {
    if (offset !== null && offset > 0) return `LIMIT ${limit === null ? -1 : Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`;
    return limit === null ? '' : `LIMIT ${Math.trunc(limit)}`;
  }

  override orderItem(expr: Sql, direction: 'asc' | 'desc'): Sql {
    return direction === 'asc' ? sql`${expr} ASC` : sql`${expr} DESC`;
  }

  override booleanValue(condition: Sql): Sql {
    return sql`(CASE WHEN ${condition} THEN 1 WHEN NOT (${condition}) THEN 0 END)`;
  }

  override truthy(expr: Sql): Sql {
    return sql`(${expr} = 1)`;
  }

  override castToFloat(expr: Sql): Sql {
    return sql`CAST(${expr} AS REAL)`;
  }

  override castToInteger(expr: Sql): Sql {
    return sql`CAST(${expr} AS INTEGER)`;
  }

  override castToDate(expr: Sql): Sql {
    return sql`DATE(${expr})`;
  }

  override castToDatetime(expr: Sql): Sql {
    return sql`STRFTIME(${raw(DATETIME)}, ${expr})`;
  }

  override temporal(expr: Sql, kind: TemporalKind): Sql {
    if (kind === 'date') return sql`DATE(${expr})`;
    if (kind === 'time') return sql`STRFTIME('%H:%M:%f', ${expr})`;
    return this.castToDatetime(expr);
  }

  override atTimeZone(expr: Sql): Sql {
    return expr;
  }

  override timestampConstant(text: string): Sql {
    return raw(`'${checkedTimestamp(text)}.000'`);
  }

  /** convert-timezone with offsets computed in JS (SQLite knows no zones); values compared in canonical form. */
  override convertTimezone(expr: Sql, to: string, from: string | null): Sql {
    return this.shiftBetweenZones(this.castToDatetime(expr), from ?? 'UTC', to);
  }

  override ceil(x: Sql): Sql {
    return sql`CEIL(${x})`;
  }

  override power(x: Sql, y: Sql): Sql {
    return sql`POW(${this.castToFloat(x)}, ${y})`;
  }

  override stddev(x: Sql): Sql {
    return sql`SQRT(${this.variance(x)})`;
  }

  override variance(x: Sql): Sql {
    const f = this.castToFloat(x);
    return sql`MAX(AVG(${f} * ${f}) - AVG(${f}) * AVG(${f}), 0)`;
  }

  override percentile(x: Sql, p: Sql): Sql {
    return sql`PERCENTILE_CONT(${x}, ${p})`;
  }

  override concat(parts: Sql[]): Sql {
    return sql`CONCAT(${join(parts)})`;
  }

  override substring(s: Sql, start: Sql, length: Sql | null): Sql {
    return length ? sql`SUBSTR(${s}, ${start}, ${length})` : sql`SUBSTR(${s}, ${start})`;
  }

  override length(s: Sql): Sql {
    return sql`LENGTH(${s})`;
  }

  override position(haystack: Sql, needle: Sql): Sql {
    return sql`INSTR(${haystack}, ${needle})`;
  }

  // regexp_substr / regexp_replace / regexp_like / split_part: JS functions registered by the statement workers.
  override regexMatchFirst(s: Sql, pattern: Sql): Sql {
    return sql`REGEXP_SUBSTR(${s}, ${pattern})`;
  }

  override regexReplace(s: Sql, pattern: Sql, replacement: Sql): Sql {
    return sql`REGEXP_REPLACE(${s}, ${pattern}, ${replacement})`;
  }

  override regexMatches(s: Sql, pattern: Sql): Sql {
    return sql`(REGEXP_LIKE(${s}, ${pattern}) = 1)`;
  }

  override splitPart(s: Sql, delimiter: Sql, n: Sql): Sql {
    return sql`SPLIT_PART(${s}, ${delimiter}, ${n})`;
  }

  // SQLite's text functions (LENGTH, SUBSTR, REPLACE…) end a text at its first NUL character, while `=` and INSTR
  // read all of it: starts-with and ends-with are written with those (ends-with on the bytes, where UTF-8 suffixes
  // are character suffixes), so a value holding NUL matches as on the other engines.
  override startsWith(s: Sql, prefix: Sql, caseSensitive: boolean): Sql {
    const [h, n] = caseSensitive ? [s, prefix] : [this.lower(s), this.lower(prefix)];
    return sql`(INSTR(${h}, ${n}) = 1)`;
  }

  override endsWith(s: Sql, suffix: Sql, caseSensitive: boolean): Sql {
    const [h, n] = caseSensitive ? [s, suffix] : [this.lower(s), this.lower(suffix)];
    const bytes = (x: Sql) => sql`CAST(${x} AS BLOB)`;
    return sql`(SUBSTR(${bytes(h)}, -LENGTH(${bytes(n)})) = ${bytes(n)} OR (LENGTH(${bytes(n)}) = 0 AND ${h} IS NOT NULL))`;
  }

  override now(): Sql {
    return sql`STRFTIME(${raw(DATETIME)}, 'now')`;
  }

  override truncBasic(x: Sql, unit: BasicTruncUnit): Sql {
    if (unit === 'quarter') {
      return sql`(STRFTIME('%Y-', ${x}) || PRINTF('%02d', ((CAST(STRFTIME('%m', ${x}) AS INTEGER) - 1) / 3) * 3 + 1) || '-01 00:00:00.000')`;
    }
    return sql`STRFTIME(${raw(`'${TRUNC_FORMAT[unit]}'`)}, ${x})`;
  }

  override extract(x: Sql, field: ExtractField): Sql {
    if (field === 'quarter') return sql`((CAST(STRFTIME('%m', ${x}) AS INTEGER) + 2) / 3)`;
    if (field === 'millisecond') return sql`CAST(SUBSTR(STRFTIME('%f', ${x}), 4) AS INTEGER)`;
    return sql`CAST(STRFTIME(${raw(`'${EXTRACT_FORMAT[field]}'`)}, ${x}) AS INTEGER)`;
  }

  override isoDayOfWeek(x: Sql): Sql {
    return sql`((CAST(STRFTIME('%w', ${x}) AS INTEGER) + 6) % 7 + 1)`;
  }

  override dayOfYear(x: Sql): Sql {
    return sql`CAST(STRFTIME('%j', ${x}) AS INTEGER)`;
  }

  override isoWeek(x: Sql): Sql {
    return sql`CAST(STRFTIME('%V', ${x}) AS INTEGER)`;
  }

  override integerDivide(a: Sql, b: Sql): Sql {
    return sql`CAST(FLOOR(CAST(${a} AS REAL) / ${b}) AS INTEGER)`;
  }

  override dayDiff(a: Sql, b: Sql): Sql {
    return sql`CAST(ROUND(JULIANDAY(DATE(${b})) - JULIANDAY(DATE(${a}))) AS INTEGER)`;
  }

  override secondsBetween(a: Sql, b: Sql): Sql {
    return sql`(UNIXEPOCH(${b}, 'subsec') - UNIXEPOCH(${a}, 'subsec'))`;
  }

  override addInterval(x: Sql, amount: Sql, unit: IntervalUnit): Sql {
    const [name, factor] = MODIFIER_UNIT[unit];
    const n = factor === 1 ? amount : sql`(${amount}) * ${raw(String(factor))}`;
    // 'floor' makes Jan 31 + 1 month = Feb 28/29, as the other engines do.
    const clamp = name === 'months' || name === 'years' ? raw(", 'floor'") : raw('');
    return sql`STRFTIME(${raw(DATETIME)}, ${x}, (CAST(${n} AS TEXT) || ${raw(`' ${name}'`)})${clamp})`;
  }

  override timeAsDatetime(t: Sql): Sql {
    return sql`('2000-01-01 ' || ${t})`;
  }

  override castToTime(x: Sql): Sql {
    return sql`STRFTIME('%H:%M:%f', ${x})`;
  }

  override parseDate(s: Sql): Sql {
    return sql`DATE(${s})`;
  }

  override temporalToText(x: Sql, kind: TemporalKind): Sql {
    if (kind === 'date') return sql`DATE(${x})`;
    // The canonical text, without a zero fraction and without trailing zeros (as PostgreSQL writes it).
    const [format, whole] = kind === 'time' ? ["'%H:%M:%f'", 9] : [DATETIME, 20];
    const c = sql`STRFTIME(${raw(format)}, ${x})`;
    return sql`(CASE WHEN SUBSTR(${c}, ${raw(String(whole + 1))}) = '000' THEN SUBSTR(${c}, 1, ${raw(String(whole - 1))}) ELSE RTRIM(${c}, '0') END)`;
  }

  /** JS's shortest round-trip digits (a function the statement workers add), as PostgreSQL writes floats. */
  override floatToText(x: Sql): Sql {
    return sql`FLOAT_TEXT(${x})`;
  }

  /** SQLite's UPPER/LOWER only know ASCII: the workers add Unicode ones (a letter at a time, as PostgreSQL maps). */
  override upper(s: Sql): Sql {
    return sql`UNICODE_UPPER(${s})`;
  }

  override lower(s: Sql): Sql {
    return sql`UNICODE_LOWER(${s})`;
  }
}

/** '2024-01-31T10:30:00' / '2024-01-31 10:30:00.5' → '2024-01-31 10:30:00.500' (what STRFTIME('%f') writes). */
export function canonicalDatetime(value: string): string {
  const m = /^(\d{4}-\d\d-\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?)?/.exec(value);
  if (!m) return value;
  const ms = (m[5] ?? '').padEnd(3, '0').slice(0, 3);
  return `${m[1]} ${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}.${ms}`;
}

function canonicalTime(value: string): string {
  const m = /^(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?/.exec(value);
  if (!m) return value;
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0').slice(0, 3)}`;
}

export const sqliteDialect = new SqliteDialect();
