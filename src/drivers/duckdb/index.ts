// DuckDB (@duckdb/node-api): a local file opened locked down (no external file or network access).

import type { Driver } from '../driver.js';
import { duckdbDialect } from './dialect.js';
import { engineDescriptors } from '../engines.js';
import { normalizeWith } from '../shared/details.js';
import { DUCKDB_DETAILS } from './details.js';
import { DUCKDB_FEATURES } from './features.js';
import { lazyConnection } from '../shared/lazy-connection.js';

export const duckdbDriver: Driver = {
  engine: 'duckdb',
  descriptor: engineDescriptors().duckdb,
  features: DUCKDB_FEATURES,
  hasSchemas: true,
  secretDetails: [],
  normalizeDetails: (details) => normalizeWith(DUCKDB_DETAILS, details),
  open: (details, options) => lazyConnection(async () => new (await import('./connection.js')).DuckdbConnection(details, options)),
  quoteIdentifier: (name) => duckdbDialect.quoteIdentifier(name),
  placeholder: (index) => `$${index}`,
};
