// The few SQL statements sync and the metadata API run themselves (samples, distinct values, counts). They are
// plain enough to read the same on all four engines; identifiers go through the driver's quoting and values are
// always bound parameters.

import type { Driver } from '../drivers/driver.js';

export interface TableRef {
  schema: string | null;
  name: string;
}

export function tableSql(driver: Driver, table: TableRef): string {
  const name = driver.quoteIdentifier(table.name);
  return table.schema && driver.hasSchemas ? `${driver.quoteIdentifier(table.schema)}.${name}` : name;
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

/** The first `limit` rows of the listed columns (the fingerprint sample). */
export function sampleSql(driver: Driver, table: TableRef, columns: string[], limit: number): string {
  return `SELECT ${columns.map((c) => driver.quoteIdentifier(c)).join(', ')} FROM ${tableSql(driver, table)} LIMIT ${Math.floor(limit)}`;
}

export function distinctValuesSql(driver: Driver, table: TableRef, column: string, limit: number): string {
  const c = driver.quoteIdentifier(column);
  return `SELECT DISTINCT ${c} FROM ${tableSql(driver, table)} WHERE ${c} IS NOT NULL ORDER BY ${c} LIMIT ${Math.floor(limit)}`;
}

export function countsSql(driver: Driver, table: TableRef, column: string): string {
  const c = driver.quoteIdentifier(column);
  return `SELECT COUNT(*), COUNT(DISTINCT ${c}) FROM ${tableSql(driver, table)}`;
}

/** Distinct values of `column` (paired with `display` when given) whose text starts with the bound prefix. */
export function prefixSearchSql(driver: Driver, table: TableRef, column: string, display: string | null, limit: number): string {
  const c = driver.quoteIdentifier(column);
  const d = display ? driver.quoteIdentifier(display) : null;
  const searched = d ?? c;
  return `SELECT DISTINCT ${d ? `${c}, ${d}` : c} FROM ${tableSql(driver, table)} WHERE LOWER(${textOf(driver, searched)}) LIKE ${driver.placeholder(1)} ESCAPE '!' ORDER BY ${d ?? c} LIMIT ${Math.floor(limit)}`;
}

export function lookupSql(driver: Driver, table: TableRef, keyColumn: string, valueColumn: string): string {
  return `SELECT ${driver.quoteIdentifier(valueColumn)} FROM ${tableSql(driver, table)} WHERE ${driver.quoteIdentifier(keyColumn)} = ${driver.placeholder(1)} LIMIT 1`;
}

/** A LIKE pattern (ESCAPE '!') matching strings that start with `prefix`, with LIKE's wildcards escaped. */
export function likePrefix(prefix: string): string {
  return prefix.toLowerCase().replace(/[!%_]/g, (ch) => `!${ch}`) + '%';
}
