// One open connection pool per connected database, shared by every query and sync of this process. A pool is
// opened on first use, reopened when the database's engine or details change, closed when the database is deleted,
// and all pools close with the server.

import type { AppContext } from '../context.js';
import type { Driver, DriverConnection } from '../drivers/driver.js';
import { findDriver } from '../drivers/registry.js';
import { notFound, badRequest, messageError } from '../http/errors.js';
import type { DatabaseRow } from './database-row.js';
import { readDetails } from './details.js';
import { openOptions } from './open-options.js';

interface Entry {
  /** Engine and stored details when the pool was opened; a different value means "reopen". */
  fingerprint: string;
  driver: Driver;
  connection: DriverConnection;
}

export interface OpenDatabase {
  database: DatabaseRow;
  driver: Driver;
  connection: DriverConnection;
}

const pools = new WeakMap<AppContext, Map<number, Entry>>();

function poolsOf(ctx: AppContext): Map<number, Entry> {
  let map = pools.get(ctx);
  if (!map) {
    const created = new Map<number, Entry>();
    map = created;
    pools.set(ctx, created);
    ctx.onClose.push(async () => {
      const entries = [...created.values()];
      created.clear();
      await Promise.all(entries.map((e) => e.connection.close().catch(() => {})));
    });
  }
  return map;
}

export async function loadDatabaseRow(ctx: AppContext, databaseId: number): Promise<DatabaseRow | undefined> {
  return ctx.db.selectFrom('metabase_database').selectAll().where('id', '=', databaseId).executeTakeFirst();
}

/** The database's row, driver and pooled connection; 404 when there is no such database. */
export async function connectionFor(ctx: AppContext, databaseId: number): Promise<OpenDatabase> {
  const database = await loadDatabaseRow(ctx, databaseId);
  if (!database) throw notFound();
  return connectionForRow(ctx, database);
}

export function connectionForRow(ctx: AppContext, database: DatabaseRow): OpenDatabase {
  const driver = findDriver(database.engine);
  if (!driver) throw badRequest(`Quarry has no driver for the engine "${database.engine}".`);
  const map = poolsOf(ctx);
  const fingerprint = `${database.engine}\u0000${database.details}`;
  const cached = map.get(database.id);
  if (cached && cached.fingerprint === fingerprint) return { database, driver: cached.driver, connection: cached.connection };
  if (cached) {
    map.delete(database.id);
    cached.connection.close().catch(() => {});
  }
  let details;
  try {
    details = readDetails(ctx, database.details);
  } catch (error) {
    // e.g. details encrypted with another MB_ENCRYPTION_SECRET_KEY: say so rather than fail obscurely.
    throw messageError(400, (error as Error).message);
  }
  const connection = driver.open(details, openOptions(ctx));
  map.set(database.id, { fingerprint, driver, connection });
  return { database, driver, connection };
}

/** The databases whose pools this process has opened, with their connections (for the pools' figures). */
export function openConnections(ctx: AppContext): Array<{ databaseId: number; connection: DriverConnection }> {
  return [...poolsOf(ctx)].map(([databaseId, entry]) => ({ databaseId, connection: entry.connection }));
}

/** Closes the database's pool (after its details changed or it was deleted); the next use reopens it. */
export async function closeConnection(ctx: AppContext, databaseId: number): Promise<void> {
  const map = poolsOf(ctx);
  const entry = map.get(databaseId);
  if (!entry) return;
  map.delete(databaseId);
  await entry.connection.close().catch(() => {});
}
