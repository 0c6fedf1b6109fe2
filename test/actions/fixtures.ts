// A small writable warehouse for action tests — customers and their orders — on the machine's real PostgreSQL and
// MariaDB, added to Quarry through the API with actions switched on, and a model over its customers table.

import assert from 'node:assert/strict';
import pg from 'pg';
import { createConnection } from 'mysql2/promise';
import type { Client } from '../helpers/client.js';
import { createMysqlDatabase, createPgDatabase, MYSQL, PG } from '../helpers/databases.js';
import { waitForSync } from '../databases/helpers.js';

export type WarehouseEngine = 'postgres' | 'mysql';

export interface Warehouse {
  engine: WarehouseEngine;
  /** Quarry's id of the database. */
  id: number;
  tables: Record<string, number>;
  /** field ids by "table.column" */
  fields: Record<string, number>;
  /** Runs SQL directly on the warehouse (to check what actions did). */
  query(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  drop(): Promise<void>;
}

const PG_SCHEMA = `
  CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL, email text UNIQUE, score integer, joined date);
  CREATE TABLE orders (id serial PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers(id), amount integer);
  INSERT INTO customers (name, email, score, joined) VALUES ('Ada', 'ada@example.com', 10, '2024-01-02'), ('Grace', 'grace@example.com', 20, '2024-02-03');
  INSERT INTO orders (customer_id, amount) VALUES (1, 100);
`;

const MYSQL_SCHEMA = [
  'CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(100) UNIQUE, score INT, joined DATE) ENGINE=InnoDB',
  'CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, amount INT, FOREIGN KEY (customer_id) REFERENCES customers(id)) ENGINE=InnoDB',
  "INSERT INTO customers (name, email, score, joined) VALUES ('Ada', 'ada@example.com', 10, '2024-01-02'), ('Grace', 'grace@example.com', 20, '2024-02-03')",
  'INSERT INTO orders (customer_id, amount) VALUES (1, 100)',
];

async function createOnEngine(engine: WarehouseEngine) {
  if (engine === 'postgres') {
    const db = await createPgDatabase('quarry_actions');
    const c = new pg.Client({ ...PG, database: db.name });
    await c.connect();
    await c.query(PG_SCHEMA);
    await c.end();
    const query = async (sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ ...PG, database: db.name });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    };
    return { details: { host: PG.host, port: PG.port, dbname: db.name, user: PG.user, ...(PG.password ? { password: PG.password } : {}) }, query, drop: db.drop };
  }
  const db = await createMysqlDatabase('quarry_actions');
  const c = await createConnection({ ...MYSQL, database: db.name });
  for (const statement of MYSQL_SCHEMA) await c.query(statement);
  await c.end();
  const query = async (sql: string, params: unknown[] = []) => {
    const client = await createConnection({ ...MYSQL, database: db.name, dateStrings: true });
    try {
      return (await client.query(sql, params))[0] as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  return { details: { host: MYSQL.host, port: MYSQL.port, dbname: db.name, user: MYSQL.user, password: MYSQL.password }, query, drop: db.drop };
}

/** Creates the warehouse, adds it to Quarry (synced) and, unless told otherwise, enables actions on it. */
export async function addWarehouse(admin: Client, engine: WarehouseEngine, options: { enableActions?: boolean } = {}): Promise<Warehouse> {
  const created = await createOnEngine(engine);
  const response = await admin.post('/api/database', { engine, name: `Actions ${engine} ${Date.now()}`, details: created.details });
  assert.equal(response.status, 200, response.text);
  const id = response.body.id;
  await waitForSync(admin, id);
  if (options.enableActions !== false) {
    const enabled = await admin.put(`/api/database/${id}`, { settings: { 'database-enable-actions': true } });
    assert.equal(enabled.status, 200, enabled.text);
  }
  const metadata = (await admin.get(`/api/database/${id}/metadata`)).body;
  const tables: Record<string, number> = {};
  const fields: Record<string, number> = {};
  for (const table of metadata.tables) {
    tables[table.name] = table.id;
    for (const field of table.fields) fields[`${table.name}.${field.name}`] = field.id;
  }
  return { engine, id, tables, fields, query: created.query, drop: created.drop };
}

/** A model showing a whole table (what implicit actions need). */
export async function tableModel(admin: Client, warehouse: Warehouse, table: string, collectionId: number | null = null) {
  const response = await admin.post('/api/card', {
    name: `${table} model ${Date.now()}`,
    type: 'model',
    display: 'table',
    visualization_settings: {},
    collection_id: collectionId,
    dataset_query: { database: warehouse.id, type: 'query', query: { 'source-table': warehouse.tables[table] } },
  });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** A query action renaming one customer: `UPDATE customers SET name = {{name}} WHERE id = {{id}}`. */
export function renameAction(warehouse: Warehouse, modelId: number, extra: Record<string, unknown> = {}) {
  return {
    name: `Rename customer ${Date.now()}`,
    type: 'query',
    model_id: modelId,
    database_id: warehouse.id,
    dataset_query: {
      database: warehouse.id,
      type: 'native',
      native: {
        query: 'UPDATE customers SET name = {{name}} WHERE id = {{id}}',
        'template-tags': {
          id: { id: 'tag-id', name: 'id', 'display-name': 'ID', type: 'number' },
          name: { id: 'tag-name', name: 'name', 'display-name': 'Name', type: 'text' },
        },
      },
    },
    parameters: [
      { id: 'tag-id', slug: 'id', type: 'number/=', target: ['variable', ['template-tag', 'id']], required: true },
      { id: 'tag-name', slug: 'name', type: 'string/=', target: ['variable', ['template-tag', 'name']], required: true },
    ],
    visualization_settings: { fields: {} },
    ...extra,
  };
}
