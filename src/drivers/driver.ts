// The contract every engine folder (src/drivers/<engine>/) fulfils. The query engine (src/query) and metadata sync
// (src/sync) only ever talk to a database through these types, so adding an engine is one folder plus one line
// in ./registry.ts.
//
// Value conventions for rows coming out of `execute` (the same on every engine, so results compare equal):
//   - integers: JS number, or a decimal string when outside ±2^53 (never a bigint);
//   - floats and decimals: JS number (decimals may be a string only when they cannot be represented exactly);
//   - booleans: JS boolean (SQLite columns declared BOOLEAN are converted from 0/1);
//   - text: string; binary: base64 string; JSON/arrays: their JSON text;
//   - temporal values: ISO-8601 strings, never Date objects —
//       DATE → "2024-01-31"; TIME → "10:30:00" or "10:30:00.123";
//       TIMESTAMP without time zone → "2024-01-31T10:30:00" or "2024-01-31T10:30:00.123" (no offset);
//       TIMESTAMP WITH TIME ZONE → the instant in UTC with "Z", e.g. "2024-01-31T10:30:00Z";
//       infinite dates and timestamps (PostgreSQL, DuckDB) → "infinity" / "-infinity";
//   - NULL: null.

import type { EngineDescriptor } from './engines.js';

/** Connection details after validation: only the allow-listed keys of the engine, with typed values. */
export type ConnectionDetails = Record<string, string | number | boolean | null | string[]>;

export interface OpenOptions {
  /** Maximum simultaneous connections to this database (default 15, like Metabase). */
  maxConnections: number;
  /** Directory for local state (relative SQLite/DuckDB paths resolve against it). */
  dataDir: string;
  /** Give up connecting after this long, with a clear error (default 10 s). */
  connectTimeoutMs?: number;
  /** Timeout applied to every statement that doesn't pass its own `timeoutMs` (MB_DB_QUERY_TIMEOUT_MINUTES). */
  queryTimeoutMs?: number;
  /** Files a file-based engine must refuse to open (the app database itself). */
  protectedPaths?: string[];
}

export interface ExecuteOptions {
  /** Aborting cancels the statement on the database server (pg_cancel_backend, KILL QUERY, interrupt). */
  signal?: AbortSignal;
  /** Per-statement timeout; the statement is cancelled on the database when it passes. */
  timeoutMs?: number;
  /**
   * Run the statement with this session time zone (an IANA zone, the report time zone), on engines that have one;
   * the pooled connection is put back to its own zone afterwards (or discarded), so the zone never leaks into
   * another statement.
   */
  timezone?: string | null;
}

export interface ResultColumn {
  name: string;
  /** The engine's own type name, e.g. "TIMESTAMP", "int8", "DECIMAL(10,2)". */
  databaseType: string;
  /** The Metabase base type, e.g. "type/DateTime", "type/BigInteger". */
  baseType: string;
}

/**
 * A running statement's rows, pulled one batch at a time from a server-side cursor (or the engine's equivalent),
 * so that memory stays bounded however many rows there are. Breaking out of the iteration, or calling `close`,
 * releases the connection (and cancels the statement if it is still running).
 */
export interface RowStream extends AsyncIterable<unknown[]> {
  columns: ResultColumn[];
  close(): Promise<void>;
  /**
   * The next batch of rows (never empty), or null after the last one, when the connection has been released: for
   * consumers that handle rows by the hundred (a million-row export), instead of iterating row by row. Use one way
   * of reading per stream, not both.
   */
  nextBatch(): Promise<unknown[][] | null>;
  /**
   * Offered by engines that read rows in another process (SQLite's workers): runs the query engine's row pass
   * (src/query/results/row-processor.ts; `plan` is its RowPlan) where the rows are read, so that they come back as
   * JSON text rather than values. Call it instead of reading any batch; the stream is then read through the result.
   */
  encoded?(plan: unknown): EncodedRows;
}

/** Rows converted, annotated and written as JSON by the engine's side (see `RowStream.encoded`). */
export interface EncodedRows {
  /** The next rows as JSON array elements without the brackets, or null after the last (connection released). */
  next(): Promise<{ json: string; count: number } | null>;
  /** What the row pass worked out over all the rows (its RowSummary), once `next` returned null. */
  summary(): unknown;
}

export interface IntrospectedField {
  name: string;
  databaseType: string;
  baseType: string;
  /** 0-based position in the table. */
  position: number;
  required: boolean;
  autoIncrement: boolean;
  primaryKey: boolean;
  description?: string | null;
  /** For fields unfolded from a JSON column: the path below the column. */
  nfcPath?: string[] | null;
}

