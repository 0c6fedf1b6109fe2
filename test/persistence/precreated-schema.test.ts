// A locked-down warehouse login that may not create schemas: the admin pre-creates Quarry's schema for it and lets
// it write there. Enabling persistence accepts that schema and builds models in it; without it, Metabase's message.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from '../cache/warehouse.js';
import { PG } from '../helpers/databases.js';
import { refreshesDone } from '../../src/persistence/refresh.js';
import { schemaName } from '../../src/persistence/naming.js';
import { siteUuid } from '../../src/persistence/site.js';

forEachAppDb('persistence in a schema the admin created', (server) => {
  let admin: Client;
  let wh: CountingWarehouse;
  const role = `quarry_locked_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  let dbName: string;

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
    dbName = (await wh.sql('SELECT current_database() AS d')).rows[0].d;
    await wh.sql(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await wh.sql(`REVOKE CREATE ON DATABASE ${dbName} FROM PUBLIC`);
    await wh.sql(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`);
    await wh.sql(`GRANT EXECUTE ON FUNCTION quarry_counted(integer) TO ${role}`);
    await wh.sql(`GRANT USAGE, UPDATE ON SEQUENCE query_log TO ${role}`);
    assert.equal((await admin.post('/api/persist/enable')).status, 204);
  });
  after(async () => {
    await wh?.drop();
    const cluster = new pg.Client({ ...PG, database: 'postgres' });
    await cluster.connect();
    await cluster.query(`DROP ROLE IF EXISTS ${role}`).finally(() => cluster.end());
  });

  async function lockedDatabase(name: string): Promise<number> {
    const created = await admin.post('/api/database', { engine: 'postgres', name, details: { host: PG.host, port: PG.port, user: role, password, dbname: dbName } });
    assert.equal(created.status, 200, created.text);
    return created.body.id;
  }

  test('without the schema, the login that may not create one gets Metabase’s message', async () => {
    const id = await lockedDatabase('Locked, no schema');
    const schema = schemaName(await siteUuid(server().ctx), id);
    const refused = await admin.post(`/api/database/${id}/persist`);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.message, `Lack permissions to create ${schema} schema`);
  });

  test('a schema the admin created and granted is accepted, and models are built in it', async () => {
    const id = await lockedDatabase('Locked, schema ready');
    const schema = schemaName(await siteUuid(server().ctx), id);
    await wh.sql(`CREATE SCHEMA "${schema}" AUTHORIZATION ${role}`);
    const enabled = await admin.post(`/api/database/${id}/persist`);
    assert.equal(enabled.status, 204, enabled.text);
    const model = await admin.post('/api/card', { name: 'In the ready schema', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: id, type: 'native', native: { query: 'SELECT id, region FROM orders ORDER BY id LIMIT 5' } } });
    assert.equal(model.status, 200, model.text);
    assert.equal((await admin.post(`/api/card/${model.body.id}/persist`)).status, 204);
    await refreshesDone(server().ctx);
    const info = (await admin.get(`/api/persist/card/${model.body.id}`)).body;
    assert.equal(info.state, 'persisted', JSON.stringify(info));
    assert.equal(info.schema_name, schema);
    const rows = await wh.sql(`SELECT count(*) AS n FROM "${schema}"."${info.table_name}"`);
    assert.equal(Number(rows.rows[0].n), 5);
  });
});
