// Shared by the databases/sync tests: the sample data loaded into all four engines, and waiting for syncs.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSampleInto } from '../../src/sample/load.js';
import { createMysqlDatabase, createPgDatabase, MYSQL, PG } from '../helpers/databases.js';
import type { Client } from '../helpers/client.js';

export type Engine = 'sqlite' | 'postgres' | 'mysql' | 'duckdb';
export const ENGINES: Engine[] = ['sqlite', 'postgres', 'mysql', 'duckdb'];

export interface LoadedSamples {
  dir: string;
  /** The `details` to POST for each engine's copy of the sample data. */
  details: Record<Engine, Record<string, unknown>>;
  cleanup(): Promise<void>;
}

/** Loads the sample data into a SQLite file, a DuckDB file, a throwaway PostgreSQL and a MariaDB database. */
export async function loadSamplesEverywhere(engines: Engine[] = ENGINES): Promise<LoadedSamples> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-samples-'));
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const details = {} as Record<Engine, Record<string, unknown>>;
  const jobs: Promise<void>[] = [];
  if (engines.includes('sqlite')) {
    details.sqlite = { db: join(dir, 'sample.sqlite') };
    jobs.push(loadSampleInto('sqlite', details.sqlite as { db: string }));
  }
  if (engines.includes('duckdb')) {
    details.duckdb = { db: join(dir, 'sample.duckdb') };
    jobs.push(loadSampleInto('duckdb', details.duckdb as { db: string }));
  }
  if (engines.includes('postgres')) {
    const pg = await createPgDatabase('quarry_sample');
    cleanups.push(pg.drop);
    details.postgres = { host: PG.host, port: PG.port, dbname: pg.name, user: PG.user, ...(PG.password ? { password: PG.password } : {}) };
    jobs.push(loadSampleInto('postgres', details.postgres as never));
  }
  if (engines.includes('mysql')) {
    const my = await createMysqlDatabase('quarry_sample');
    cleanups.push(my.drop);
    details.mysql = { host: MYSQL.host, port: MYSQL.port, dbname: my.name, user: MYSQL.user, password: MYSQL.password };
    jobs.push(loadSampleInto('mysql', details.mysql as never));
  }
  await Promise.all(jobs);
  return {
    dir,
    details,
    async cleanup() {
      for (const fn of cleanups.reverse()) await fn().catch(() => {});
    },
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the database's first sync has finished and returns the database. */
export async function waitForSync(client: Client, databaseId: number, timeoutMs = 60_000): Promise<any> {
  return waitFor(`database ${databaseId} to sync`, async () => {
    const response = await client.get(`/api/database/${databaseId}`);
    if (response.body?.initial_sync_status === 'aborted') throw new Error(`sync of database ${databaseId} aborted`);
    return response.body?.initial_sync_status === 'complete' ? response.body : null;
  }, timeoutMs);
}

/** Adds the sample database through the API (as admin) and waits for its sync. */
export async function installSample(client: Client): Promise<{ id: number; metadata: any }> {
  const response = await client.post('/api/database/sample_database');
  if (response.status !== 200) throw new Error(`sample_database failed: ${response.status} ${response.text}`);
  const metadata = (await client.get(`/api/database/${response.body.id}/metadata`)).body;
  return { id: response.body.id, metadata };
}

export function tableOf(metadata: any, name: string): any {
  const table = metadata.tables.find((t: any) => t.name.toUpperCase() === name);
  if (!table) throw new Error(`no table ${name}`);
  return table;
}

export function fieldOf(metadata: any, table: string, name: string): any {
  const field = tableOf(metadata, table).fields.find((f: any) => f.name.toUpperCase() === name);
  if (!field) throw new Error(`no field ${table}.${name}`);
  return field;
}
