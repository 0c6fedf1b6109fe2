// Everything a request or a background job needs, created once at start-up and passed explicitly.

import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { AppDb, AppDbDialect } from './appdb/connect.js';
import type { DB } from './appdb/schema.js';
import type { SettingsStore } from './settings/store.js';
import type { Mailer } from './notify/mailer.js';

export interface AppContext {
  config: Config;
  appDb: AppDb;
  db: Kysely<DB>;
  dialect: AppDbDialect;
  settings: SettingsStore;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** Functions run when the server shuts down (pools, timers). */
  onClose: Array<() => Promise<void> | void>;
}
