// A persisted model's build binds its query's values rather than writing them into the SQL: on a PostgreSQL database
// with standard_conforming_strings off (backslashes escape in literals), a filter value with a backslash and a quote
// still filters exactly as the live run does.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from '../cache/warehouse.js';
import { PG } from '../helpers/databases.js';
import { refreshesDone } from '../../src/persistence/refresh.js';
import { idleSyncs } from '../../src/sync/runner.js';

const TRICKY = "Gizmo\\' OR true --";

forEachAppDb('persisted model builds bind their values', (server) => {
  let admin: Client;
  let wh: CountingWarehouse;

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
    const dbName = (await wh.sql('SELECT current_database() AS d')).rows[0].d;
    await wh.sql(`ALTER DATABASE ${dbName} SET standard_conforming_strings = off`);
    await wh.sql(`INSERT INTO orders VALUES (15001, 1, $1, 1.00, timestamp '2024-06-01')`, [TRICKY]);
  });
  after(async () => {
    await wh?.drop();
  });

  test('a filter value with a backslash and a quote builds the same rows as the live run', async () => {
    // registered after the ALTER, so its connections have backslash-escaping literals
    const dbName = (await wh.sql('SELECT current_database() AS d')).rows[0].d;
    const created = await admin.post('/api/database', { engine: 'postgres', name: 'Old-style strings', details: { host: PG.host, port: PG.port, user: PG.user, dbname: dbName, ...(PG.password ? { password: PG.password } : {}) } });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id;
    await idleSyncs(server().ctx);
    const meta = (await admin.get(`/api/database/${id}/metadata`)).body;
    const orders = meta.tables.find((t: any) => t.name === 'orders');
    const field = (name: string) => ['field', orders.fields.find((f: any) => f.name === name).id, null];
    const model = await admin.post('/api/card', {
      name: 'Tricky', type: 'model', display: 'table', visualization_settings: {},
      dataset_query: { database: id, type: 'query', query: { 'source-table': orders.id, fields: [field('id'), field('category')], filter: ['=', field('category'), TRICKY] } },
    });
    assert.equal(model.status, 200, model.text);
    const live = await admin.post(`/api/card/${model.body.id}/query`);
    assert.equal(live.body.status, 'completed', live.text);
    assert.deepEqual(live.body.data.rows, [[15001, TRICKY]]);

    assert.equal((await admin.post('/api/persist/enable')).status, 204);
    assert.equal((await admin.post(`/api/database/${id}/persist`)).status, 204);
    assert.equal((await admin.post(`/api/card/${model.body.id}/persist`)).status, 204);
    await refreshesDone(server().ctx);
    const info = (await admin.get(`/api/persist/card/${model.body.id}`)).body;
    assert.equal(info.state, 'persisted', JSON.stringify(info));
    const persisted = await admin.post(`/api/card/${model.body.id}/query`);
    assert.match(persisted.body.data.native_form.query, /metabase_cache_/);
    assert.deepEqual(persisted.body.data.rows, live.body.data.rows);
  });
});
