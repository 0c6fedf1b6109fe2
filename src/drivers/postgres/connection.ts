// A pool of connections to one PostgreSQL database. Results stream in batches from an unnamed portal (./portal.ts:
// one round trip for a small result, as a plain query costs), so memory stays bounded; a statement is cancelled with
// pg_cancel_backend from a separate short-lived connection.

import pg from 'pg';
import type { ConnectionDetails, DbmsVersion, DriverConnection, ExecuteOptions, Introspection, OpenOptions, PoolStats, ResultColumn, RowStream, WriteSession } from '../driver.js';
import { batchedRowStream, watchCancellation } from '../shared/row-stream.js';
import { connectionFailed } from '../shared/connect-errors.js';
import { schemaFilter } from '../shared/schema-filters.js';
import { flag, num, str } from '../shared/details.js';
import { postgresTypeParsers } from './values.js';
import { OID_NAMES, postgresBaseType } from './types.js';
import { introspectPostgres, listPostgresSchemas } from './introspect.js';
import { PortalReader } from './portal.js';

const BATCH = 500;

/**
 * TLS from `ssl` and `ssl-mode` (libpq's names). A mode that demands encryption (require, verify-ca, verify-full) is
 * honoured whenever it is set, even without `ssl: true` — never a silent plain-text connection. `ssl: true` alone
 * means require. verify-ca checks the certificate chain, verify-full the host name too; allow and prefer don't insist.
 */
export function sslOption(details: ConnectionDetails): pg.ClientConfig['ssl'] {
  const mode = str(details, 'ssl-mode');
  const demanded = mode === 'require' || mode === 'verify-ca' || mode === 'verify-full';
  if (!demanded && !flag(details, 'ssl')) return false;
  switch (mode ?? 'require') {
    case 'allow':
      return false;
    case 'verify-ca':
      return { rejectUnauthorized: true, checkServerIdentity: () => undefined };
    case 'verify-full':
      return { rejectUnauthorized: true };
    default:
      return { rejectUnauthorized: false };
  }
}

export function postgresClientConfig(details: ConnectionDetails, connectTimeoutMs: number): pg.ClientConfig {
  return {
    host: str(details, 'host') ?? 'localhost',
    port: num(details, 'port') ?? 5432,
    database: str(details, 'dbname'),
    user: str(details, 'user'),
    password: str(details, 'password'),
    ssl: sslOption(details),
    connectionTimeoutMillis: connectTimeoutMs,
    application_name: 'Quarry',
    types: postgresTypeParsers,
  };
}

export class PostgresConnection implements DriverConnection {
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  private readonly typeNames = new Map<number, { name: string; typtype: string | null }>();

  constructor(
    private readonly details: ConnectionDetails,
    private readonly options: OpenOptions,
  ) {
    this.clientConfig = postgresClientConfig(details, options.connectTimeoutMs ?? 10_000);
    this.pool = new pg.Pool({ ...this.clientConfig, max: options.maxConnections, idleTimeoutMillis: 60_000 });
    this.pool.on('error', () => {}); // an idle client dying surfaces on the next checkout instead of crashing
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

  poolStats(): PoolStats {
    const total = this.pool.totalCount;
    const idle = this.pool.idleCount;
    return { total, idle, busy: total - idle, waiting: this.pool.waitingCount, min: 0, max: this.options.maxConnections };
  }

  async test(): Promise<void> {
    await this.query('select 1');
  }

  private async cancelBackend(pid: number): Promise<void> {
    const canceller = new pg.Client({ ...this.clientConfig, types: undefined });
    canceller.on('error', () => {});
    try {
      await canceller.connect();
      await canceller.query('select pg_cancel_backend($1)', [pid]);
    } finally {
      await canceller.end().catch(() => {});
    }
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
    const client = await this.checkout();
    const pid = (client as unknown as { processID: number }).processID;
    // The report time zone as the session's TimeZone for this statement only; RESET puts the connection back.
    const zone = options?.timezone ?? null;
    if (zone) {
      try {
        await client.query('SELECT set_config($1, $2, false)', ['TimeZone', zone]);
      } catch (error) {
        client.release(true);
        throw error;
      }
    }
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => {
      this.cancelBackend(pid).catch(() => {});
    });
    let reader: PortalReader;
    try {
      reader = client.query(new PortalReader(sql, params, BATCH, postgresTypeParsers));
    } catch (error) {
      // a value pg can't bind: nothing was sent
      cancellation.dispose();
      client.release(Boolean(zone));
      throw error;
    }
    let failed = false;
    const release = async () => {
      cancellation.dispose();
      // Drops the portal if rows are left; the connection is free once PostgreSQL answers that Sync, and pg queues
      // whatever comes next on it until then, so it goes back to the pool without waiting.
      reader.close();
      if (zone && !failed && cancellation.error === null) {
        await client.query('RESET TIME ZONE').catch(() => {
          failed = true;
        });
      }
      // A connection whose statement failed (or whose zone couldn't be reset) is discarded, not reused.
      client.release(failed || cancellation.error !== null);
    };
    let first: unknown[][] | null;
    try {
      first = await reader.next();
    } catch (error) {
      failed = true;
      await release();
      throw cancellation.translate(error);
    }
    const columns = reader.fields ? await this.describeColumns(reader.fields) : [];
    let pending: unknown[][] | null = first;
    return batchedRowStream(
      columns,
      async () => {
        if (pending) {
          const out = pending;
          pending = null;
          return out;
        }
        if (cancellation.error) throw cancellation.error;
        try {
          return await reader.next();
        } catch (error) {
          failed = true;
          throw cancellation.translate(error);
        }
      },
      release,
    );
  }

  async transaction<T>(work: (session: WriteSession) => Promise<T>, options?: ExecuteOptions): Promise<T> {
    const client = await this.checkout();
    const pid = (client as unknown as { processID: number }).processID;
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => {
      this.cancelBackend(pid).catch(() => {});
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
    await this.pool.end().catch(() => {});
  }
}
