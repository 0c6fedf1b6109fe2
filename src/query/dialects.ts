// Engine → SQL dialect. Adding an engine: write src/drivers/<engine>/dialect.ts (a SqlDialect) and list it here.

import type { SqlDialect } from './compile/dialect.js';
import { postgresDialect } from '../drivers/postgres/dialect.js';
import { mysqlDialect, mariadbDialect } from '../drivers/mysql/dialect.js';
import { sqliteDialect } from '../drivers/sqlite/dialect.js';
import { duckdbDialect } from '../drivers/duckdb/dialect.js';
import { unsupported } from './errors.js';

const DIALECTS: Record<string, SqlDialect> = {
  postgres: postgresDialect,
  mysql: mysqlDialect,
  sqlite: sqliteDialect,
  duckdb: duckdbDialect,
};

/** The dialect of an engine; `dbmsVersion` (the database's synced `dbms_version`) tells MariaDB from MySQL. */
export function dialectFor(engine: string, dbmsVersion?: string | null): SqlDialect {
  const d = DIALECTS[engine];
  if (!d) throw unsupported(`Quarry can't compile structured queries for the "${engine}" engine.`);
  if (engine === 'mysql' && dbmsVersion && /"flavor"\s*:\s*"MariaDB"/i.test(dbmsVersion)) return mariadbDialect;
  return d;
}
