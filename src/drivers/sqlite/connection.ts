// A connected SQLite file. Statements run in worker processes (./workers.ts), so a heavy query never blocks the
// event loop and a cancelled or timed-out one is stopped; the catalog queries of introspection use one handle on
// the main thread (they are quick).

import Database, { type SqliteHandle } from '../../util/better-sqlite3.js';
import { existsSync } from 'node:fs';
import type { ConnectionDetails, DbmsVersion, DriverConnection, ExecuteOptions, Introspection, OpenOptions, PoolStats, ResultColumn, RowStream } from '../driver.js';
import { attachEncoded, batchedRowStream, watchCancellation } from '../shared/row-stream.js';
import { resolveDatabaseFile } from '../shared/files.js';
import { ConnectionError } from '../shared/connect-errors.js';
import { checkSqliteStatement, RefusedStatementError } from './guard.js';
import { introspectSqlite } from './introspect.js';
import { workerPool, SqliteStatementError, type SqliteWorker } from './workers.js';
import { REFUSED_CODE, type WorkerReply } from './protocol.js';
import type { ResourcePool } from '../shared/pool.js';
import { SQLITE_MAX_WORKERS } from './limits.js';

export class SqliteConnection implements DriverConnection {
  private handle: SqliteHandle | null = null;
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
  db(): SqliteHandle {
    if (this.handle) return this.handle;
    const file = resolveDatabaseFile(String(this.details.db ?? ''), this.options.dataDir, this.options.protectedPaths);
    let handle: SqliteHandle;
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
      // One message: the worker judges the compiled program (the guard's second layer), then runs the statement.
      first = await worker.request({ type: 'run', sql, params: bound, check: { body: checked.body, writable } });
    } catch (error) {
      if (!(error instanceof SqliteStatementError)) broken = true;
      await release();
      if (error instanceof SqliteStatementError && error.code === REFUSED_CODE) throw new RefusedStatementError(error.message);
      throw cancellation.translate(error);
    }
    open = !first.done;
    let more = open;
    const columns: ResultColumn[] = (first.columns ?? []).map((c) => ({ name: c.name, databaseType: c.type ?? '', baseType: c.baseType }));
    // The worker holds the first batch until it is asked for values (`next`) or for JSON (`encode`).
    const ask = async (message: { type: 'next' } | { type: 'encode'; plan: unknown }): Promise<WorkerReply> => {
      if (cancellation.error) throw cancellation.error;
      try {
        const reply = await worker.request(message);
        more = !reply.done;
        open = more;
        return reply;
      } catch (error) {
        more = false;
        open = false;
        if (!(error instanceof SqliteStatementError)) broken = true;
        throw cancellation.translate(error);
      }
    };
    const stream = batchedRowStream(
      columns,
      async () => {
        if (!more) return null;
        const reply = await ask({ type: 'next' });
        const rows = reply.rows ?? [];
        return rows.length ? rows : more ? [] : null;
      },
      release,
    );
    attachEncoded(stream, () => more, (plan) => ask(plan === null ? { type: 'next' } : { type: 'encode', plan }));
    return stream;
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
