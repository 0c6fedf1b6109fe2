// PostgreSQL's SQL dialect for the MBQL compiler: `$n::type` placeholders and the standard idioms of the base class.

import { SqlDialect, BASE_FEATURES, type BasicTruncUnit, type ExtractField } from '../../query/compile/dialect.js';
import { sql, raw, param, type Sql, type ParamType } from '../../query/compile/sql.js';
import { isBoolean, isDate, isDateTime, isInteger, isNumeric, isTime, isZoned } from '../../query/compile/types.js';

const TYPES: Record<ParamType, string | null> = {
  text: 'text',
  integer: 'bigint',
  float: 'double precision',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamp',
  time: 'time',
  instant: 'timestamptz',
  unknown: null,
  'text[]': 'text[]',
  'integer[]': 'bigint[]',
  'float[]': 'double precision[]',
};

export class PostgresDialect extends SqlDialect {
  readonly engine = 'postgres';
  /** PostgreSQL also reads fields nested in json/jsonb columns (`nested-field-columns`, see `jsonPathValue`). */
  readonly features: ReadonlySet<string> = new Set([...BASE_FEATURES, 'nested-field-columns']);
  /** Statements run with the report time zone as the session's TimeZone (native SQL sees it; MBQL is explicit). */
  override readonly sessionTimezone = 'all' as const;

  /** NAMEDATALEN - 1: PostgreSQL cuts longer identifiers (nested JSON field names easily are). */
  override readonly maxIdentifierBytes = 63;

  // PostgreSQL's text types can't hold NUL: a value with one is refused before the server says "invalid byte sequence".
  protected override readonly nulCharacter = null;

  protected override get engineName(): string {
    return 'PostgreSQL';
  }

  protected paramTypeName(type: ParamType): string | null {
    return TYPES[type];
  }

  override typedPlaceholder(placeholder: string, type: ParamType, value?: unknown): string {
    // Functions such as SUBSTRING and SPLIT_PART take int4 arguments; bigint is only needed for big values.
    if (type === 'integer' && typeof value === 'number' && Math.abs(value) < 2 ** 31) return `${placeholder}::integer`;
    const name = TYPES[type];
    return name ? `${placeholder}::${name}` : placeholder;
  }

  override readonly maxBoundParameters = 65_535;

  /** A long IN list is one array parameter: `x = ANY($1::bigint[])` (`<> ALL` for NOT IN). */
  override longIn(x: Sql, values: unknown[], type: 'text' | 'integer' | 'float', negate: boolean): Sql {
    const array = sql`${param(values, `${type}[]` as ParamType)}`;
    return negate ? sql`(${x} <> ALL(${array}))` : sql`(${x} = ANY(${array}))`;
  }

  override inlineLiteral(value: unknown, type: ParamType): string {
    if (Array.isArray(value)) return `ARRAY[${value.map((v) => super.inlineLiteral(v, type.replace('[]', '') as ParamType)).join(', ')}]::${TYPES[type]}`;
    return super.inlineLiteral(value, type);
  }

  /**
   * `("column" #>> $n::text[])` — the text at the path, NULL when a key is missing or the value is JSON null — cast to
   * the field's type. The path is bound as one text[] value (keys may hold any character); /api/dataset/native
   * shows it as an escaped ARRAY[…] literal.
   */
  override jsonPathValue(column: Sql, path: readonly string[], baseType: string): Sql {
    const text = sql`(${column} #>> ${param([...path], 'text[]')})`;
    const type = jsonCastType(baseType);
    return type ? sql`CAST(${text} AS ${raw(type)})` : text;
  }

  override regexMatchFirst(s: Sql, pattern: Sql): Sql {
    // SUBSTRING … FROM returns the first parenthesised group: wrapping the pattern makes that the whole match.
    return sql`SUBSTRING(${s} FROM CONCAT('(', ${pattern}, ')'))`;
  }

  override splitPart(s: Sql, delimiter: Sql, n: Sql): Sql {
    return sql`SPLIT_PART(${s}, ${delimiter}, CAST(${n} AS INTEGER))`;
  }

  override truncBasic(x: Sql, unit: BasicTruncUnit): Sql {
    // date_trunc on a DATE would go through timestamptz (the session zone); a plain timestamp keeps it local.
    return sql`DATE_TRUNC(${raw(`'${unit}'`)}, CAST(${x} AS TIMESTAMP))`;
  }

  override extract(x: Sql, field: ExtractField): Sql {
    if (field === 'millisecond') return sql`MOD(CAST(EXTRACT(MILLISECONDS FROM ${x}) AS INTEGER), 1000)`;
    if (field === 'second') return sql`CAST(FLOOR(EXTRACT(SECOND FROM ${x})) AS INTEGER)`;
    return super.extract(x, field);
  }

  override round(x: Sql): Sql {
    // ROUND(double) breaks ties to even on most platforms; NUMERIC rounds half away from zero like the others.
    return sql`CAST(ROUND(CAST(${x} AS NUMERIC)) AS DOUBLE PRECISION)`;
  }
}

/** The PostgreSQL type a nested JSON value of a Metabase base type is cast to; null keeps the text. */
function jsonCastType(baseType: string): string | null {
  if (isBoolean(baseType)) return 'BOOLEAN';
  if (isInteger(baseType)) return 'BIGINT';
  if (isNumeric(baseType)) return 'NUMERIC';
  if (isDate(baseType)) return 'DATE';
  if (isTime(baseType)) return 'TIME';
  if (isZoned(baseType)) return 'TIMESTAMPTZ';
  if (isDateTime(baseType)) return 'TIMESTAMP';
  return null;
}

export const postgresDialect = new PostgresDialect();
