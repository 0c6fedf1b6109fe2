// The statements model persistence runs in a warehouse, per engine: the schema Quarry owns there, the permission
// probe, building a model's table and swapping it in atomically, dropping it. PostgreSQL and DuckDB have
// transactional DDL (the swap is DROP + RENAME in one transaction); MySQL/MariaDB swaps with one multi-table
// RENAME TABLE, which is atomic there. A table is always built under a temporary name first, so nobody ever reads
// a half-written one: readers see the old table until the swap, then the new one.
//
// Identifiers go through the engine's dialect quoting; the only SQL text from elsewhere is the model's own compiled
// query, its values bound (never inlined: a literal's escaping depends on server settings such as
// standard_conforming_strings or NO_BACKSLASH_ESCAPES).

import { randomInt } from 'node:crypto';
import type { DriverConnection, WriteSession } from '../drivers/driver.js';
import type { SqlDialect } from '../query/compile/dialect.js';

export const PERSISTABLE_ENGINES = new Set(['postgres', 'mysql', 'duckdb']);

/** Why a database can't take persisted models (Metabase's `persist.check` failures). */
export type ProbeFailure = 'create-schema' | 'create-table' | 'read-table' | 'delete-table';

export function probeMessage(failure: ProbeFailure, schema: string): string {
  switch (failure) {
    case 'create-schema':
      return `Lack permissions to create ${schema} schema`;
    case 'create-table':
      return `Lack permission to create table in schema ${schema}`;
    case 'read-table':
      return `Lack permission to read table in schema ${schema}`;
    case 'delete-table':
      return `Lack permission to delete table in schema ${schema}`;
  }
}

/** How a table is built: the session time zone of the build (a live run's), a statement timeout. */
export interface BuildOptions {
  timezone?: string | null;
  timeoutMs?: number;
}

export interface CacheInfo {
  instanceUuid: string;
  instanceName: string;
}

export class PersistDdl {
  constructor(
    private readonly engine: string,
    private readonly connection: DriverConnection,
    private readonly dialect: SqlDialect,
    readonly schema: string,
  ) {
    if (!connection.transaction) throw new Error(`${engine} connections can't write`);
  }

  private q(name: string): string {
    return this.dialect.quoteIdentifier(name);
  }

  qualified(table: string): string {
    return `${this.q(this.schema)}.${this.q(table)}`;
  }

  private run<T>(work: (session: WriteSession) => Promise<T>, options?: BuildOptions): Promise<T> {
    return this.connection.transaction!(work, options);
  }

  private async schemaExists(session: WriteSession): Promise<boolean> {
    const check = `SELECT 1 FROM information_schema.schemata WHERE schema_name = ${this.dialect.placeholder(1)}`;
    return (await session.run(check, [this.schema])).rows.length > 0;
  }

  /**
   * Creates Quarry's schema (and its `cache_info` table, Metabase's key/value record of who owns it) if missing. A
   * schema that exists — say one an admin created for a login that may not create schemas — is used as it is:
   * `CREATE … IF NOT EXISTS` would still need the right to create one.
   */
  async ensureSchema(info: CacheInfo): Promise<void> {
    const createSchema = this.engine === 'mysql' ? `CREATE DATABASE ${this.q(this.schema)}` : `CREATE SCHEMA ${this.q(this.schema)}`;
    await this.run(async (s) => {
      if (!(await this.schemaExists(s))) await s.run(createSchema, []);
    });
    const text = this.engine === 'mysql' ? 'varchar(254)' : 'text';
    const table = this.qualified('cache_info');
    await this.run(async (s) => {
      await s.run(`CREATE TABLE IF NOT EXISTS ${table} (${this.q('key')} ${text}, ${this.q('value')} ${text})`, []);
      const existing = await s.run(`SELECT ${this.q('key')} FROM ${table}`, []);
      if (existing.rows.length) return;
      const values: Array<[string, string]> = [
        ['settings-version', '1'],
        ['created-at', new Date().toISOString()],
        ['instance-uuid', info.instanceUuid],
        ['instance-name', info.instanceName],
      ];
      for (const [key, value] of values) {
        await s.run(`INSERT INTO ${table} (${this.q('key')}, ${this.q('value')}) VALUES (${this.dialect.quoteString(key)}, ${this.dialect.quoteString(value)})`, []);
      }
    });
  }

  /** Metabase's check on enabling a database: create the schema, then a table in it, read it and drop it. */
  async probe(info: CacheInfo): Promise<ProbeFailure | null> {
    try {
      await this.ensureSchema(info);
    } catch {
      return 'create-schema';
    }
    const table = this.qualified(`persistence_check_${randomInt(10_000)}`);
    try {
      await this.run((s) => s.run(`CREATE TABLE ${table} AS SELECT 1 AS ${this.q('one')}`, []));
    } catch {
      return 'create-table';
    }
    try {
      await this.run((s) => s.run(`SELECT * FROM ${table}`, []));
    } catch {
      return 'read-table';
    }
    try {
      await this.run((s) => s.run(`DROP TABLE ${table}`, []));
    } catch {
      return 'delete-table';
    }
    return null;
  }

  private async tableExists(session: WriteSession, table: string): Promise<boolean> {
    const check = `SELECT 1 FROM information_schema.tables WHERE table_schema = ${this.dialect.placeholder(1)} AND table_name = ${this.dialect.placeholder(2)}`;
    return (await session.run(check, [this.schema, table])).rows.length > 0;
  }

  /**
   * Builds `table` from `selectSql` (with its bound `params`) under a temporary name, then swaps it in for the current one in one atomic step.
   * Returns the number of rows in the new table.
   */
  async replaceTable(table: string, selectSql: string, params: unknown[], options?: BuildOptions): Promise<number> {
    const building = `${table}__new`;
    await this.run(async (s) => {
      await s.run(`DROP TABLE IF EXISTS ${this.qualified(building)}`, []);
      await s.run(`CREATE TABLE ${this.qualified(building)} AS ${selectSql}`, params);
    }, options);
    const counted = await this.run((s) => s.run(`SELECT COUNT(*) AS ${this.q('n')} FROM ${this.qualified(building)}`, []));
    if (this.engine === 'mysql') {
      const old = `${table}__old`;
      await this.run(async (s) => {
        await s.run(`DROP TABLE IF EXISTS ${this.qualified(old)}`, []);
        if (await this.tableExists(s, table)) {
          await s.run(`RENAME TABLE ${this.qualified(table)} TO ${this.qualified(old)}, ${this.qualified(building)} TO ${this.qualified(table)}`, []);
          await s.run(`DROP TABLE ${this.qualified(old)}`, []);
        } else {
          await s.run(`RENAME TABLE ${this.qualified(building)} TO ${this.qualified(table)}`, []);
        }
      });
    } else {
      await this.run(async (s) => {
        await s.run(`DROP TABLE IF EXISTS ${this.qualified(table)}`, []);
        await s.run(`ALTER TABLE ${this.qualified(building)} RENAME TO ${this.q(table)}`, []);
      });
    }
    return Number(Object.values(counted.rows[0] ?? {})[0] ?? 0);
  }

  async dropTable(table: string): Promise<void> {
    await this.run((s) => s.run(`DROP TABLE IF EXISTS ${this.qualified(table)}`, []));
  }
}
