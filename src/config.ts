// Environment → configuration, using Metabase's MB_* variable names.

/** A bad environment value: start-up stops with this message (no stack trace; see src/main.ts). */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

import { resolve, dirname } from 'node:path';

/**
 * TLS to a PostgreSQL or MySQL/MariaDB app DB, in libpq's terms: `disable` never; `allow` plain first, TLS if the
 * server insists; `prefer` TLS first, plain if the server has none; `require` TLS without checking the certificate;
 * `verify-ca` TLS with the certificate checked against the trusted CAs; `verify-full` that and the host name too.
 */
export type TlsMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';

export interface AppDbTls {
  mode: TlsMode;
  /** The option that chose the mode, for messages: `sslmode=require`, `useSSL=true`, `the default (sslmode=prefer)`. */
  source: string;
  /** The CA to trust instead of Node's bundled ones: a PEM file, or the PEM itself (MariaDB's serverSslCert). */
  rootCert?: { file: string } | { pem: string };
  /** A client certificate and key (PEM files) and the key's password. */
  certFile?: string;
  keyFile?: string;
  keyPassword?: string;
}

export interface RemoteAppDbConfig {
  type: 'postgres' | 'mysql';
  host: string;
  port: number;
  dbname: string;
  user: string;
  password: string | undefined;
  poolSize: number;
  tls: AppDbTls;
}

export type AppDbConfig = { type: 'sqlite'; file: string } | RemoteAppDbConfig;

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
  /** How long a password bcrypt accepted is remembered for repeat logins (QUARRY_PASSWORD_CACHE_SECONDS; 0: never). */
  passwordCacheSeconds: number;
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
export function parseConnectionUri(uri: string): Omit<RemoteAppDbConfig, 'poolSize'> {
  const cleaned = uri.trim().replace(/^jdbc:/i, '');
  const type = connectionUriType(uri);
  if (!type) throw new ConfigurationError(`Unsupported MB_DB_CONNECTION_URI scheme in "${uri.split(':')[0]}:…": use postgres://, postgresql://, mysql:// or mariadb:// (optionally jdbc:-prefixed)`);
  let url: URL;
  try {
    url = new URL(cleaned);
  } catch {
    throw new ConfigurationError('MB_DB_CONNECTION_URI is not a valid URI');
  }
  const user = decodeURIComponent(url.username || url.searchParams.get('user') || (type === 'postgres' ? 'postgres' : 'root'));
  const passwordRaw = url.password || url.searchParams.get('password');
  return {
    type,
    host: url.hostname || 'localhost',
    port: url.port ? Number(url.port) : type === 'postgres' ? 5432 : 3306,
    dbname: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'metabase',
    user,
    password: passwordRaw ? decodeURIComponent(passwordRaw) : undefined,
    tls: type === 'postgres' ? postgresTls(url.searchParams) : mysqlTls(url.searchParams),
  };
}

/** TLS when the app DB is given field by field (MB_DB_HOST…; Metabase has no TLS variables): its drivers' defaults. */
export function defaultTls(type: RemoteAppDbConfig['type']): AppDbTls {
  return type === 'postgres' ? { mode: 'prefer', source: 'the default (sslmode=prefer)' } : { mode: 'disable', source: 'the default (no TLS)' };
}

/** The URI's query options, keys lower-cased (JDBC drivers differ in case: sslmode, sslMode, useSSL, useSsl). */
function uriOptions(params: URLSearchParams): Map<string, { name: string; value: string }> {
  const out = new Map<string, { name: string; value: string }>();
  for (const [name, value] of params) out.set(name.toLowerCase(), { name, value });
  return out;
}

function badOption(name: string, value: string, expected: string): ConfigurationError {
  return new ConfigurationError(`MB_DB_CONNECTION_URI: ${name}=${value} is not supported; ${name} must be ${expected}`);
}

function boolOption(option: { name: string; value: string } | undefined): boolean | undefined {
  if (!option) return undefined;
  const v = option.value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badOption(option.name, option.value, 'true or false');
}

