// A pool of connections to one MySQL or MariaDB database. Rows stream from the server in batches, read through
// prepared statements (the binary protocol returns doubles exactly); a statement is cancelled with KILL QUERY from a
// separate short-lived connection. Sessions run in UTC so
// TIMESTAMP values read back as instants. LOCAL INFILE and multiple statements are switched off: a native query
// can't make Quarry read its own files.

import mysql from 'mysql2';
import type { Pool, PoolConnection, PoolOptions } from 'mysql2';
import type { ConnectionDetails, DbmsVersion, DriverConnection, ExecuteOptions, Introspection, OpenOptions, PoolStats, ResultColumn, RowStream, WriteResult, WriteSession } from '../driver.js';
import { batchedRowStream, watchCancellation } from '../shared/row-stream.js';
import { connectionFailed } from '../shared/connect-errors.js';
import { flag, num, str } from '../shared/details.js';
import { base64, decimalValue, integerValue, localTimestamp, utcTimestamp } from '../shared/values.js';
import { DateTime } from 'luxon';
import { mysqlResultType } from './types.js';
import { introspectMysql } from './introspect.js';

const BATCH = 500;
const BINARY_CHARSET = 63;
const TYPE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(mysql.Types).map(([name, code]) => [code, name]));

interface FieldPacket {
  name: string;
  type?: number;
  columnType?: number;
  characterSet?: number;
  columnLength?: number;
}

/** How to turn one column's raw mysql2 values into the row conventions, from its protocol type. */
type Converter = (value: unknown) => unknown;

/** A TIMESTAMP value read in the session's zone → the instant in UTC ("…Z"). */
type InstantReader = (local: string) => string;
const utcSession: InstantReader = (local) => local + 'Z';

/** How TIMESTAMPs read in a session zone (a name, or an offset like "+09:00") become UTC instants. */
function sessionReader(zone: string): InstantReader {
  if (/^[+-]\d\d:\d\d$/.test(zone)) return (local) => utcTimestamp(local + zone);
  return (local) => {
    const offset = DateTime.fromISO(local, { zone }).toFormat('ZZ');
    return utcTimestamp(local + offset);
  };
}

/** A zone's current offset, "+09:00": MySQL's session zone when its named-zone tables aren't loaded. */
function currentOffset(zone: string): string {
  return DateTime.now().setZone(zone).toFormat('ZZ');
}

function converterFor(field: FieldPacket, instant: InstantReader = utcSession): Converter {
  const type = TYPE_NAMES[field.columnType ?? field.type ?? -1] ?? 'UNKNOWN';
  const text = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
  switch (type) {
    case 'LONGLONG':
      return (v) => integerValue(typeof v === 'number' ? v : text(v));
    case 'DECIMAL':
    case 'NEWDECIMAL':
      return (v) => decimalValue(text(v));
    case 'TINY':
      return field.columnLength === 1 ? (v) => Number(v) !== 0 : (v) => v;
    case 'BIT':
      return (v) => {
        const buffer = Buffer.isBuffer(v) ? v : Buffer.from([Number(v)]);
        return field.columnLength === 1 ? buffer[buffer.length - 1] === 1 : integerValue(BigInt('0x' + (buffer.toString('hex') || '0')));
      };
    case 'DATETIME':
    case 'DATETIME2':
      return (v) => localTimestamp(text(v));
    case 'TIMESTAMP':
    case 'TIMESTAMP2':
      return (v) => instant(localTimestamp(text(v)));
    case 'DATE':
    case 'NEWDATE':
    case 'TIME':
    case 'TIME2':
      return text;
    case 'JSON':
      return (v) => (typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('utf8') : JSON.stringify(v));
    default:
      return (v) => (Buffer.isBuffer(v) ? (field.characterSet === BINARY_CHARSET ? base64(v) : v.toString('utf8')) : finishValue(v));
  }
}

function finishValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return base64(value);
  if (typeof value === 'bigint') return integerValue(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/**
 * TLS from `ssl` and `ssl-mode`: require encrypts without checking the certificate (what `ssl: true` alone meant
 * before ssl-mode existed, so stored databases keep working); verify-ca checks the chain; verify-full (the form's
 * default for new databases) the host name too. A mode set without `ssl: true` still encrypts.
 */
export function mysqlSsl(details: ConnectionDetails): PoolOptions['ssl'] {
  const mode = str(details, 'ssl-mode');
  if (!flag(details, 'ssl') && !mode) return undefined;
  if (mode === 'verify-full') return { rejectUnauthorized: true, verifyIdentity: true };
  if (mode === 'verify-ca') return { rejectUnauthorized: true, verifyIdentity: false };
  return { rejectUnauthorized: false };
}

export function mysqlPoolOptions(details: ConnectionDetails, connectTimeoutMs: number, maxConnections: number): PoolOptions {
  return {
    host: str(details, 'host') ?? 'localhost',
    port: num(details, 'port') ?? 3306,
    database: str(details, 'dbname'),
    user: str(details, 'user'),
    password: str(details, 'password'),
    ssl: mysqlSsl(details),
    connectionLimit: maxConnections,
    connectTimeout: connectTimeoutMs,
    charset: 'utf8mb4',
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    multipleStatements: false,
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    maxPreparedStatements: 256,
    idleTimeout: 60_000,
    maxIdle: Math.min(maxConnections, 4),
  };
}

export class MysqlConnection implements DriverConnection {
  private readonly pool: Pool;
  private readonly poolOptions: PoolOptions;

  constructor(
    details: ConnectionDetails,
    private readonly options: OpenOptions,
  ) {
    this.poolOptions = mysqlPoolOptions(details, options.connectTimeoutMs ?? 10_000, options.maxConnections);
    this.pool = mysql.createPool(this.poolOptions);
    this.pool.on('connection', (connection) => {
      connection.query("SET time_zone = '+00:00'");
    });
  }

  private where() {
    return { host: this.poolOptions.host, port: this.poolOptions.port };
  }

  private checkout(): Promise<PoolConnection> {
    return new Promise((resolve, reject) => {
      this.pool.getConnection((error, connection) => (error ? reject(connectionFailed(error, this.where())) : resolve(connection)));
    });
  }

  /** Runs a metadata query to completion (small results only). */
  async query<T extends unknown[] = unknown[]>(sql: string, params: unknown[] = []): Promise<T[]> {
    const connection = await this.checkout();
    try {
      return await new Promise<T[]>((resolve, reject) => {
        connection.query({ sql, values: params, rowsAsArray: true }, (error, rows, fields) => {
          if (error) return reject(error);
          const converters = ((fields ?? []) as FieldPacket[]).map((f) => converterFor(f));
          resolve((rows as unknown[][]).map((r) => r.map((v, i) => (v === null || v === undefined ? null : (converters[i] ?? finishValue)(v)))) as T[]);
        });
      });
    } finally {
      connection.release();
    }
  }

  /**
   * mysql2's pool has no public figures; its queues of all connections, free ones and waiting callers are read
   * where it keeps them (null if a later mysql2 keeps them elsewhere).
   */
  poolStats(): PoolStats | null {
    const internals = this.pool as unknown as { _allConnections?: { length: number }; _freeConnections?: { length: number }; _connectionQueue?: { length: number } };
    const lengths = [internals._allConnections?.length, internals._freeConnections?.length, internals._connectionQueue?.length];
    if (!lengths.every((n) => typeof n === 'number')) return null;
    const [total, idle, waiting] = lengths as number[];
    return { total, idle, busy: total - idle, waiting, min: 0, max: this.options.maxConnections };
  }

  async test(): Promise<void> {
    await this.query('select 1');
  }

  /** Statements the server can't prepare (SHOW, administrative commands) go through the text protocol. */
  private preparable(sql: string): boolean {
    const first = /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*|#[^\n]*\n\s*)*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase();
    return first === 'SELECT' || first === 'WITH' || first === 'INSERT' || first === 'UPDATE' || first === 'DELETE' || first === 'REPLACE';
  }

  private async killQuery(threadId: number): Promise<void> {
    const killer = mysql.createConnection({ ...this.poolOptions });
    killer.on('error', () => {});
    await new Promise<void>((resolve) => killer.query(`KILL QUERY ${Number(threadId)}`, () => resolve()));
    killer.destroy();
  }

  /** Sets the session zone: by name when the server has its zone tables, else as the zone's current offset. */
  private async setSessionZone(connection: PoolConnection, zone: string): Promise<string> {
    const set = (value: string) => new Promise<void>((resolve, reject) => connection.query('SET time_zone = ?', [value], (error) => (error ? reject(error) : resolve())));
    try {
      await set(zone);
      return zone;
    } catch {
      const offset = currentOffset(zone);
      await set(offset);
      return offset;
    }
  }

  async execute(sql: string, params: unknown[], options?: ExecuteOptions): Promise<RowStream> {
    const connection = await this.checkout();
    const threadId = connection.threadId;
    // The report time zone as the session zone for this statement only; set back to UTC when the stream ends.
    let instant = utcSession;
    const zone = options?.timezone ?? null;
    if (zone) {
      try {
        instant = sessionReader(await this.setSessionZone(connection, zone));
      } catch (error) {
        connection.destroy();
        throw error;
      }
    }
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => {
      this.killQuery(threadId).catch(() => {});
    });
    const bound = params.map((p) => (p instanceof Date ? p.toISOString().replace('T', ' ').replace('Z', '') : p === undefined ? null : p));
    // The binary protocol (prepared statements) returns doubles exactly; MariaDB's text protocol can round their
    // last digit. Statements MySQL can't prepare run as plain queries.
    const query = this.preparable(sql) ? connection.execute({ sql, values: bound, rowsAsArray: true }) : connection.query({ sql, values: bound, rowsAsArray: true });
    const stream = query.stream({ highWaterMark: BATCH });
    let failed = false;
    const fieldsReady = new Promise<FieldPacket[]>((resolve, reject) => {
      query.once('fields', (fields: FieldPacket[]) => resolve(fields));
      query.once('end', () => resolve([]));
      query.once('error', reject);
    });
    stream.on('error', () => {}); // errors are read through the iterator
    const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<unknown[]>;
    const release = async () => {
      cancellation.dispose();
      if (failed || cancellation.error) connection.destroy();
      else {
        stream.destroy();
        if (!zone) return connection.release();
        // Back to the pool's UTC; a connection whose zone can't be reset is discarded rather than reused.
        await new Promise<void>((resolve) =>
          connection.query("SET time_zone = '+00:00'", (error) => {
            if (error) connection.destroy();
            else connection.release();
            resolve();
          }),
        );
      }
    };
    let fields: FieldPacket[];
    try {
      fields = await fieldsReady;
    } catch (error) {
      failed = true;
      await release();
      throw cancellation.translate(error);
    }
    const converters = fields.map((f) => converterFor(f, instant));
    const columns: ResultColumn[] = fields.map((f) => {
      const typeName = TYPE_NAMES[f.columnType ?? f.type ?? -1] ?? 'UNKNOWN';
      const [databaseType, baseType] = mysqlResultType(typeName, f.columnLength ?? 0, f.characterSet === BINARY_CHARSET);
      return { name: f.name, databaseType, baseType };
    });
    let done = false;
    return batchedRowStream(
      columns,
      async () => {
        if (done) return null;
        if (cancellation.error) throw cancellation.error;
        const rows: unknown[][] = [];
        try {
          while (rows.length < BATCH) {
            const next = await iterator.next();
            if (next.done) {
              done = true;
              break;
            }
            rows.push(next.value.map((v, i) => (v === null || v === undefined ? null : converters[i](v))));
          }
        } catch (error) {
          failed = true;
          throw cancellation.translate(error);
        }
        return rows.length ? rows : null;
      },
      release,
    );
  }

  async transaction<T>(work: (session: WriteSession) => Promise<T>, options?: ExecuteOptions): Promise<T> {
    const connection = await this.checkout();
    const cancellation = watchCancellation({ ...options, timeoutMs: options?.timeoutMs ?? this.options.queryTimeoutMs }, () => {
      this.killQuery(connection.threadId).catch(() => {});
    });
    let broken = false;
    const plain = (sql: string) =>
      new Promise<void>((resolve, reject) => connection.query(sql, (error) => (error ? reject(error) : resolve())));
    const run = (sql: string, params: unknown[]) =>
      new Promise<WriteResult>((resolve, reject) => {
        const bound = params.map((p) => (p instanceof Date ? p.toISOString().replace('T', ' ').replace('Z', '') : p === undefined ? null : p));
        const callback = (error: Error | null, result: unknown, fields?: unknown) => {
          if (error) return reject(error);
          if (Array.isArray(result)) {
            const packets = (fields ?? []) as FieldPacket[];
            const converters = packets.map((f) => converterFor(f));
            const rows = (result as unknown[][]).map((r) =>
              Object.fromEntries(packets.map((f, i) => [f.name, r[i] === null || r[i] === undefined ? null : converters[i](r[i])])),
            );
            return resolve({ rowsAffected: 0, rows, insertId: null });
          }
          const header = result as { affectedRows?: number; insertId?: number | string };
          const generated = header.insertId !== undefined && String(header.insertId) !== '0';
          resolve({ rowsAffected: header.affectedRows ?? 0, rows: [], insertId: generated ? integerValue(header.insertId as number | string) : null });
        };
        // CREATE TABLE … SELECT with values (a persisted model's build) is prepared too: bound, never escaped into text
        if (this.preparable(sql) || (bound.length > 0 && /^\s*CREATE\s+TABLE\b/i.test(sql))) connection.execute({ sql, values: bound, rowsAsArray: true }, callback);
        else connection.query({ sql, values: bound, rowsAsArray: true }, callback);
      });
    const session: WriteSession = {
      run: async (sql, params) => {
        if (cancellation.error) throw cancellation.error;
        return run(sql, params);
      },
    };
    const zone = options?.timezone ?? null;
    try {
      if (zone) await this.setSessionZone(connection, zone);
      await plain('START TRANSACTION');
      const out = await work(session);
      await plain('COMMIT');
      return out;
    } catch (error) {
      await plain('ROLLBACK').catch(() => {
        broken = true;
      });
      throw cancellation.translate(error);
    } finally {
      cancellation.dispose();
      // back to the pool's UTC; a connection whose zone can't be reset is discarded rather than reused
      if (zone && !broken && !cancellation.error) await plain("SET time_zone = '+00:00'").catch(() => (broken = true));
      if (broken || cancellation.error) connection.destroy();
      else connection.release();
    }
  }

  async introspect(): Promise<Introspection> {
    return introspectMysql(this);
  }

  async schemas(): Promise<string[]> {
    return [];
  }

  async version(): Promise<DbmsVersion> {
    const [[text]] = await this.query<[string]>('select version()');
    const version = String(text);
    const numbers = version.split('-')[0];
    return {
      flavor: /mariadb/i.test(version) ? 'MariaDB' : 'MySQL',
      version: numbers,
      'semantic-version': numbers.split('.').map(Number).filter((n) => !Number.isNaN(n)).slice(0, 2),
    };
  }

  async timezone(): Promise<string | null> {
    const [[system, global]] = await this.query<[string, string]>('select @@system_time_zone, @@global.time_zone');
    const zone = global && global !== 'SYSTEM' ? global : system;
    return zone ?? null;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.pool.end(() => resolve()));
  }
}
