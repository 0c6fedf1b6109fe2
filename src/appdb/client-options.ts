// The configuration → driver options step for a PostgreSQL or MySQL/MariaDB app DB: pool size and TLS. Pure apart
// from reading the certificate files the configuration names, so it can be checked without a server.
//
// `allow` and `prefer` can't be expressed as one driver setting: they are a first choice and a fallback that
// ./connect.ts tries once at start-up (and keeps for the pool).

import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { PoolConfig } from 'pg';
import type { PoolOptions } from 'mysql2';
import { ConfigurationError, type AppDbTls, type RemoteAppDbConfig } from '../config.js';

/** Driver options to connect with, and (allow/prefer) what to use instead when the server refuses that TLS choice. */
export interface ClientChoice<T> {
  first: T;
  fallback: T | null;
}

/** A TLS setting for node-postgres / mysql2: `false` for none, else options for `tls.connect`. */
export type TlsSetting = false | (ConnectionOptions & { verifyIdentity?: boolean });

function readPem(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigurationError(`MB_DB_CONNECTION_URI: can't read the ${what} file "${file}" (${code})`);
  }
}

/** TLS that encrypts without checking the server's certificate (require, and the TLS side of allow/prefer). */
function unverified(tls: AppDbTls): TlsSetting {
  return { rejectUnauthorized: false, ...clientCert(tls) };
}

function clientCert(tls: AppDbTls): ConnectionOptions {
  const out: ConnectionOptions = {};
  if (tls.certFile) out.cert = readPem(tls.certFile, 'client certificate');
  if (tls.keyFile) out.key = readPem(tls.keyFile, 'client key');
  if (tls.keyPassword) out.passphrase = tls.keyPassword;
  return out;
}

function verified(tls: AppDbTls, hostname: boolean): TlsSetting {
  const out: TlsSetting = { rejectUnauthorized: true, ...clientCert(tls) };
  if (tls.rootCert) out.ca = 'pem' in tls.rootCert ? tls.rootCert.pem : readPem(tls.rootCert.file, 'root certificate');
  // Node checks the host name unless told not to; mysql2 checks it only with verifyIdentity.
  if (hostname) out.verifyIdentity = true;
  else out.checkServerIdentity = () => undefined;
  return out;
}

/** The TLS settings to try, first and fallback, for a mode. */
export function tlsChoice(tls: AppDbTls): ClientChoice<TlsSetting> {
  switch (tls.mode) {
    case 'disable':
      return { first: false, fallback: null };
    case 'allow':
      return { first: false, fallback: unverified(tls) };
    case 'prefer':
      return { first: unverified(tls), fallback: false };
    case 'require':
      return { first: unverified(tls), fallback: null };
    case 'verify-ca':
      return { first: verified(tls, false), fallback: null };
    case 'verify-full':
      return { first: verified(tls, true), fallback: null };
  }
}

function withTls<T>(choice: ClientChoice<TlsSetting>, build: (ssl: TlsSetting) => T): ClientChoice<T> {
  return { first: build(choice.first), fallback: choice.fallback === null ? null : build(choice.fallback) };
}

/** node-postgres pool options (type parsers are added by ./connect.ts). */
export function pgClientOptions(config: RemoteAppDbConfig): ClientChoice<PoolConfig> {
  return withTls(tlsChoice(config.tls), (ssl) => {
    const options: PoolConfig = {
      host: config.host,
      port: config.port,
      database: config.dbname,
      user: config.user,
      password: config.password,
      max: config.poolSize,
      ssl: false,
    };
    if (ssl) {
      // node-postgres hands these to tls.connect, which checks the host name unless checkServerIdentity says not to.
      const { verifyIdentity: _mysqlOnly, ...rest } = ssl;
      options.ssl = rest;
    }
    return options;
  });
}

/** mysql2 pool options. */
export function mysqlClientOptions(config: RemoteAppDbConfig): ClientChoice<PoolOptions> {
  return withTls(tlsChoice(config.tls), (ssl) => {
    const options: PoolOptions = {
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
    };
    if (ssl) {
      // mysql2 checks the host name only with verifyIdentity; it ignores checkServerIdentity.
      const { checkServerIdentity: _ignored, ...rest } = ssl;
      options.ssl = rest as PoolOptions['ssl'];
    }
    return options;
  });
}
