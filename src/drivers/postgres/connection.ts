// One PostgreSQL database. Statements run on the PostgreSQL statement thread (./worker-client.ts, ./worker-main.ts),
// which parses their rows — and writes an API result's rows as JSON — off the event loop. Results stream in batches
// from an unnamed portal (./portal.ts: one round trip for a small result, as a plain query costs), so memory stays
// bounded; a statement is cancelled with pg_cancel_backend from a separate short-lived connection. Metadata queries
// and write transactions use this file's own pool on the event loop (small results).

import pg from 'pg';
import type { ConnectionDetails, DbmsVersion, DriverConnection, ExecuteOptions, Introspection, OpenOptions, PoolStats, ResultColumn, RowStream, WriteSession } from '../driver.js';
import { attachEncoded, batchedRowStream, watchCancellation } from '../shared/row-stream.js';
import { connectionFailed } from '../shared/connect-errors.js';
import { schemaFilter } from '../shared/schema-filters.js';
import { postgresTypeParsers } from './values.js';
import { OID_NAMES, postgresBaseType } from './types.js';
import { introspectPostgres, listPostgresSchemas } from './introspect.js';
import { cancelBackend, postgresClientConfig } from './client-config.js';
import { statementThread, ThreadConnectError } from './worker-client.js';
import type { PoolConfig, WorkerReply, WorkerRequest } from './worker-protocol.js';

/**
 * Rows per portal fetch. An API result (at most 2,000 rows) comes in one batch and one more round trip for the end:
 * each round trip to the server costs a write and a wake-up on both sides, which shows under load.
 */
export const POSTGRES_BATCH_ROWS = 2000;
let poolCount = 0;

export class PostgresConnection implements DriverConnection {
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  private readonly typeNames = new Map<number, { name: string; typtype: string | null }>();
  /** This database's pool on the statement thread, and the statements it is running for us. */
  private readonly poolId = ++poolCount;
  private readonly poolConfig: PoolConfig;
  private running = 0;

  constructor(
    private readonly details: ConnectionDetails,
    private readonly options: OpenOptions,
  ) {
    this.clientConfig = postgresClientConfig(details, options.connectTimeoutMs ?? 10_000);
    this.poolConfig = { details, connectTimeoutMs: options.connectTimeoutMs ?? 10_000, max: options.maxConnections };
    this.pool = new pg.Pool({ ...this.clientConfig, max: options.maxConnections, idleTimeoutMillis: 60_000 });
    this.pool.on('error', () => {}); // an idle client dying surfaces on the next checkout instead of crashing
    // A checked-out client between two statements (introspection, a transaction) has no listener of the pool's: its
    // backend terminated (the database dropped, pg_terminate_backend) would crash the process. Its next statement fails.
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  private where() {
    return { host: this.clientConfig.host, port: this.clientConfig.port };
  }

  private async checkout(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw connectionFailed(error, this.where());
    }
  }

