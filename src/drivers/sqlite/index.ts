// SQLite (better-sqlite3): a local file. Tables have no schema.

import type { Driver } from '../driver.js';
import { sqliteDialect } from './dialect.js';
import { engineDescriptors } from '../engines.js';
import { normalizeWith } from '../shared/details.js';
import { SQLITE_DETAILS } from './details.js';
import { SQLITE_FEATURES } from './features.js';
import { lazyConnection } from '../shared/lazy-connection.js';

import { SQLITE_MAX_WORKERS } from './limits.js';

export const sqliteDriver: Driver = {
  engine: 'sqlite',
  descriptor: engineDescriptors().sqlite,
  features: SQLITE_FEATURES,
  hasSchemas: false,
  // Statements run in a small pool of worker processes (see ./connection.ts).
  maxConcurrency: SQLITE_MAX_WORKERS,
  secretDetails: [],
  normalizeDetails: (details) => normalizeWith(SQLITE_DETAILS, details),
  open: (details, options) => lazyConnection(async () => new (await import('./connection.js')).SqliteConnection(details, options)),
  quoteIdentifier: (name) => sqliteDialect.quoteIdentifier(name),
  placeholder: () => '?',
};
