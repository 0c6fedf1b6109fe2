// Engine → SQL dialect. Adding an engine: write src/drivers/<engine>/dialect.ts (a SqlDialect) and list it here.

import type { SqlDialect } from './compile/dialect.js';
import { postgresDialect } from '../drivers/postgres/dialect.js';
import { mysqlDialect } from '../drivers/mysql/dialect.js';
import { sqliteDialect } from '../drivers/sqlite/dialect.js';
import { duckdbDialect } from '../drivers/duckdb/dialect.js';
import { unsupported } from './errors.js';

const DIALECTS: Record<string, SqlDialect> = {
  postgres: postgresDialect,
  mysql: mysqlDialect,
  sqlite: sqliteDialect,
  duckdb: duckdbDialect,
};

export function dialectFor(engine: string): SqlDialect {
  const d = DIALECTS[engine];
  if (!d) throw unsupported(`Quarry can't compile structured queries for the "${engine}" engine.`);
  return d;
}
