// How a pg client connects to a data source, from the database's details: shared by the server's own pool (metadata,
// transactions) and the statement thread's (./worker-main.ts).

import pg from 'pg';
import type { ConnectionDetails } from '../driver.js';
import { flag, num, str } from '../shared/details.js';
import { postgresTypeParsers } from './values.js';

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

/** pg_cancel_backend(pid) from a short-lived connection of its own (the statement's connection is busy). */
export async function cancelBackend(config: pg.ClientConfig, pid: number): Promise<void> {
  const canceller = new pg.Client({ ...config, types: undefined });
  canceller.on('error', () => {});
  try {
    await canceller.connect();
    await canceller.query('select pg_cancel_backend($1)', [pid]);
  } finally {
    await canceller.end().catch(() => {});
  }
}
