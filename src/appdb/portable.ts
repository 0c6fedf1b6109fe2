// The few places where SQLite, PostgreSQL and MySQL differ for app-DB code, behind one set of helpers.
// Conventions: timestamps are stored as ISO-8601 UTC strings (fixed width, so they sort and compare as text);
// JSON is stored as text; booleans are real booleans in PostgreSQL and 0/1 elsewhere.

import { sql, type Kysely, type Transaction, type ColumnDefinitionBuilder, type CreateTableBuilder } from 'kysely';
import type { AppDbDialect } from './connect.js';
import type { DB } from './schema.js';

export type Db = Kysely<DB> | Transaction<DB>;

export const nowIso = (): string => new Date().toISOString();

export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Inserts one row and returns its generated integer id, on all three dialects. */
export async function insertReturningId<T extends keyof DB & string>(
  db: Db,
  dialect: AppDbDialect,
  table: T,
  values: Record<string, unknown>,
): Promise<number> {
  // The generic Kysely types can't follow a table name chosen at run time; values are checked by callers.
  const query = (db as Kysely<any>).insertInto(table).values(values);
  if (dialect === 'mysql') {
    const result = await query.executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  const row = (await query.returning('id').executeTakeFirstOrThrow()) as { id: number | string };
  return Number(row.id);
}

// ----- migration helpers ---------------------------------------------------------------------------

export type TableBuilder = CreateTableBuilder<string, string>;

/** An auto-increment integer primary key, spelled the way each dialect wants. */
export function withId(builder: TableBuilder, dialect: AppDbDialect): TableBuilder {
  if (dialect === 'postgres') return builder.addColumn('id', 'serial', (c) => c.primaryKey());
  if (dialect === 'mysql') return builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Long text (JSON documents, SQL): TEXT everywhere, LONGTEXT on MySQL where TEXT stops at 64 KB. */
export function longText(dialect: AppDbDialect) {
  return dialect === 'mysql' ? sql`longtext` : sql`text`;
}

export const TS = 'varchar(32)' as const;

export function notNullDefault(value: unknown) {
  return (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(value);
}

/** After inserting rows with explicit ids on PostgreSQL, move the serial sequence past them. */
export async function resetSequence(db: Kysely<any>, dialect: AppDbDialect, table: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 1))`.execute(db);
}

// ----- case-insensitive substring match --------------------------------------------------------------

/** Escapes LIKE wildcards with `!` (an escape character that needs no quoting in any of the three dialects). */
export function likePattern(text: string, mode: 'contains' | 'prefix' = 'contains'): string {
  const escaped = text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
  return mode === 'prefix' ? `${escaped}%` : `%${escaped}%`;
}

/** `lower(column) LIKE '%text%' ESCAPE '!'`, the same on SQLite, PostgreSQL and MySQL. */
export function ilike(column: string, text: string, mode: 'contains' | 'prefix' = 'contains') {
  return sql<boolean>`lower(${sql.ref(column)}) like ${likePattern(text, mode)} escape '!'`;
}

// ----- unique-key violations --------------------------------------------------------------------------

/**
 * Is this error a unique-key (or primary-key) violation? SQLite `SQLITE_CONSTRAINT_UNIQUE`/`_PRIMARYKEY`,
 * PostgreSQL SQLSTATE 23505, MySQL and MariaDB `ER_DUP_ENTRY` (1062).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505' || code === 'ER_DUP_ENTRY' || errno === 1062;
}

/** How a value didn't fit its column: a string longer than its varchar, a number beyond its column's range. */
export type MisfitValue = 'too-long' | 'out-of-range';

/**
 * Recognizes the app DB refusing a value that doesn't fit its column — PostgreSQL SQLSTATE 22001
 * (string_data_right_truncation) and 22003 (numeric_value_out_of_range), MySQL/MariaDB errno 1406 (Data too long)
 * and 1264 (Out of range value); SQLite stores either as given. Null for any other error.
 */
export function misfitValue(error: unknown): MisfitValue | null {
  if (!error || typeof error !== 'object') return null;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  if (code === '22001' || code === 'ER_DATA_TOO_LONG' || errno === 1406) return 'too-long';
  if (code === '22003' || code === 'ER_WARN_DATA_OUT_OF_RANGE' || errno === 1264) return 'out-of-range';
  return null;
}

/**
 * Runs `work` (usually a whole transaction); a unique-key violation it raises becomes the domain's own error. The
 * "is this name free?" check a module makes first answers the ordinary case; this answers two requests racing past
 * that check at once, which the database's unique index catches.
 */
export async function uniqueViolationAs<T>(work: () => Promise<T>, toError: () => Error): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw toError();
    throw error;
  }
}
