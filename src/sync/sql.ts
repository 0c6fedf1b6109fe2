// The few SQL statements sync and the metadata API run themselves (samples, distinct values, counts, lookups). They
// are plain enough to read the same on all four engines; identifiers go through the driver's quoting and values are
// always bound parameters. A column is a table column, or — for a field unfolded from a JSON column (`nfc_path`,
// engines with `nested-field-columns`) — the value at a path inside it.

import type { Driver } from '../drivers/driver.js';
import { parseJson } from '../appdb/portable.js';
import { badRequest } from '../http/errors.js';

export interface TableRef {
  schema: string | null;
  name: string;
}

/** A field as these statements read it: its column name, and for a nested JSON field its path and type. */
export interface ColumnRef {
  name: string;
  /** JSON array [column, key, …] (as stored), or null for a plain column. */
  nfc_path?: string | null;
  database_type?: string | null;
}

/** A statement and its bound parameters, in placeholder order. */
export interface Statement {
  sql: string;
  params: unknown[];
}

export const NESTED_UNSUPPORTED = "This field is nested inside a JSON column, which this database can't read by path.";

export function tableSql(driver: Driver, table: TableRef): string {
  const name = driver.quoteIdentifier(table.name);
  return table.schema && driver.hasSchemas ? `${driver.quoteIdentifier(table.schema)}.${name}` : name;
}

/** The JSON path of a nested field ([column, key, …]), or null for a plain column. */
export function nestedPath(column: ColumnRef): string[] | null {
  const path = column.nfc_path ? parseJson<unknown>(column.nfc_path, null) : null;
  return Array.isArray(path) && path.length >= 2 && path.every((p) => typeof p === 'string') ? (path as string[]) : null;
}

/** Whether the driver can read the column (nested JSON fields need `nested-field-columns`). */
export function canReadColumn(driver: Driver, column: ColumnRef): boolean {
  return nestedPath(column) === null || driver.features.has('nested-field-columns');
}

// The types json-unfold.ts gives nested fields, as PostgreSQL casts.
const NESTED_CASTS: Record<string, string> = { bigint: 'bigint', decimal: 'decimal', boolean: 'boolean', timestamp: 'timestamp', text: 'text' };

/**
 * The column as an SQL expression, with the parameters it binds appended to `params`. A nested field reads
 * `("column" #>> $n::text[])` cast to its type; the path is one parameter referred to by number, so the
 * expression may be repeated — only PostgreSQL (numbered placeholders) has `nested-field-columns`.
 */
export function columnSql(driver: Driver, column: ColumnRef, params: unknown[]): string {
  const path = nestedPath(column);
  if (!path) return driver.quoteIdentifier(column.name);
  if (!driver.features.has('nested-field-columns') || driver.engine !== 'postgres') throw badRequest(NESTED_UNSUPPORTED);
  params.push(path.slice(1));
  const extracted = `(${driver.quoteIdentifier(path[0])} #>> ${driver.placeholder(params.length)}::text[])`;
  const cast = NESTED_CASTS[String(column.database_type ?? '').toLowerCase()] ?? 'text';
  return cast === 'text' ? extracted : `CAST(${extracted} AS ${cast})`;
}

/** An expression's text form, for case-insensitive prefix search of any column. */
export function textOf(driver: Driver, expression: string): string {
  switch (driver.engine) {
    case 'mysql':
      return `CAST(${expression} AS CHAR)`;
    case 'duckdb':
      return `CAST(${expression} AS VARCHAR)`;
    default:
      return `CAST(${expression} AS TEXT)`;
  }
}

/** The first `limit` rows of the listed (plain) columns (the fingerprint sample). */
export function sampleSql(driver: Driver, table: TableRef, columns: string[], limit: number): string {
  return `SELECT ${columns.map((c) => driver.quoteIdentifier(c)).join(', ')} FROM ${tableSql(driver, table)} LIMIT ${Math.floor(limit)}`;
}

export function distinctValuesSql(driver: Driver, table: TableRef, column: ColumnRef, limit: number): Statement {
  const params: unknown[] = [];
  const c = columnSql(driver, column, params);
  return { sql: `SELECT DISTINCT ${c} FROM ${tableSql(driver, table)} WHERE ${c} IS NOT NULL ORDER BY 1 LIMIT ${Math.floor(limit)}`, params };
}

export function countsSql(driver: Driver, table: TableRef, column: ColumnRef): Statement {
  const params: unknown[] = [];
  const c = columnSql(driver, column, params);
  return { sql: `SELECT COUNT(*), COUNT(DISTINCT ${c}) FROM ${tableSql(driver, table)}`, params };
}

/** Distinct values of `column` (paired with `display` when given) whose text starts with `prefix` (see likePrefix). */
export function prefixSearchSql(driver: Driver, table: TableRef, column: ColumnRef, display: ColumnRef | null, prefix: string, limit: number): Statement {
  const params: unknown[] = [];
  const c = columnSql(driver, column, params);
  const d = display ? columnSql(driver, display, params) : null;
  params.push(prefix);
  const like = driver.placeholder(params.length);
  return {
    sql: `SELECT DISTINCT ${d ? `${c}, ${d}` : c} FROM ${tableSql(driver, table)} WHERE LOWER(${textOf(driver, d ?? c)}) LIKE ${like} ESCAPE '!' ORDER BY ${d ? 2 : 1} LIMIT ${Math.floor(limit)}`,
    params,
  };
}

/** The value of `valueColumn` in a row whose `keyColumn` equals `key`. */
export function lookupSql(driver: Driver, table: TableRef, keyColumn: ColumnRef, valueColumn: ColumnRef, key: unknown): Statement {
  const params: unknown[] = [];
  const value = columnSql(driver, valueColumn, params);
  const k = columnSql(driver, keyColumn, params);
  params.push(key);
  return { sql: `SELECT ${value} FROM ${tableSql(driver, table)} WHERE ${k} = ${driver.placeholder(params.length)} LIMIT 1`, params };
}

/** A LIKE pattern (ESCAPE '!') matching strings that start with `prefix`, with LIKE's wildcards escaped. */
export function likePrefix(prefix: string): string {
  return prefix.toLowerCase().replace(/[!%_]/g, (ch) => `!${ch}`) + '%';
}
