// A throwaway PostgreSQL warehouse for the cache tests, registered with the server. Every query that reads
// `counted_orders` (a view) or calls `quarry_counted(ms)` advances the sequence `query_log` on the database itself —
// so a test counts what really reached PostgreSQL, not what Quarry believes it ran. (A sequence, because its
// advance is seen by other sessions at once, before the counted statement's transaction ends.)

import pg from 'pg';
import { createPgDatabase, PG } from '../helpers/databases.js';
import type { Client } from '../helpers/client.js';
import type { TestServer } from '../helpers/server.js';
import { idleSyncs } from '../../src/sync/runner.js';

export interface CountingWarehouse {
  id: number;
  name: string;
  table(name: string): number;
  field(table: string, name: string): number;
  /** Statements that reached the database so far. */
  count(): Promise<number>;
  /** Runs SQL on the warehouse directly (as its owner). */
  sql(text: string, params?: unknown[]): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

const SCHEMA = `
  CREATE TABLE orders (id integer PRIMARY KEY, region integer NOT NULL, category text NOT NULL, total numeric(10,2) NOT NULL, created_at timestamp NOT NULL);
  INSERT INTO orders SELECT g, g % 4, (ARRAY['Gizmo','Widget','Gadget'])[1 + g % 3], round((g * 7.31) % 500, 2), timestamp '2024-01-01' + g * interval '37 minutes'
    FROM generate_series(1, 15000) g;
  CREATE SEQUENCE query_log;
  CREATE FUNCTION quarry_counted(sleep_ms integer) RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
    BEGIN PERFORM nextval('query_log'); PERFORM pg_sleep(sleep_ms / 1000.0); RETURN 1; END $$;
  CREATE VIEW counted_orders AS SELECT o.* FROM orders o WHERE (SELECT quarry_counted(0)) = 1;
`;

export async function createCountingWarehouse(server: TestServer, admin: Client): Promise<CountingWarehouse> {
  const db = await createPgDatabase('quarry_cache');
  const client = new pg.Client({ ...PG, database: db.name });
  await client.connect();
  await client.query(SCHEMA);
  const name = `Counting ${db.name}`;
  const created = await admin.post('/api/database', { engine: 'postgres', name, details: { host: PG.host, port: PG.port, user: PG.user, dbname: db.name, ...(PG.password ? { password: PG.password } : {}) } });
  if (created.status !== 200) throw new Error(`registering the warehouse failed: ${created.status} ${created.text}`);
  const id = created.body.id as number;
  await idleSyncs(server.ctx);
  const meta = (await admin.get(`/api/database/${id}/metadata`, { query: { include_hidden: true } })).body;
  const tables = new Map<string, any>(meta.tables.map((t: any) => [t.name, t]));
  return {
    id,
    name,
    table(t) {
      const found = tables.get(t);
      if (!found) throw new Error(`no table ${t}`);
      return found.id;
    },
    field(t, f) {
      const found = tables.get(t)?.fields.find((x: any) => x.name === f);
      if (!found) throw new Error(`no field ${t}.${f}`);
      return found.id;
    },
    async count() {
      const { last_value, is_called } = (await client.query('SELECT last_value, is_called FROM query_log')).rows[0];
      return is_called ? Number(last_value) : 0;
    },
    sql: (text, params) => client.query(text, params),
    async drop() {
      await client.end();
      await db.drop();
    },
  };
}