  /** Runs a metadata query to completion (small results only). */
  async query<T extends unknown[] = unknown[]>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = await this.checkout();
    try {
      const result = await client.query({ text: sql, values: params, rowMode: 'array' });
      return result.rows as T[];
    } finally {
      client.release();
    }
  }

  /** Both pools: this one's (metadata, writes) and the statement thread's, whose figures come with its replies. */
  poolStats(): PoolStats {
    const thread = statementThread().poolFigures(this.poolId) ?? { total: 0, idle: 0, waiting: 0 };
    const total = this.pool.totalCount + Math.max(thread.total, this.running);
    const busy = this.pool.totalCount - this.pool.idleCount + this.running;
    return { total, idle: total - busy, busy, waiting: this.pool.waitingCount + thread.waiting, min: 0, max: this.options.maxConnections };
  }

  async test(): Promise<void> {
    await this.query('select 1');
  }

  private async describeColumns(fields: Array<{ name: string; dataTypeID: number }>): Promise<ResultColumn[]> {
    const unknown = fields.map((f) => f.dataTypeID).filter((oid) => !OID_NAMES[oid] && !this.typeNames.has(oid));
    if (unknown.length) {
      // On its own short connection, not the pool: the caller holds a pooled connection with an open cursor, and
      // with a pool of one, waiting for a second pooled connection would never end.
      const lookup = new pg.Client({ ...this.clientConfig, types: undefined });
      lookup.on('error', () => {});
      try {
        await lookup.connect();
        const result = await lookup.query({ text: 'select oid::int, typname, typtype from pg_type where oid = any($1)', values: [unknown], rowMode: 'array' });
        for (const [oid, name, typtype] of result.rows as Array<[number, string, string]>) this.typeNames.set(Number(oid), { name, typtype });
      } finally {
        await lookup.end().catch(() => {});
      }
    }
    return fields.map((f) => {
      const known = OID_NAMES[f.dataTypeID];
      const looked = this.typeNames.get(f.dataTypeID);
      const name = known ?? looked?.name ?? 'unknown';
      return { name: f.name, databaseType: name, baseType: postgresBaseType(name, looked?.typtype) };
    });
  }

  async execute(sql: string, params: unknown[], options?: ExecuteOptions): Promise<RowStream> {
    const thread = statementThread();
    const id = thread.newId();
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => {
      thread.post({ type: 'cancel', id });
    });
    if (cancellation.error) {
      cancellation.dispose();
      throw cancellation.error;
    }
    this.running += 1;
    let first: WorkerReply;
    try {
      first = await thread.request({ type: 'run', id, pool: this.poolId, config: this.poolConfig, sql, params, zone: options?.timezone ?? null, batch: POSTGRES_BATCH_ROWS });
    } catch (error) {
      this.running -= 1;
      cancellation.dispose();
      if (cancellation.error) throw cancellation.error;
      if (error instanceof ThreadConnectError) throw connectionFailed(error.driverError, this.where());
      throw error;
    }
    // Rows are left on the thread until a reply says `done` (the thread has then let the connection go).
    let more = !first.done;
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      cancellation.dispose();
      this.running -= 1;
      if (more) thread.post({ type: 'close', id });
      more = false;
    };
    let columns: ResultColumn[];
    try {
      columns = first.fields ? await this.describeColumns(first.fields) : [];
    } catch (error) {
      await release();
      throw error;
    }
    const ask = async (message: WorkerRequest): Promise<WorkerReply> => {
      if (cancellation.error) throw cancellation.error;
      try {
        const reply = await thread.request(message);
        more = !reply.done;
        return reply;
      } catch (error) {
        more = false; // the thread ended the statement
        throw cancellation.translate(error);
      }
    };
    const stream = batchedRowStream(
      columns,
      async () => {
        if (!more) return null;
        const rows = (await ask({ type: 'next', id })).rows ?? [];
        return rows.length ? rows : more ? [] : null;
      },
      release,
    );
    attachEncoded(stream, () => more, (plan) => ask(plan === null ? { type: 'next', id } : { type: 'encode', id, plan }));
    return stream;
  }

  async transaction<T>(work: (session: WriteSession) => Promise<T>, options?: ExecuteOptions): Promise<T> {
    const client = await this.checkout();
    const pid = (client as unknown as { processID: number }).processID;
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => {
      cancelBackend(this.clientConfig, pid).catch(() => {});
    });
    let broken = false;
    const session: WriteSession = {
      run: async (sql, params) => {
        if (cancellation.error) throw cancellation.error;
        const result = await client.query({ text: sql, values: params, types: postgresTypeParsers });
        return { rowsAffected: result.rowCount ?? 0, rows: result.rows as Array<Record<string, unknown>>, insertId: null };
      },
    };
    try {
      await client.query('BEGIN');
      // the report time zone for this transaction only (is_local): COMMIT or ROLLBACK puts the connection back
      if (options?.timezone) await client.query('SELECT set_config($1, $2, true)', ['TimeZone', options.timezone]);
      const out = await work(session);
      await client.query('COMMIT');
      return out;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw cancellation.translate(error);
    } finally {
      cancellation.dispose();
      client.release(broken || cancellation.error !== null);
    }
  }

  async introspect(options?: { schemas?: string[] }): Promise<Introspection> {
    const keep = schemaFilter(this.details);
    const wanted = options?.schemas ? new Set(options.schemas) : null;
    return introspectPostgres(this, (schema) => keep(schema) && (!wanted || wanted.has(schema)));
  }

  async schemas(): Promise<string[]> {
    return listPostgresSchemas(this);
  }

  async version(): Promise<DbmsVersion> {
    const [[text]] = await this.query<[string]>('show server_version');
    const version = String(text).split(' ')[0];
    return { flavor: 'PostgreSQL', version, 'semantic-version': version.split('.').map(Number).filter((n) => !Number.isNaN(n)).slice(0, 2) };
  }

  async timezone(): Promise<string | null> {
    const [[zone]] = await this.query<[string]>('show timezone');
    return zone ?? null;
  }

  async close(): Promise<void> {
    const thread = statementThread();
    if (thread.started) await thread.request({ type: 'end', id: thread.newId(), pool: this.poolId }).catch(() => {});
    await this.pool.end().catch(() => {});
  }
}
