// Shared setup for the card and collection tests: a connected database with a table to point cards at, and small
// builders for cards and collections.

import type { TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { insertReturningId } from '../../src/appdb/portable.js';

export interface DataFixture {
  databaseId: number;
  tableId: number;
}

/**
 * A database row with one table, registered directly in the app DB (card CRUD only needs their ids; tests that run
 * queries use the sample database instead).
 */
export async function registerDatabase(t: TestServer, name = 'Fixture DB'): Promise<DataFixture> {
  const db = t.ctx.db;
  const now = new Date().toISOString();
  const databaseId = await insertReturningId(db, t.ctx.dialect, 'metabase_database', {
      entity_id: 'fixturedb' + Math.random().toString(36).slice(2, 14),
      name,
      description: null,
      engine: 'sqlite',
      details: JSON.stringify({ db: ':memory:' }),
      is_sample: false,
      is_full_sync: true,
      is_on_demand: false,
      is_audit: false,
      auto_run_queries: true,
      refingerprint: null,
      cache_ttl: null,
      metadata_sync_schedule: '0 0 * * * ? *',
      cache_field_values_schedule: '0 0 0 * * ? *',
      timezone: null,
      dbms_version: null,
      initial_sync_status: 'complete',
      settings: null,
      caveats: null,
      points_of_interest: null,
      creator_id: null,
      uploads_enabled: false,
      uploads_schema_name: null,
      uploads_table_prefix: null,
      created_at: now,
      updated_at: now,
  });
  const tableId = await insertReturningId(db, t.ctx.dialect, 'metabase_table', {
      entity_id: 'fixturetb' + Math.random().toString(36).slice(2, 14),
      db_id: databaseId,
      schema: null,
      name: 'ORDERS',
      display_name: 'Orders',
      description: null,
      entity_type: 'entity/TransactionTable',
      active: true,
      visibility_type: null,
      initial_sync_status: 'complete',
      is_upload: false,
      field_order: 'database',
      show_in_getting_started: false,
      caveats: null,
      points_of_interest: null,
      estimated_row_count: null,
      view_count: 0,
      created_at: now,
      updated_at: now,
  });
  return { databaseId, tableId };
}

export function mbql(data: DataFixture, inner: Record<string, unknown> = {}) {
  return { database: data.databaseId, type: 'query', query: { 'source-table': data.tableId, ...inner } };
}

export function native(data: DataFixture, sql: string, tags: Record<string, unknown> = {}) {
  return { database: data.databaseId, type: 'native', native: { query: sql, 'template-tags': tags } };
}

let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix} ${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

export async function createCard(client: Client, data: DataFixture, fields: Record<string, unknown> = {}) {
  const response = await client.post('/api/card', {
    name: uniqueName('Card'),
    display: 'table',
    visualization_settings: {},
    dataset_query: mbql(data),
    ...fields,
  });
  if (response.status !== 200) throw new Error(`create card failed: ${response.status} ${response.text}`);
  return response.body;
}

export async function createCollection(client: Client, fields: Record<string, unknown> = {}) {
  const response = await client.post('/api/collection', { name: uniqueName('Collection'), ...fields });
  if (response.status !== 200) throw new Error(`create collection failed: ${response.status} ${response.text}`);
  return response.body;
}
