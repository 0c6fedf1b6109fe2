// A connected SQLite file. better-sqlite3 is synchronous, so one handle serves every statement; rows are pulled
// in small batches with a yield to the event loop between them, so a long result never starves other requests,
// and cancellation (signal, timeout) takes effect between batches.

import Database from 'better-sqlite3';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ConnectionDetails, DbmsVersion, DriverConnection, ExecuteOptions, Introspection, OpenOptions, ResultColumn, RowStream } from '../driver.js';
import { batchedRowStream, watchCancellation } from '../shared/row-stream.js';
import { resolveDatabaseFile } from '../shared/files.js';
import { ConnectionError } from '../shared/connect-errors.js';
import { base64, integerValue, localTimestamp } from '../shared/values.js';
import { checkSqliteStatement } from './guard.js';
import { sqliteBaseType, sqliteValueKind, type SqliteValueKind } from './types.js';
import { introspectSqlite } from './introspect.js';

const BATCH = 500;

function convert(value: unknown, kind: SqliteValueKind): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    const n = integerValue(value);
    return kind === 'boolean' && typeof n === 'number' ? n !== 0 : n;
  }
  if (kind === 'boolean' && typeof value === 'number') return value !== 0;
  if (kind === 'timestamp' && typeof value === 'string') return localTimestamp(value);
  if (value instanceof Uint8Array) return base64(value);
  return value;
}

/** Base type of an expression column (no declared type) from the values of the first batch. */
function inferBaseType(rows: unknown[][], index: number): string {
  let sawFloat = false;
  let sawInt = false;
  for (const row of rows) {
    const v = row[index];
    if (v === null || v === undefined) continue;
    if (typeof v === 'bigint') sawInt = true;
    else if (typeof v === 'number') Number.isInteger(v) ? (sawInt = true) : (sawFloat = true);
    else if (typeof v === 'string') return 'type/Text';
    else return 'type/*';
  }
  if (sawFloat) return 'type/Float';
  if (sawInt) return 'type/Integer';
  return 'type/*';
}

export class SqliteConnection implements DriverConnection {
  private handle: Database.Database | null = null;

  constructor(
    private readonly details: ConnectionDetails,
    private readonly options: OpenOptions,
  ) {}

  get readOnly(): boolean {
    return this.details['read-only'] === true;
  }

  /** Opens the file on first use, so errors surface from test()/execute() rather than from open(). */
  db(): Database.Database {
    if (this.handle) return this.handle;
    const file = resolveDatabaseFile(String(this.details.db ?? ''), this.options.dataDir, this.options.protectedPaths);
    let handle: Database.Database;
    try {
      handle = new Database(file, { readonly: this.readOnly, fileMustExist: true, timeout: 5000 });
    } catch (error) {
      throw new ConnectionError(`Unable to open SQLite database "${file}": ${(error as Error).message}`, 'db');
    }
    try {
      // Reading the schema checks that the file really is a SQLite database.
      handle.prepare('select count(*) from sqlite_master').get();
      if (this.readOnly) handle.pragma('query_only = ON');
    } catch (error) {
      handle.close();
      throw new ConnectionError(`"${file}" is not a readable SQLite database: ${(error as Error).message}`, 'db');
    }
    this.handle = handle;
    return handle;
  }

  async test(): Promise<void> {
    this.db();
  }

  async execute(sql: string, params: unknown[], options?: ExecuteOptions): Promise<RowStream> {
    checkSqliteStatement(sql);
    const db = this.db();
    const statement = db.prepare(sql);
    const bound = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p instanceof Date ? p.toISOString() : p));
    const effective = { ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs };
    if (!statement.reader) {
      statement.run(...bound);
      return batchedRowStream([], async () => null, async () => {});
    }
    statement.safeIntegers(true);
    statement.raw(true);
    const declared = statement.columns();
    const iterator = statement.iterate(...bound) as IterableIterator<unknown[]>;
    const cancellation = watchCancellation(effective, () => {});
    let finished = false;
    const readBatch = (): unknown[][] => {
      const rows: unknown[][] = [];
      while (rows.length < BATCH) {
        const next = iterator.next();
        if (next.done) {
          finished = true;
          break;
        }
        rows.push(next.value);
      }
      return rows;
    };
    const release = async () => {
      cancellation.dispose();
      if (!finished) iterator.return?.();
    };
    let first: unknown[][];
    try {
      first = readBatch();
    } catch (error) {
      await release();
      throw error;
    }
    const kinds = declared.map((c) => sqliteValueKind(c.type));
    const columns: ResultColumn[] = declared.map((c, i) => ({
      name: c.name,
      databaseType: c.type ?? '',
      baseType: c.type ? sqliteBaseType(c.type) : inferBaseType(first, i),
    }));
    const convertRows = (rows: unknown[][]) => rows.map((row) => row.map((v, i) => convert(v, kinds[i])));
    let pending: unknown[][] | null = convertRows(first);
    return batchedRowStream(
      columns,
      async () => {
        if (pending) {
          const out = pending;
          pending = null;
          if (out.length > 0 || !finished) return out;
        }
        if (cancellation.error) throw cancellation.error;
        if (finished) return null;
        await yieldToEventLoop();
        if (cancellation.error) throw cancellation.error;
        const rows = readBatch();
        return rows.length === 0 && finished ? null : convertRows(rows);
      },
      release,
    );
  }

  async introspect(): Promise<Introspection> {
    return introspectSqlite(this.db());
  }

  async schemas(): Promise<string[]> {
    return [];
  }

  async version(): Promise<DbmsVersion> {
    const row = this.db().prepare('select sqlite_version() as v').get() as { v: string };
    return { flavor: 'SQLite', version: row.v, 'semantic-version': row.v.split('.').map(Number).slice(0, 2) };
  }

  async timezone(): Promise<string | null> {
    return 'UTC';
  }

  async close(): Promise<void> {
    this.handle?.close();
    this.handle = null;
  }
}
