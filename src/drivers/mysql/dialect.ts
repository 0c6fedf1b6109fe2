// MySQL / MariaDB's SQL dialect for the MBQL compiler: backtick identifiers, `?` placeholders, DATE_FORMAT-based
// truncation, TIMESTAMPADD/TIMESTAMPDIFF, byte-wise comparisons for text equality and case-sensitive string filters
// (the default collations compare case-insensitively), time zones by offsets computed in JS. No FULL JOIN; no
// percentiles on MySQL (MariaDB has them as window functions: MariaDbDialect below).

import { SqlDialect, BASE_FEATURES, checkedTimestamp, type BasicTruncUnit, type ExtractField, type IntervalUnit, type TemporalKind } from '../../query/compile/dialect.js';
import { sql, raw, join, type Sql, type ParamType } from '../../query/compile/sql.js';

const TYPES: Record<ParamType, string | null> = {
  text: null,
  integer: 'SIGNED',
  float: 'DOUBLE',
  boolean: null,
  date: 'DATE',
  datetime: 'DATETIME(6)',
  time: 'TIME(6)',
  instant: 'DATETIME(6)',
  unknown: null,
  'text[]': null,
  'integer[]': null,
  'float[]': null,
};

const TRUNC_FORMAT: Partial<Record<BasicTruncUnit, string>> = {
  second: '%Y-%m-%d %H:%i:%s',
  minute: '%Y-%m-%d %H:%i:00',
  hour: '%Y-%m-%d %H:00:00',
  day: '%Y-%m-%d',
  month: '%Y-%m-01',
  year: '%Y-01-01',
};

const UNSUPPORTED = new Set(['full-join', 'percentile-aggregations']);

export class MysqlDialect extends SqlDialect {
  readonly engine = 'mysql';
  readonly features: ReadonlySet<string> = new Set(BASE_FEATURES.filter((f) => !UNSUPPORTED.has(f)));
  override readonly numberedPlaceholders = false;

  protected paramTypeName(type: ParamType): string | null {
    return TYPES[type];
  }

  override readonly maxBoundParameters = 65_535;

  protected override readonly identifierQuote = '`';

  override placeholder(): string {
    return '?';
  }

  override bindValue(value: unknown, type: ParamType): unknown {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if ((type === 'datetime' || type === 'instant') && typeof value === 'string') return value.replace('T', ' ').replace(/Z$/, '');
    return super.bindValue(value, type);
  }