/** Refuses TLS-looking options this server doesn't understand, rather than connecting without what they ask for. */
function refuseUnknownTlsOptions(options: Map<string, { name: string; value: string }>, known: string[], looksTls: RegExp, engine: string): void {
  for (const [key, { name }] of options) {
    if (looksTls.test(key) && !known.includes(key)) {
      throw new ConfigurationError(`MB_DB_CONNECTION_URI: the ${engine} option ${name} is not supported (TLS options understood: ${known.join(', ')})`);
    }
  }
}

const PG_MODES: TlsMode[] = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];
const PG_TLS_OPTIONS = ['ssl', 'sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'sslpassword', 'sslfactory'];
const NON_VALIDATING_FACTORY = 'org.postgresql.ssl.NonValidatingFactory';

/**
 * PostgreSQL JDBC / libpq options: `sslmode` (one of PG_MODES), else `ssl=true` (verify-full, as the JDBC driver) or
 * `ssl=false`, else prefer; `sslfactory=org.postgresql.ssl.NonValidatingFactory` (Metabase's documented escape hatch)
 * turns certificate checks off; `sslrootcert` (a PEM file, or `system` for the bundled CAs), `sslcert`, `sslkey`,
 * `sslpassword`.
 */
export function postgresTls(params: URLSearchParams): AppDbTls {
  const options = uriOptions(params);
  refuseUnknownTlsOptions(options, PG_TLS_OPTIONS, /^ssl/, 'PostgreSQL');
  const sslmode = options.get('sslmode');
  const ssl = options.get('ssl');
  let tls: AppDbTls;
  if (sslmode) {
    const mode = sslmode.value.toLowerCase() as TlsMode;
    if (!PG_MODES.includes(mode)) throw badOption(sslmode.name, sslmode.value, `one of ${PG_MODES.join(', ')}`);
    tls = { mode, source: `sslmode=${mode}` };
  } else if (ssl) {
    tls = boolOption(ssl) ? { mode: 'verify-full', source: 'ssl=true' } : { mode: 'disable', source: 'ssl=false' };
  } else {
    tls = defaultTls('postgres');
  }
  const factory = options.get('sslfactory');
  if (factory) {
    if (factory.value !== NON_VALIDATING_FACTORY) throw badOption(factory.name, factory.value, NON_VALIDATING_FACTORY);
    if (tls.mode === 'verify-ca' || tls.mode === 'verify-full') tls = { mode: 'require', source: `${tls.source} with sslfactory=NonValidatingFactory` };
  }
  const rootcert = options.get('sslrootcert')?.value;
  if (rootcert && rootcert !== 'system') tls.rootCert = { file: rootcert };
  const cert = options.get('sslcert')?.value;
  const key = options.get('sslkey')?.value;
  const password = options.get('sslpassword')?.value;
  if (cert) tls.certFile = cert;
  if (key) tls.keyFile = key;
  if (password) tls.keyPassword = password;
  return tls;
}

const MYSQL_TLS_OPTIONS = [
  'sslmode',
  'ssl-mode',
  'usessl',
  'ssl',
  'requiressl',
  'trustservercertificate',
  'verifyservercertificate',
  'disablesslhostnameverification',
  'serversslcert',
];

const MYSQL_MODES: Record<string, TlsMode> = {
  disable: 'disable',
  disabled: 'disable',
  prefer: 'prefer',
  preferred: 'prefer',
  trust: 'require',
  require: 'require',
  required: 'require',
  'verify-ca': 'verify-ca',
  verify_ca: 'verify-ca',
  'verify-full': 'verify-full',
  verify_identity: 'verify-full',
  'verify-identity': 'verify-full',
};

/**
 * MySQL/MariaDB Connector/J options: `sslMode` (MariaDB's disable, trust, verify-ca, verify-full or MySQL's DISABLED,
 * PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY), else `useSSL=true` (verified, as MariaDB's connector does; Metabase
 * uses it), loosened by `trustServerCertificate=true` / `verifyServerCertificate=false` (no check) or
 * `disableSslHostnameVerification=true` (no host-name check); `requireSSL=true` alone is `require`; `serverSslCert` is the
 * CA (a PEM file or the PEM itself). No TLS by default.
 */
export function mysqlTls(params: URLSearchParams): AppDbTls {
  const options = uriOptions(params);
  refuseUnknownTlsOptions(options, MYSQL_TLS_OPTIONS, /ssl|tls|certificate|keystore/, 'MySQL/MariaDB');
  const sslMode = options.get('sslmode') ?? options.get('ssl-mode');
  const useSsl = options.get('usessl') ?? options.get('ssl');
  const trust = boolOption(options.get('trustservercertificate'));
  const verify = boolOption(options.get('verifyservercertificate'));
  const noHostname = boolOption(options.get('disablesslhostnameverification'));
  const requireSsl = boolOption(options.get('requiressl'));
  let tls: AppDbTls;
  if (sslMode) {
    const mode = MYSQL_MODES[sslMode.value.toLowerCase()];
    if (!mode) throw badOption(sslMode.name, sslMode.value, 'one of disable, trust, verify-ca, verify-full (MariaDB) or DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY (MySQL)');
    tls = { mode, source: `${sslMode.name}=${sslMode.value}` };
  } else if (useSsl && boolOption(useSsl)) {
    const source = `${useSsl.name}=true`;
    if (trust === true || verify === false) tls = { mode: 'require', source: `${source} without certificate checks` };
    else if (noHostname === true) tls = { mode: 'verify-ca', source: `${source} with disableSslHostnameVerification` };
    else tls = { mode: 'verify-full', source };
  } else if (useSsl) {
    tls = { mode: 'disable', source: `${useSsl.name}=false` };
  } else if (requireSsl === true) {
    tls = { mode: 'require', source: 'requireSSL=true' };
  } else {
    tls = defaultTls('mysql');
  }
  const ca = options.get('serversslcert')?.value;
  if (ca) tls.rootCert = ca.includes('-----BEGIN') ? { pem: ca } : { file: ca };
  return tls;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Without MB_DB_TYPE, a connection URI says which database it is (as in Metabase); otherwise SQLite.
  const uri = env.MB_DB_CONNECTION_URI || undefined;
  const dbType = (env.MB_DB_TYPE || (uri ? connectionUriType(uri) ?? 'unknown' : 'sqlite')).toLowerCase();
  const dbFile = resolve(env.MB_DB_FILE ?? './quarry-data/quarry.db');
  const poolSize = intEnv(env, 'MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE', 15);
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new ConfigurationError(`MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE must be a positive integer, got "${env.MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE}"`);
  }
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
        tls: defaultTls(type),
      };
    }
  } else if (!env.MB_DB_TYPE && uri) {
    parseConnectionUri(uri); // throws the unsupported-scheme message
    throw new ConfigurationError(`Unsupported MB_DB_CONNECTION_URI "${uri}"`);
  } else {
    throw new ConfigurationError(`Unsupported MB_DB_TYPE "${dbType}": use sqlite, postgres or mysql`);
  }
  const passwordCacheSeconds = intEnv(env, 'QUARRY_PASSWORD_CACHE_SECONDS', 300);
  if (!Number.isInteger(passwordCacheSeconds) || passwordCacheSeconds < 0) {
    throw new ConfigurationError(`QUARRY_PASSWORD_CACHE_SECONDS must be a whole number of seconds (0 disables), got "${env.QUARRY_PASSWORD_CACHE_SECONDS}"`);
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
    passwordCacheSeconds,
    loadSampleContent: boolEnv(env, 'MB_LOAD_SAMPLE_CONTENT', true),
    encryptionSecretKey: env.MB_ENCRYPTION_SECRET_KEY || null,
    env,
    logLevel: env.QUARRY_LOG_LEVEL ?? env.MB_LOG_LEVEL ?? 'warn',
  };
}
