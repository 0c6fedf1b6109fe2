// Writing an upload into the uploads database through its driver: the column types of each engine, CREATE TABLE,
// batched INSERTs with bound values (in one transaction where the engine has them), and DROP TABLE to undo a failed
// upload.

import type { Driver, DriverConnection } from '../drivers/driver.js';
import type { UploadType } from './types.js';

export const AUTO_PK_COLUMN = '_mb_row_id';

const TYPES: Record<string, Record<UploadType | 'pk', string>> = {
  sqlite: {
    pk: 'INTEGER PRIMARY KEY',
    boolean: 'BOOLEAN',
    int: 'BIGINT',
    float: 'DOUBLE',
    date: 'DATE',
    datetime: 'TIMESTAMP',
    offset_datetime: 'TIMESTAMP WITH TIME ZONE',
    varchar_255: 'VARCHAR(255)',
    text: 'TEXT',
  },
  postgres: {
    pk: 'BIGINT PRIMARY KEY',
    boolean: 'BOOLEAN',
    int: 'BIGINT',
    float: 'DOUBLE PRECISION',
    date: 'DATE',
    datetime: 'TIMESTAMP',
    offset_datetime: 'TIMESTAMP WITH TIME ZONE',
    varchar_255: 'VARCHAR(255)',
    text: 'TEXT',
  },
  mysql: {
    pk: 'BIGINT PRIMARY KEY',
    boolean: 'BOOLEAN',
    int: 'BIGINT',
    float: 'DOUBLE',
    date: 'DATE',
    datetime: 'DATETIME(3)',
    offset_datetime: 'TIMESTAMP(3)',
    varchar_255: 'VARCHAR(255)',
    text: 'TEXT',
  },
  duckdb: {
    pk: 'BIGINT PRIMARY KEY',
    boolean: 'BOOLEAN',
    int: 'BIGINT',
    float: 'DOUBLE',
    date: 'DATE',
    datetime: 'TIMESTAMP',
    offset_datetime: 'TIMESTAMPTZ',
    varchar_255: 'VARCHAR',
    text: 'VARCHAR',
  },
};

export function supportsUploads(engine: string): boolean {
  return Object.hasOwn(TYPES, engine);
}

export interface UploadColumn {
  name: string;
  type: UploadType;
}

/** `schema.table` quoted for the engine. */
export function qualifiedName(driver: Driver, schema: string | null, table: string): string {
  return schema ? `${driver.quoteIdentifier(schema)}.${driver.quoteIdentifier(table)}` : driver.quoteIdentifier(table);
}

/** Runs one statement that returns no rows, through the engine's stream (SQLite, DuckDB). */
async function run(connection: DriverConnection, sql: string, params: unknown[] = []): Promise<void> {
  const stream = await connection.execute(sql, params);
  try {
    for await (const _row of stream) {
      // statements without results; nothing to read
    }
  } finally {
    await stream.close();
  }
}

/**
 * Runs statements that return no rows: in one write transaction on engines that have them (the `actions` feature:
 * PostgreSQL, MySQL and MariaDB, whose `execute` expects a result set), else one by one. On MySQL a DDL statement
 * commits by itself, so CREATE TABLE and the INSERTs go in separate calls.
 */
async function write(driver: Driver, connection: DriverConnection, statements: Array<{ sql: string; params: unknown[] }>): Promise<void> {
  if (driver.features.has('actions') && connection.transaction) {
    await connection.transaction(async (session) => {
      for (const s of statements) await session.run(s.sql, s.params);
    });
    return;
  }
  for (const s of statements) await run(connection, s.sql, s.params);
}

export async function createTable(driver: Driver, connection: DriverConnection, name: string, columns: UploadColumn[]): Promise<void> {
  const types = TYPES[driver.engine];
  const definitions = [
    `${driver.quoteIdentifier(AUTO_PK_COLUMN)} ${types.pk}`,
    ...columns.map((c) => `${driver.quoteIdentifier(c.name)} ${types[c.type]}`),
  ];
  await write(driver, connection, [{ sql: `CREATE TABLE ${name} (${definitions.join(', ')})`, params: [] }]);
}

/** A parsed value as this engine wants it bound. */
function bindable(engine: string, type: UploadType, value: string | number | boolean | null): unknown {
  if (value === null) return null;
  if (engine === 'mysql' && (type === 'datetime' || type === 'offset_datetime') && typeof value === 'string') {
    return value.replace('T', ' ').replace(/Z$/, '');
  }
  return value;
}

const MAX_PARAMS = 10_000;

export interface Statement {
  sql: string;
  params: unknown[];
}

/** Batched INSERTs of `rows`, numbering `_mb_row_id` from `firstId`. */
export function insertStatements(
  driver: Driver,
  name: string,
  columns: UploadColumn[],
  rows: Array<Array<string | number | boolean | null>>,
  firstId = 1,
): Statement[] {
  const width = columns.length + 1;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / width));
  const names = [AUTO_PK_COLUMN, ...columns.map((c) => c.name)].map((n) => driver.quoteIdentifier(n)).join(', ');
  const statements: Statement[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = batch.map((row, r) => {
      params.push(firstId + start + r, ...row.map((v, i) => bindable(driver.engine, columns[i].type, v)));
      return `(${Array.from({ length: width }, (_, c) => driver.placeholder(r * width + c + 1)).join(', ')})`;
    });
    statements.push({ sql: `INSERT INTO ${name} (${names}) VALUES ${tuples.join(', ')}`, params });
  }
  return statements;
}

export async function insertRows(
  driver: Driver,
  connection: DriverConnection,
  name: string,
  columns: UploadColumn[],
  rows: Array<Array<string | number | boolean | null>>,
): Promise<void> {
  await write(driver, connection, insertStatements(driver, name, columns, rows));
}

/** ALTER TABLE … ADD COLUMN for a column a later CSV brings. */
export function addColumnStatement(driver: Driver, name: string, column: UploadColumn): Statement {
  return { sql: `ALTER TABLE ${name} ADD COLUMN ${driver.quoteIdentifier(column.name)} ${TYPES[driver.engine][column.type]}`, params: [] };
}

export function deleteAllStatement(name: string): Statement {
  return { sql: `DELETE FROM ${name}`, params: [] };
}

/** Runs statements that change the table (in one transaction on engines whose writes have one). */
export async function writeStatements(driver: Driver, connection: DriverConnection, statements: Statement[]): Promise<void> {
  await write(driver, connection, statements);
}

export async function dropTable(driver: Driver, connection: DriverConnection, name: string): Promise<void> {
  await write(driver, connection, [{ sql: `DROP TABLE IF EXISTS ${name}`, params: [] }]);
}

/** Did CREATE TABLE fail because the name is taken? (Then the table is someone else's and must not be dropped.) */
export function isAlreadyExists(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '42P07' || e?.code === 'ER_TABLE_EXISTS_ERROR' || /already exists/i.test(String(e?.message ?? ''));
}
