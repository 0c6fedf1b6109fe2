// A connected SQLite file. Statements run in worker processes (./workers.ts), so a heavy query never blocks the
// event loop and a cancelled or timed-out one is stopped; the catalog queries of introspection use one handle on
// the main thread (they are quick).

import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { ConnectionDetails, DbmsVersion, DriverConnection, ExecuteOptions, Introspection, OpenOptions, PoolStats, ResultColumn, RowStream } from '../driver.js';
import { batchedRowStream, watchCancellation } from '../shared/row-stream.js';
import { resolveDatabaseFile } from '../shared/files.js';
import { ConnectionError } from '../shared/connect-errors.js';
import { base64, integerValue, localTimestamp } from '../shared/values.js';
import { checkSqliteProgram, checkSqliteStatement, RefusedStatementError } from './guard.js';
import { sqliteBaseType, sqliteValueKind, type SqliteValueKind } from './types.js';
import { introspectSqlite } from './introspect.js';
import { workerPool, SqliteStatementError, type SqliteWorker, type WorkerReply } from './workers.js';
import type { ResourcePool } from '../shared/pool.js';
import { SQLITE_MAX_WORKERS } from './limits.js';

/** SQLite reads in parallel, but there is no gain in more threads than a small machine has cores. */

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
  private file: string | null = null;
  private pool: ResourcePool<SqliteWorker> | null = null;

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
    this.file = file;
    return handle;
  }

  poolStats(): PoolStats | null {
    if (!this.pool) return null;
    const { total, idle, waiting, max } = this.pool.stats();
    return { total, idle, busy: total - idle, waiting, min: 0, max };
  }

  async test(): Promise<void> {
    // An open handle outlives its file: check the file is still there.
    if (this.handle && this.file && !existsSync(this.file)) throw new ConnectionError(`Database file "${this.file}" does not exist.`, 'db');
    this.db();
  }

  private workers(): ResourcePool<SqliteWorker> {
    if (!this.pool) {
      const file = this.file ?? (this.db(), this.file!);
      this.pool = workerPool(file, this.readOnly, Math.max(1, Math.min(this.options.maxConnections, SQLITE_MAX_WORKERS)));
    }
    return this.pool;
  }

  async execute(sql: string, params: unknown[], options?: ExecuteOptions): Promise<RowStream> {
    const writable = !this.readOnly;
    const checked = checkSqliteStatement(sql, { writable });
    const bound = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p instanceof Date ? p.toISOString() : p === undefined ? null : p));
    const pool = this.workers();
    const worker = await pool.acquire();
    let broken = false;
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => {
      broken = true;
      worker.stop(cancellation.error ?? undefined);
    });
    let open = false;
    const release = async () => {
      cancellation.dispose();
      if (open && !broken) {
        try {
          await worker.request({ type: 'close' });
        } catch {
          broken = true;
        }
      }
      pool.release(worker, broken);
    };
    let first: WorkerReply;
    try {
      checkSqliteProgram(await worker.explain(checked.body, bound), { writable });
      first = await worker.request({ type: 'run', sql, params: bound });
    } catch (error) {
      if (!(error instanceof SqliteStatementError) && !(error instanceof RefusedStatementError)) broken = true;
      await release();
      throw cancellation.translate(error);
    }
    open = !first.done;
    const declared = first.columns ?? [];
    const firstRows = first.rows ?? [];
    const kinds = declared.map((c) => sqliteValueKind(c.type));
    const columns: ResultColumn[] = declared.map((c, i) => ({
      name: c.name,
      databaseType: c.type ?? '',
      baseType: c.type ? sqliteBaseType(c.type) : inferBaseType(firstRows, i),
    }));
    const convertRows = (rows: unknown[][]) => rows.map((row) => row.map((v, i) => convert(v, kinds[i])));
    let pending: unknown[][] | null = convertRows(firstRows);
    return batchedRowStream(
      columns,
      async () => {
        if (pending) {
          const out = pending;
          pending = null;
          if (out.length) return out;
        }
        if (!open) return null;
        if (cancellation.error) throw cancellation.error;
        try {
          const reply = await worker.request({ type: 'next' });
          open = !reply.done;
          const rows = reply.rows ?? [];
          return rows.length ? convertRows(rows) : open ? [] : null;
        } catch (error) {
          open = false;
          if (!(error instanceof SqliteStatementError)) broken = true;
          throw cancellation.translate(error);
        }
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
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
    this.handle?.close();
    this.handle = null;
  }
}
