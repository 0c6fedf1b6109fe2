// Opens the app database (SQLite file, PostgreSQL or MySQL/MariaDB) as one Kysely instance.
// Differences between the three are absorbed here and in ./portable.ts, so domain code writes one query.

import { Kysely, SqliteDialect, PostgresDialect, MysqlDialect, type KyselyPlugin } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppDbConfig } from '../config.js';
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
    const { default: Database } = await import('better-sqlite3');
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
    const pool = new pg.Pool({
      host: config.host,
      port: config.port,
      database: config.dbname,
      user: config.user,
      password: config.password,
      max: config.poolSize,
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
  const { createPool } = await import('mysql2');
  const pool = createPool({
    host: config.host,
    port: config.port,
    database: config.dbname,
    user: config.user,
    password: config.password,
    connectionLimit: config.poolSize,
    charset: 'utf8mb4',
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: true,
  });
  const db = new Kysely<DB>({ dialect: new MysqlDialect({ pool }) });
  return { db, dialect: 'mysql', close: () => db.destroy() };
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