export interface IntrospectedTable {
  schema: string | null;
  name: string;
  description?: string | null;
  estimatedRowCount?: number | null;
  fields: IntrospectedField[];
}

export interface IntrospectedForeignKey {
  fromSchema: string | null;
  fromTable: string;
  fromColumn: string;
  toSchema: string | null;
  toTable: string;
  toColumn: string;
}

export interface Introspection {
  tables: IntrospectedTable[];
  foreignKeys: IntrospectedForeignKey[];
}

export interface DbmsVersion {
  flavor: string;
  version: string;
  'semantic-version': number[];
}

/** What one statement did inside a write transaction (see `DriverConnection.transaction`). */
export interface WriteResult {
  /** Rows inserted, updated or deleted. */
  rowsAffected: number;
  /** Rows the statement returned (RETURNING, or a SELECT), keyed by column name, values per the conventions above. */
  rows: Array<Record<string, unknown>>;
  /** The AUTO_INCREMENT id an INSERT generated (MySQL/MariaDB), else null. */
  insertId: number | string | null;
}

/** A write refused by a constraint or a value of the wrong type, in engine-neutral terms (actions word it). */
export interface WriteViolation {
  /**
   * not-null: a required column got no value; unique: the value exists already; foreign-key: the referenced row
   * doesn't exist; referenced: other rows refer to the one being changed or deleted; incorrect-type: a value the
   * column can't hold.
   */
  kind: 'not-null' | 'unique' | 'foreign-key' | 'referenced' | 'incorrect-type';
  /** The columns concerned, when the engine says. */
  columns: string[];
}

export interface WriteSession {
  run(sql: string, params: unknown[]): Promise<WriteResult>;
}

/** What a database's connection pool holds right now (Metabase's pool figures). */
export interface PoolStats {
  /** Connections open (busy and idle). */
  total: number;
  idle: number;
  busy: number;
  /** Callers waiting for a connection. */
  waiting: number;
  min: number;
  max: number;
}

/** An open connection pool to one connected database. */
export interface DriverConnection {
  /** Throws an Error whose message is the driver's (humanized) reason when the database can't be reached. */
  test(): Promise<void>;
  /** Runs one statement with bound positional parameters (placeholders as `Driver.placeholder` writes them). */
  execute(sql: string, params: unknown[], options?: ExecuteOptions): Promise<RowStream>;
  /** Schemas, tables, columns, primary and foreign keys; `schemas` limits to those (when the engine has schemas). */
  introspect(options?: { schemas?: string[] }): Promise<Introspection>;
  /**
   * Runs `work` in one transaction on one pooled connection — how actions write: committed when `work` returns,
   * rolled back when it throws (or is cancelled). Only engines with the `actions` feature implement it.
   */
  transaction?<T>(work: (session: WriteSession) => Promise<T>, options?: ExecuteOptions): Promise<T>;
  /** Every schema that could be synced (for /api/database/:id/syncable_schemas). */
  schemas(): Promise<string[]>;
  version(): Promise<DbmsVersion>;
  /** The database server's time zone (IANA id when known), or null. */
  timezone(): Promise<string | null>;
  close(): Promise<void>;
  /** The pool's figures now (null before the pool was first used, or when the client library doesn't tell). */
  poolStats?(): PoolStats | null;
}

export interface Driver {
  readonly engine: string;
  readonly descriptor: EngineDescriptor;
  /** Metabase feature keywords (`nested-queries`, `expressions`, `regex`, `percentile-aggregations`, …). */
  readonly features: ReadonlySet<string>;
  /** How many statements the engine really runs in parallel on one database, when fewer than its pool size. */
  readonly maxConcurrency?: number;
  /** Engines without schemas (SQLite) report tables with a null schema. */
  readonly hasSchemas: boolean;
  /**
   * Builds typed, allow-listed details from what a client sent; unknown keys are dropped, never passed through.
   * Throws an ApiError (400) naming the bad field.
   */
  normalizeDetails(details: Record<string, unknown>): ConnectionDetails;
  /** Details keys whose values are secrets (masked as "**MetabasePass**" on read). */
  readonly secretDetails: readonly string[];
  open(details: ConnectionDetails, options: OpenOptions): DriverConnection;
  /** `INSERT … RETURNING *` gives back the inserted row (else it is read back by its key). */
  readonly insertReturning?: boolean;
  /** What a failed write statement violated, or null when its error is of another kind. */
  describeWriteError?(error: unknown): WriteViolation | null;
  /** Quotes an identifier for this engine. */
  quoteIdentifier(name: string): string;
  /** The bound-parameter placeholder for the 1-based `index`th parameter ("$1" or "?"). */
  placeholder(index: number): string;
}
