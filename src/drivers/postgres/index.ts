// PostgreSQL (pg, rows streamed from a portal: ./portal.ts): pooled, streamed, schema-aware.

import type { Driver } from '../driver.js';
import { postgresDialect } from './dialect.js';
import { engineDescriptors } from '../engines.js';
import { checkHost, normalizeWith } from '../shared/details.js';
import { POSTGRES_DETAILS } from './details.js';
import { POSTGRES_FEATURES } from './features.js';
import { lazyConnection } from '../shared/lazy-connection.js';
import { describePostgresWriteError } from './write-errors.js';

export const postgresDriver: Driver = {
  engine: 'postgres',
  descriptor: engineDescriptors().postgres,
  features: POSTGRES_FEATURES,
  hasSchemas: true,
  secretDetails: ['password'],
  normalizeDetails(details) {
    const normalized = normalizeWith(POSTGRES_DETAILS, details);
    normalized.host = checkHost(String(normalized.host));
    return normalized;
  },
  open: (details, options) => lazyConnection(async () => new (await import('./connection.js')).PostgresConnection(details, options)),
  insertReturning: true,
  describeWriteError: describePostgresWriteError,
  quoteIdentifier: (name) => postgresDialect.quoteIdentifier(name),
  placeholder: (index) => `$${index}`,
};
