// DuckDB's SQL dialect for the MBQL compiler: `$n` placeholders with explicit CASTs (DuckDB binds JS numbers as
// DOUBLE otherwise), `to_days()`-style intervals and `quantile_cont` for percentiles.

import { SqlDialect, BASE_FEATURES, type ExtractField, type IntervalUnit } from '../../query/compile/dialect.js';
import { sql, raw, param, type Sql, type ParamType } from '../../query/compile/sql.js';

const TYPES: Record<ParamType, string | null> = {
  text: 'VARCHAR',
  integer: 'BIGINT',
  float: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  datetime: 'TIMESTAMP',
  time: 'TIME',
  instant: 'TIMESTAMPTZ',
  unknown: null,
  'text[]': null,
  'integer[]': null,
  'float[]': null,
};

const INTERVAL_FN: Record<Exclude<IntervalUnit, 'quarter' | 'week'>, string> = {
  millisecond: 'to_milliseconds',
  second: 'to_seconds',
  minute: 'to_minutes',
  hour: 'to_hours',
  day: 'to_days',
  month: 'to_months',
  year: 'to_years',
};

export class DuckDbDialect extends SqlDialect {
  readonly engine = 'duckdb';
  readonly features: ReadonlySet<string> = new Set(BASE_FEATURES);

  protected paramTypeName(type: ParamType): string | null {
    return TYPES[type];
  }

  override castToFloat(expr: Sql): Sql {
    return sql`CAST(${expr} AS DOUBLE)`;
  }

  override castToText(expr: Sql): Sql {
    return sql`CAST(${expr} AS VARCHAR)`;
  }

  /** DuckDB writes an integral double as '2.0'; PostgreSQL (and the others) as '2'. */
  override floatToText(x: Sql): Sql {
    const f = this.castToFloat(x);
    return sql`(CASE WHEN ${f} = FLOOR(${f}) AND ABS(${f}) < 1e15 THEN CAST(CAST(${f} AS BIGINT) AS VARCHAR) ELSE CAST(${f} AS VARCHAR) END)`;
  }

  /** DuckDB upper-cases ß to ẞ; PostgreSQL, MySQL and the others keep ß. */
  override upper(s: Sql): Sql {
    return sql`REPLACE(UPPER(${s}), 'ẞ', 'ß')`;
  }

  override extract(x: Sql, field: ExtractField): Sql {
    if (field === 'millisecond') return sql`CAST(EXTRACT(MILLISECOND FROM ${x}) % 1000 AS INTEGER)`;
    return super.extract(x, field);
  }

  override dayOfYear(x: Sql): Sql {
    return sql`CAST(DAYOFYEAR(${x}) AS INTEGER)`;
  }

  override isoWeek(x: Sql): Sql {
    return sql`CAST(WEEKOFYEAR(${x}) AS INTEGER)`;
  }

  override dayDiff(a: Sql, b: Sql): Sql {
    return sql`CAST(DATE_DIFF('day', CAST(${a} AS DATE), CAST(${b} AS DATE)) AS INTEGER)`;
  }

  override secondsBetween(a: Sql, b: Sql): Sql {
    return sql`((EPOCH_US(CAST(${b} AS TIMESTAMP)) - EPOCH_US(CAST(${a} AS TIMESTAMP))) / 1000000.0)`;
  }

  override addInterval(x: Sql, amount: Sql, unit: IntervalUnit): Sql {
    if (unit === 'quarter') return this.addInterval(x, sql`(${amount}) * 3`, 'month');
    if (unit === 'week') return this.addInterval(x, sql`(${amount}) * 7`, 'day');
    const fn = INTERVAL_FN[unit];
    // Seconds may be fractional; milliseconds since the epoch don't fit an INTEGER.
    const n = unit === 'second' ? sql`CAST(${amount} AS DOUBLE)` : unit === 'millisecond' ? sql`CAST(${amount} AS BIGINT)` : sql`CAST(${amount} AS INTEGER)`;
    return sql`(CAST(${x} AS TIMESTAMP) + ${raw(fn)}(${n}))`;
  }

  override percentile(x: Sql, p: Sql): Sql {
    return sql`QUANTILE_CONT(${x}, ${p})`;
  }

  override regexMatches(s: Sql, pattern: Sql): Sql {
    return sql`REGEXP_MATCHES(${s}, ${pattern})`;
  }

  override regexMatchFirst(s: Sql, pattern: Sql): Sql {
    return sql`(CASE WHEN REGEXP_MATCHES(${s}, ${pattern}) THEN REGEXP_EXTRACT(${s}, ${pattern}) END)`;
  }

  override atTimeZone(expr: Sql, zone: string): Sql {
    return sql`TIMEZONE(${param(zone, 'text')}, ${expr})`;
  }

  override convertTimezone(expr: Sql, to: string, from: string | null): Sql {
    return sql`TIMEZONE(${param(to, 'text')}, TIMEZONE(${param(from ?? 'UTC', 'text')}, CAST(${expr} AS TIMESTAMP)))`;
  }

  override now(): Sql {
    return sql`CAST(NOW() AS TIMESTAMP)`;
  }
}

export const duckdbDialect = new DuckDbDialect();
