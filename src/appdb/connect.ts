// Opens the app database (SQLite file, PostgreSQL or MySQL/MariaDB) as one Kysely instance.
// Differences between the three are absorbed here and in ./portable.ts, so domain code writes one query.
// Driver options (pool size, TLS) come from ./client-options.ts; TLS modes other than `disable` are tried once here
// at start-up, so a server without TLS or a refused certificate stops the start with a message saying what to change.

import { Kysely, SqliteDialect, PostgresDialect, MysqlDialect, type KyselyPlugin } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PoolConfig } from 'pg';
import type { PoolOptions } from 'mysql2';
import { ConfigurationError, type AppDbConfig, type RemoteAppDbConfig } from '../config.js';
import { mysqlClientOptions, pgClientOptions, type ClientChoice } from './client-options.js';
import type { DB } from './schema.js';
import { BooleanToIntegerPlugin } from './boolean-plugin.js';

export type AppDbDialect = 'sqlite' | 'postgres' | 'mysql';

export interface AppDb {
  db: Kysely<DB>;
  dialect: AppDbDialect;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** Opens the app DB, loading only the driver it needs (start-up time matters). */
export async function openAppDb(config: AppDbConfig): Promise<AppDb> {
  if (config.type === 'sqlite') {
    mkdirSync(dirname(config.file), { recursive: true });
    const { default: Database } = await import('../util/better-sqlite3.js');
    const database = new Database(config.file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    const plugins: KyselyPlugin[] = [new BooleanToIntegerPlugin()];
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(database) }), plugins });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  if (config.type === 'postgres') {
    const { default: pg } = await import('pg');
    const options = await decide(config, pgClientOptions(config), (o) => probePostgres(pg, o));
    const pool = new pg.Pool({
      ...options,
      // App-DB counts and ids fit in a double; parse them as numbers for this pool only.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === PG_INT8 || oid === PG_NUMERIC
            ? (v: string) => Number(v)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    pool.on('error', () => {}); // idle-client errors surface on the next query instead of crashing the process
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const mysql = await import('mysql2');
  const options = await decide(config, mysqlClientOptions(config), (o) => probeMysql(mysql, o));
  const pool = mysql.createPool(options);
  const db = new Kysely<DB>({ dialect: new MysqlDialect({ pool }) });
  return { db, dialect: 'mysql', close: () => db.destroy() };
}

// ----- TLS at start-up --------------------------------------------------------------------------------------------

/** The server answered that it has no TLS at all. */
function noTlsOnServer(error: unknown): boolean {
  const e = error as { message?: string; code?: string };
  return e.code === 'HANDSHAKE_NO_SSL_SUPPORT' || /does not support SSL/i.test(e.message ?? '');
}

/** The server refused a plain connection because it only takes encrypted ones (PostgreSQL's pg_hba hostssl). */
function tlsRequiredByServer(error: unknown): boolean {
  const e = error as { message?: string; code?: string };
  return e.code === '28000' && /no encryption|SSL off/i.test(e.message ?? '');
}

const CERTIFICATE_ERRORS = /CERT|SELF_SIGNED|UNABLE_TO_|ALTNAME|HOSTNAME/;

/**
 * Connects once with the first choice (unless TLS is off, which needs no probe). `allow`/`prefer` fall back when the
 * server refuses that choice; TLS failures become start-up errors that say what to change.
 */
async function decide<T>(config: RemoteAppDbConfig, choice: ClientChoice<T>, probe: (options: T) => Promise<void>): Promise<T> {
  if (config.tls.mode === 'disable') return choice.first;
  const pgsql = config.type === 'postgres';
  const where = `The ${pgsql ? 'PostgreSQL' : 'MySQL/MariaDB'} app database at ${config.host}:${config.port}`;
  try {
    await probe(choice.first);
    return choice.first;
  } catch (error) {
    if (choice.fallback !== null && (noTlsOnServer(error) || tlsRequiredByServer(error))) return choice.fallback;
    if (noTlsOnServer(error)) {
      const without = pgsql ? 'sslmode=prefer or sslmode=disable' : 'sslMode=PREFERRED or sslMode=DISABLED';
      throw new ConfigurationError(
        `${where} does not accept TLS connections, but ${config.tls.source} requires TLS. Turn TLS on in the database server, or connect without it (${without}).`,
      );
    }
    const code = String((error as { code?: string }).code ?? '');
    if (CERTIFICATE_ERRORS.test(code)) {
      const refused = `${where} presented a TLS certificate that was refused under ${config.tls.source}: ${(error as Error).message} (${code}).`;
      const hint = /ALTNAME|HOSTNAME/.test(code)
        ? `Connect by a host name the certificate names, or check only the CA (${pgsql ? 'sslmode=verify-ca' : 'sslMode=VERIFY_CA'}).`
        : `Name the CA that signed it (${pgsql ? 'sslrootcert=<file>' : 'serverSslCert=<file>'}), or encrypt without checking the certificate (${pgsql ? 'sslmode=require' : 'sslMode=REQUIRED'}).`;
      throw new ConfigurationError(`${refused} ${hint}`);
    }
    throw error;
  }
}

async function probePostgres(pg: typeof import('pg').default, options: PoolConfig): Promise<void> {
  const client = new pg.Client({ ...options, connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => {});
  }
}

async function probeMysql(mysql: typeof import('mysql2'), options: PoolOptions): Promise<void> {
  const { connectionLimit: _pool, ...connection } = options;
  const conn = mysql.createConnection({ ...connection, connectTimeout: 10_000 });
  conn.on('error', () => {});
  try {
    await new Promise<void>((resolve, reject) => conn.connect((error) => (error ? reject(error) : resolve())));
  } finally {
    conn.destroy();
  }
}

type SqliteDatabase = import('better-sqlite3').Database;
type SqliteStatement = import('better-sqlite3').Statement;

/**
 * Kysely prepares every statement anew; preparing is the largest cost of a small query on SQLite. Reuse prepared
 * statements by SQL text (a statement that is still busy iterating is never handed out twice).
 */
function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const MAX = 500;
  const prepare = (source: string): SqliteStatement => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = database.prepare(source);
    if (!cached) {
      if (cache.size >= MAX) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