  override quoteString(text: string): string {
    // Backslash is an escape character in MySQL string literals (unless NO_BACKSLASH_ESCAPES); `\0` is NUL.
    return "'" + text.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/\u0000/g, '\\0') + "'";
  }

  override inlineLiteral(value: unknown, type: ParamType): string {
    if (typeof value === 'boolean') return value ? '1' : '0';
    return super.inlineLiteral(this.bindValue(value, type), type);
  }

  override limitOffset(limit: number | null, offset: number | null): string {
    if (offset !== null && offset > 0) return `LIMIT ${limit === null ? '18446744073709551615' : Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`;
    return limit === null ? '' : `LIMIT ${Math.trunc(limit)}`;
  }

  override orderItem(expr: Sql, direction: 'asc' | 'desc'): Sql {
    // MySQL sorts NULLs first ascending and last descending already, and has no NULLS FIRST syntax.
    return direction === 'asc' ? sql`${expr} ASC` : sql`${expr} DESC`;
  }

  override booleanValue(condition: Sql): Sql {
    return sql`(CASE WHEN ${condition} THEN 1 WHEN NOT (${condition}) THEN 0 END)`;
  }

  override castToFloat(expr: Sql): Sql {
    return sql`CAST(${expr} AS DOUBLE)`;
  }

  override castToInteger(expr: Sql): Sql {
    return sql`CAST(${expr} AS SIGNED)`;
  }

  override castToText(expr: Sql): Sql {
    return sql`CAST(${expr} AS CHAR)`;
  }

  override castToDatetime(expr: Sql): Sql {
    return sql`CAST(${expr} AS DATETIME(6))`;
  }

  override round(x: Sql): Sql {
    return sql`CAST(ROUND(CAST(${x} AS DECIMAL(65, 15))) AS DOUBLE)`;
  }

  override power(x: Sql, y: Sql): Sql {
    return sql`POW(${this.castToFloat(x)}, ${y})`;
  }

  override ceil(x: Sql): Sql {
    return sql`CEILING(${x})`;
  }

  override concat(parts: Sql[]): Sql {
    // CONCAT is NULL when any part is; CONCAT_WS skips NULLs, like the other engines' CONCAT.
    return sql`CONCAT_WS('', ${join(parts.map((p) => this.castToText(p)))})`;
  }

  override substring(s: Sql, start: Sql, length: Sql | null): Sql {
    return length ? sql`SUBSTRING(${s}, ${start}, ${length})` : sql`SUBSTRING(${s}, ${start})`;
  }

  override regexMatches(s: Sql, pattern: Sql): Sql {
    return sql`(${s} REGEXP ${pattern})`;
  }

  override regexMatchFirst(s: Sql, pattern: Sql): Sql {
    return sql`REGEXP_SUBSTR(${s}, ${pattern})`;
  }

  override splitPart(s: Sql, delimiter: Sql, n: Sql): Sql {
    const count = sql`(CHAR_LENGTH(${s}) - CHAR_LENGTH(REPLACE(${s}, ${delimiter}, ''))) / CHAR_LENGTH(${delimiter}) + 1`;
    return sql`(CASE WHEN ${n} < 1 OR ${n} > ${count} THEN '' ELSE SUBSTRING_INDEX(SUBSTRING_INDEX(${s}, ${delimiter}, ${n}), ${delimiter}, -1) END)`;
  }

  override position(haystack: Sql, needle: Sql): Sql {
    return sql`LOCATE(${needle}, ${haystack})`;
  }

  /**
   * Text as UTF-8 bytes: compared byte-wise it is case- and accent-sensitive and pads nothing, as the other engines
   * compare text. (Converting first makes a latin1 column and a UTF-8 value comparable.)
   */
  private bytes(x: Sql): Sql {
    return sql`CAST(CONVERT(${x} USING utf8mb4) AS BINARY)`;
  }

  override contains(haystack: Sql, needle: Sql, caseSensitive: boolean): Sql {
    return caseSensitive ? sql`(LOCATE(${this.bytes(needle)}, ${this.bytes(haystack)}) > 0)` : sql`(LOCATE(LOWER(${needle}), LOWER(${haystack})) > 0)`;
  }

  override startsWith(s: Sql, prefix: Sql, caseSensitive: boolean): Sql {
    return caseSensitive
      ? sql`(LEFT(${this.bytes(s)}, LENGTH(${this.bytes(prefix)})) = ${this.bytes(prefix)})`
      : sql`(LEFT(LOWER(${s}), CHAR_LENGTH(${prefix})) = LOWER(${prefix}))`;
  }

  override endsWith(s: Sql, suffix: Sql, caseSensitive: boolean): Sql {
    return caseSensitive
      ? sql`(RIGHT(${this.bytes(s)}, LENGTH(${this.bytes(suffix)})) = ${this.bytes(suffix)})`
      : sql`(RIGHT(LOWER(${s}), CHAR_LENGTH(${suffix})) = LOWER(${suffix}))`;
  }

  override nullSafeEquals(a: Sql, b: Sql): Sql {
    return sql`(${a} <=> ${b})`;
  }

  override stringEquals(a: Sql, b: Sql, negate = false): Sql {
    // The collation's (case-insensitive) test first, so that an index on the column still narrows the rows.
    if (negate) return sql`(${this.bytes(a)} <> ${this.bytes(b)})`;
    return sql`(${a} = ${b} AND ${this.bytes(a)} = ${this.bytes(b)})`;
  }

  override stringIn(a: Sql, list: Sql[], negate = false): Sql {
    const bytes = join(list.map((x) => this.bytes(x)));
    if (negate) return sql`(${this.bytes(a)} NOT IN (${bytes}))`;
    return sql`(${a} IN (${join(list)}) AND ${this.bytes(a)} IN (${bytes}))`;
  }

  override now(): Sql {
    return raw('NOW(6)');
  }

  // Time zones: MariaDB/MySQL know named zones only with their time-zone tables loaded, so the compiler converts
  // with offsets computed in JS (DST included) and sessions stay in UTC; native SQL gets the report time zone as its
  // session zone (the driver sets it, by name when the server knows it, else as the zone's current offset).
  override readonly sessionTimezone = 'native' as const;

  override timestampConstant(text: string): Sql {
    return raw(`CAST('${checkedTimestamp(text)}' AS DATETIME)`);
  }

  override atTimeZone(expr: Sql, zone: string): Sql {
    return this.shiftBetweenZones(expr, 'UTC', zone);
  }

  override convertTimezone(expr: Sql, to: string, from: string | null): Sql {
    return this.shiftBetweenZones(expr, from ?? 'UTC', to);
  }

  override truncBasic(x: Sql, unit: BasicTruncUnit): Sql {
    // TIMESTAMP('… .123456') reads back without its fraction through prepared statements: drop the microseconds
    // below the millisecond arithmetically instead, which keeps the value's DATETIME(6) type.
    if (unit === 'millisecond') return sql`TIMESTAMPADD(MICROSECOND, -(MICROSECOND(${x}) % 1000), ${x})`;
    if (unit === 'quarter') {
      return sql`TIMESTAMP(MAKEDATE(YEAR(${x}), 1) + INTERVAL (QUARTER(${x}) - 1) QUARTER)`;
    }
    const format = TRUNC_FORMAT[unit]!;
    return sql`TIMESTAMP(DATE_FORMAT(${x}, ${raw(`'${format}'`)}))`;
  }

  override extract(x: Sql, field: ExtractField): Sql {
    switch (field) {
      case 'year':
        return sql`YEAR(${x})`;
      case 'quarter':
        return sql`QUARTER(${x})`;
      case 'month':
        return sql`MONTH(${x})`;
      case 'day':
        return sql`DAYOFMONTH(${x})`;
      case 'hour':
        return sql`HOUR(${x})`;
      case 'minute':
        return sql`MINUTE(${x})`;
      case 'second':
        return sql`SECOND(${x})`;
      default:
        return sql`FLOOR(MICROSECOND(${x}) / 1000)`;
    }
  }

  override isoDayOfWeek(x: Sql): Sql {
    return sql`(WEEKDAY(${x}) + 1)`;
  }

  override dayOfYear(x: Sql): Sql {
    return sql`DAYOFYEAR(${x})`;
  }

  override isoWeek(x: Sql): Sql {
    return sql`WEEK(${x}, 3)`;
  }

  override integerDivide(a: Sql, b: Sql): Sql {
    return sql`FLOOR(${a} / ${b})`;
  }

  override dayDiff(a: Sql, b: Sql): Sql {
    return sql`DATEDIFF(${b}, ${a})`;
  }

  override secondsBetween(a: Sql, b: Sql): Sql {
    return sql`(TIMESTAMPDIFF(MICROSECOND, ${a}, ${b}) / 1000000.0)`;
  }

  override addInterval(x: Sql, amount: Sql, unit: IntervalUnit): Sql {
    if (unit === 'millisecond') return sql`TIMESTAMPADD(MICROSECOND, (${amount}) * 1000, ${x})`;
    return sql`TIMESTAMPADD(${raw(unit.toUpperCase())}, ${amount}, ${x})`;
  }

  override truncateTowardZero(x: Sql): Sql {
    return sql`CAST(TRUNCATE(${x}, 0) AS SIGNED)`;
  }

  override timeAsDatetime(t: Sql): Sql {
    return sql`TIMESTAMP('2000-01-01', ${t})`;
  }

  override castToTime(x: Sql): Sql {
    return sql`TIME(${x})`;
  }

  override temporalToText(x: Sql, kind: TemporalKind): Sql {
    if (kind === 'date') return sql`DATE_FORMAT(${x}, '%Y-%m-%d')`;
    const [fn, whole] = kind === 'time' ? ['TIME_FORMAT', '%H:%i:%s'] : ['DATE_FORMAT', '%Y-%m-%d %H:%i:%s'];
    return sql`(CASE WHEN MICROSECOND(${x}) = 0 THEN ${raw(fn)}(${x}, ${raw(`'${whole}'`)}) ELSE TRIM(TRAILING '0' FROM ${raw(fn)}(${x}, ${raw(`'${whole}.%f'`)})) END)`;
  }

  override parseDatetime(s: Sql): Sql {
    return sql`CAST(${s} AS DATETIME(6))`;
  }
}

/**
 * MariaDB: MySQL's dialect, plus percentiles — PERCENTILE_CONT exists there as a window function, which the
 * compiler turns into per-group values (a joined subquery, see `StageCompiler.windowPercentile`).
 */
export class MariaDbDialect extends MysqlDialect {
  override readonly features: ReadonlySet<string> = new Set([...BASE_FEATURES.filter((f) => f !== 'full-join')]);
  override readonly percentileAsWindow = true;
}

export const mysqlDialect = new MysqlDialect();
export const mariadbDialect = new MariaDbDialect();
