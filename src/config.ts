// Environment → configuration, using Metabase's MB_* variable names.

/** A bad environment value: start-up stops with this message (no stack trace; see src/main.ts). */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

import { resolve, dirname } from 'node:path';

export type AppDbConfig =
  | { type: 'sqlite'; file: string }
  | {
      type: 'postgres' | 'mysql';
      host: string;
      port: number;
      dbname: string;
      user: string;
      password: string | undefined;
      poolSize: number;
    };

export interface Config {
  host: string;
  port: number;
  appDb: AppDbConfig;
  /** Where local state lives: the SQLite app DB, the sample database, uploads. */
  dataDir: string;
  maxSessionAgeMinutes: number;
  passwordComplexity: 'weak' | 'normal' | 'strong';
  passwordLength: number | null;
  disableSessionThrottle: boolean;
  loadSampleContent: boolean;
  encryptionSecretKey: string | null;
  /** The raw environment, for MB_<SETTING> overrides. */
  env: Record<string, string | undefined>;
  logLevel: string;
}

function intEnv(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new ConfigurationError(`${name} must be a number, got "${raw}"`);
  return n;
}

function boolEnv(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw.toLowerCase() === 'true';
}

/** The app-DB type a connection URI names by its scheme (`jdbc:` prefix allowed), or null for another scheme. */
export function connectionUriType(uri: string): 'postgres' | 'mysql' | null {
  const scheme = /^(?:jdbc:)?([a-z][a-z0-9+.-]*):/i.exec(uri.trim())?.[1].toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mysql' || scheme === 'mariadb') return 'mysql';
  return null;
}

/** Parses `postgres://u:p@h:5432/db`, `postgresql://…`, `mysql://…`, `mariadb://…`, optionally `jdbc:`-prefixed. */
export function parseConnectionUri(uri: string): Omit<Extract<AppDbConfig, { host: string }>, 'poolSize'> {
  const cleaned = uri.trim().replace(/^jdbc:/i, '');
  const type = connectionUriType(uri);
  if (!type) throw new ConfigurationError(`Unsupported MB_DB_CONNECTION_URI scheme in "${uri.split(':')[0]}:…": use postgres://, postgresql://, mysql:// or mariadb:// (optionally jdbc:-prefixed)`);
  const url = new URL(cleaned);
  const user = decodeURIComponent(url.username || url.searchParams.get('user') || (type === 'postgres' ? 'postgres' : 'root'));
  const passwordRaw = url.password || url.searchParams.get('password');
  return {
    type,
    host: url.hostname || 'localhost',
    port: url.port ? Number(url.port) : type === 'postgres' ? 5432 : 3306,
    dbname: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'metabase',
    user,
    password: passwordRaw ? decodeURIComponent(passwordRaw) : undefined,
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Without MB_DB_TYPE, a connection URI says which database it is (as in Metabase); otherwise SQLite.
  const uri = env.MB_DB_CONNECTION_URI || undefined;
  const dbType = (env.MB_DB_TYPE || (uri ? connectionUriType(uri) ?? 'unknown' : 'sqlite')).toLowerCase();
  const dbFile = resolve(env.MB_DB_FILE ?? './quarry-data/quarry.db');
  const poolSize = intEnv(env, 'MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE', 15);
  let appDb: AppDbConfig;
  if (dbType === 'sqlite' || dbType === 'h2') {
    appDb = { type: 'sqlite', file: dbFile };
  } else if (dbType === 'postgres' || dbType === 'postgresql' || dbType === 'mysql' || dbType === 'mariadb') {
    const type = dbType.startsWith('postgres') ? 'postgres' : 'mysql';
    if (uri) {
      const parsed = parseConnectionUri(uri);
      if (parsed.type !== type) throw new ConfigurationError(`MB_DB_TYPE is "${dbType}" but MB_DB_CONNECTION_URI is a ${parsed.type} URI`);
      appDb = {
        ...parsed,
        user: env.MB_DB_USER ?? parsed.user,
        password: env.MB_DB_PASS ?? parsed.password,
        poolSize,
      };
    } else {
      appDb = {
        type,
        host: env.MB_DB_HOST ?? 'localhost',
        port: intEnv(env, 'MB_DB_PORT', type === 'postgres' ? 5432 : 3306),
        dbname: env.MB_DB_DBNAME ?? 'metabase',
        user: env.MB_DB_USER ?? (type === 'postgres' ? 'postgres' : 'root'),
        password: env.MB_DB_PASS,
        poolSize,
      };
    }
  } else if (!env.MB_DB_TYPE && uri) {
    parseConnectionUri(uri); // throws the unsupported-scheme message
    throw new ConfigurationError(`Unsupported MB_DB_CONNECTION_URI "${uri}"`);
  } else {
    throw new ConfigurationError(`Unsupported MB_DB_TYPE "${dbType}": use sqlite, postgres or mysql`);
  }
  const complexity = (env.MB_PASSWORD_COMPLEXITY ?? 'normal').toLowerCase();
  return {
    host: env.MB_JETTY_HOST ?? 'localhost',
    port: intEnv(env, 'MB_JETTY_PORT', 3000),
    appDb,
    dataDir: dirname(dbFile),
    maxSessionAgeMinutes: intEnv(env, 'MB_MAX_SESSION_AGE', 20160),
    passwordComplexity: complexity === 'weak' || complexity === 'strong' ? complexity : 'normal',
    passwordLength: env.MB_PASSWORD_LENGTH ? intEnv(env, 'MB_PASSWORD_LENGTH', 6) : null,
    disableSessionThrottle: boolEnv(env, 'MB_DISABLE_SESSION_THROTTLE', false),
    loadSampleContent: boolEnv(env, 'MB_LOAD_SAMPLE_CONTENT', true),
    encryptionSecretKey: env.MB_ENCRYPTION_SECRET_KEY || null,
    env,
    logLevel: env.QUARRY_LOG_LEVEL ?? env.MB_LOG_LEVEL ?? 'warn',
  };
}
