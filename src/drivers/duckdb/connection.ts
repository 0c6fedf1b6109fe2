// A connected DuckDB file: one locked-down instance (./instances.ts) and a pool of DuckDB connections, each able
// to run one statement at a time. Results are pulled chunk by chunk (2,048 rows); interrupt() cancels.

import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { ConnectionDetails, DbmsVersion, DriverConnection, ExecuteOptions, Introspection, OpenOptions, PoolStats, ResultColumn, RowStream, WriteSession } from '../driver.js';
import { batchedRowStream, watchCancellation } from '../shared/row-stream.js';
import { resolveDatabaseFile } from '../shared/files.js';
import { ResourcePool } from '../shared/pool.js';
import { acquireInstance, releaseInstance } from './instances.js';
import { convertDuckdbValue } from './values.js';
import { duckdbBaseType } from './types.js';
import { introspectDuckdb, listDuckdbSchemas } from './introspect.js';

function bindable(value: unknown): DuckDBValue {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  // The client binds a whole JS number as BIGINT, which can't hold 1e20: as text, the CAST the dialect writes around
  // every placeholder reads it as the DOUBLE it is.
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) return String(value);
  return value as DuckDBValue;
}

export class DuckdbConnection implements DriverConnection {
  private file: string | null = null;
  private pool: ResourcePool<DuckDBConnection> | null = null;
  private opening: Promise<ResourcePool<DuckDBConnection>> | null = null;

  constructor(
    private readonly details: ConnectionDetails,
    private readonly options: OpenOptions,
  ) {}

  private async connections(): Promise<ResourcePool<DuckDBConnection>> {
    if (this.pool) return this.pool;
    this.opening ??= (async () => {
      const file = resolveDatabaseFile(String(this.details.db ?? ''), this.options.dataDir, this.options.protectedPaths);
      const instance = await acquireInstance(file, this.details.read_only === true);
      this.file = file;
      this.pool = new ResourcePool<DuckDBConnection>(
        this.options.maxConnections,
        () => instance.connect(),
        (connection) => connection.closeSync(),
      );
      return this.pool;
    })().catch((error) => {
      this.opening = null;
      throw error;
    });
    return this.opening;
  }

  /** Runs a metadata query to completion (small results only). */
  async query<T extends unknown[] = unknown[]>(sql: string, params: unknown[] = []): Promise<T[]> {
    const pool = await this.connections();
    const connection = await pool.acquire();
    try {
      const reader = await connection.runAndReadAll(sql, params.map(bindable));
      return reader.getRows().map((row) => row.map(convertDuckdbValue)) as T[];
    } finally {
      pool.release(connection);
    }
  }

  poolStats(): PoolStats | null {
    if (!this.pool) return null;
    const { total, idle, waiting, max } = this.pool.stats();
    return { total, idle, busy: total - idle, waiting, min: 0, max };
  }

  async test(): Promise<void> {
    await this.query('select 1');
  }

  async execute(sql: string, params: unknown[], options?: ExecuteOptions): Promise<RowStream> {
    const pool = await this.connections();
    const connection = await pool.acquire();
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => connection.interrupt());
    let broken = false;
    const release = async () => {
      cancellation.dispose();
      pool.release(connection, broken);
    };
    let result;
    try {
      result = await connection.stream(sql, params.map(bindable));
    } catch (error) {
      await release();
      throw cancellation.translate(error);
    }
    const columns: ResultColumn[] = result.columnNames().map((name, i) => {
      const databaseType = result.columnType(i).toString();
      return { name, databaseType, baseType: duckdbBaseType(databaseType) };
    });
    return batchedRowStream(
      columns,
      async () => {
        if (cancellation.error) throw cancellation.error;
        try {
          const chunk = await result.fetchChunk();
          if (!chunk || chunk.rowCount === 0) return null;
          return chunk.getRows().map((row) => row.map(convertDuckdbValue));
        } catch (error) {
          broken = true;
          throw cancellation.translate(error);
        }
      },
      release,
    );
  }

  /**
   * Runs `work` in one transaction on one pooled connection (DuckDB's DDL is transactional: model persistence
   * swaps tables inside one). Committed when `work` returns, rolled back when it throws or is cancelled.
   */
  async transaction<T>(work: (session: WriteSession) => Promise<T>, options?: ExecuteOptions): Promise<T> {
    const pool = await this.connections();
    const connection = await pool.acquire();
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => connection.interrupt());
    let broken = false;
    const session: WriteSession = {
      run: async (sql, params) => {
        if (cancellation.error) throw cancellation.error;
        const reader = await connection.runAndReadAll(sql, params.map(bindable));
        const names = reader.columnNames();
        const rows = reader.getRows().map((row) => Object.fromEntries(row.map((v, i) => [names[i], convertDuckdbValue(v)])));
        return { rowsAffected: names.length ? 0 : Number(reader.rowsChanged ?? 0), rows, insertId: null };
      },
    };
    try {
      await connection.run('BEGIN TRANSACTION');
      const out = await work(session);
      await connection.run('COMMIT');
      return out;
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => {
        broken = true;
      });
      throw cancellation.translate(error);
    } finally {
      cancellation.dispose();
      pool.release(connection, broken || cancellation.error !== null);
    }
  }

  async introspect(options?: { schemas?: string[] }): Promise<Introspection> {
    const wanted = options?.schemas ? new Set(options.schemas) : null;
    return introspectDuckdb(this, (schema) => !wanted || wanted.has(schema));
  }

  async schemas(): Promise<string[]> {
    return listDuckdbSchemas(this);
  }

  async version(): Promise<DbmsVersion> {
    const [[text]] = await this.query<[string]>('select version()');
    const version = String(text).replace(/^v/, '');
    return { flavor: 'DuckDB', version, 'semantic-version': version.split('.').map(Number).filter((n) => !Number.isNaN(n)).slice(0, 2) };
  }

  async timezone(): Promise<string | null> {
    try {
      const [[zone]] = await this.query<[string]>("select current_setting('TimeZone')");
      return zone ?? null;
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    this.opening = null;
    if (!pool) return;
    await pool.close();
    if (this.file) await releaseInstance(this.file);
  }
}
