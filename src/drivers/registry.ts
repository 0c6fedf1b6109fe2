// Every engine Quarry can connect to. Adding an engine: a folder ./<engine>/ exporting a Driver, its descriptor in
// ./engines.ts, and one line here.

import type { Driver } from './driver.js';
import { sqliteDriver } from './sqlite/index.js';
import { postgresDriver } from './postgres/index.js';
import { mysqlDriver } from './mysql/index.js';
import { duckdbDriver } from './duckdb/index.js';

const DRIVERS: Record<string, Driver> = {
  sqlite: sqliteDriver,
  postgres: postgresDriver,
  mysql: mysqlDriver,
  duckdb: duckdbDriver,
};

/** The driver of `engine`, or null when Quarry has none. */
export function findDriver(engine: string): Driver | null {
  return Object.hasOwn(DRIVERS, engine) ? DRIVERS[engine] : null;
}

export function driverFor(engine: string): Driver {
  const driver = findDriver(engine);
  if (!driver) throw new Error(`No driver for engine "${engine}"`);
  return driver;
}

export function allDrivers(): Driver[] {
  return Object.values(DRIVERS);
}
