// Endpoints of newer Metabase versions around databases, tables and uploads: a database's health, a table's rows,
// the FKs of a saved question seen as a table, and appending to or replacing an uploaded table.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { tableOf } from '../databases/helpers.js';
import { callers, ok, postCsv, type Callers } from './helpers.js';

forEachAppDb('database health, table data, uploaded tables', (server) => {
  let c: Callers;
  const table = (name: string) => tableOf(c.sample.metadata, name).id as number;

  before(async () => {
    c = await callers(server());
  });

  test('healthcheck: ok for a reachable database, an error map for one that is gone', async () => {
    assert.deepEqual((await c.user.get(`/api/database/${c.sample.id}/healthcheck`)).body, { status: 'ok' });
    const pg = await createPgDatabase('quarry_health');
    const details = { host: PG.host, port: PG.port, dbname: pg.name, user: PG.user, ...(PG.password ? { password: PG.password } : {}) };
    const db = ok(await c.admin.post('/api/database', { engine: 'postgres', name: 'Soon gone', details }), 'add database');
    assert.deepEqual((await c.admin.get(`/api/database/${db.id}/healthcheck`)).body, { status: 'ok' });
    await pg.drop();
    const gone = await c.admin.get(`/api/database/${db.id}/healthcheck`);
    assert.equal(gone.status, 200);
    assert.equal(gone.body.status, 'error');
    assert.match(gone.body.message, /./);
    assert.equal((await c.admin.get('/api/database/999999/healthcheck')).status, 404);
    assert.equal((await c.admin.get('/api/database/abc/healthcheck')).status, 404);
    assert.equal((await server().anon.get(`/api/database/${c.sample.id}/healthcheck`)).status, 401);
    ok(await c.admin.delete(`/api/database/${db.id}`), 'delete database');
  });

  test('table data: the rows as a query result, capped at 2,000, for those who may query the table', async () => {
    const response = await c.user.get(`/api/table/${table('ORDERS')}/data`);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'completed');
    assert.equal(response.body.row_count, 2000);
    assert.equal(response.body.data.rows.length, 2000);
    assert.equal(response.body.data.cols[0].name, 'ID');
    assert.equal(response.body.database_id, c.sample.id);
    for (const key of ['json_query', 'context', 'cached', 'average_execution_time']) assert.ok(!(key in response.body), key);
    const products = await c.user.get(`/api/table/${table('PRODUCTS')}/data`);
    assert.equal(products.body.row_count, 200);
    assert.equal((await c.nodata.get(`/api/table/${table('ORDERS')}/data`)).status, 403);
    assert.equal((await c.user.get('/api/table/999999/data')).status, 404);
    assert.equal((await server().anon.get(`/api/table/${table('ORDERS')}/data`)).status, 401);
  });

  test('a saved question seen as a table has no FKs', async () => {
    const card = ok(
      await c.user.post('/api/card', {
        name: 'Orders',
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': table('ORDERS') } },
      }),
      'card',
    );
    const fks = await c.user.get(`/api/table/card__${card.id}/fks`);
    assert.equal(fks.status, 200);
    assert.deepEqual(fks.body, []);
    assert.equal((await c.user.get('/api/table/card__abc/fks')).status, 404);
  });

  test('uploads: the new path makes a table; append and replace change its rows; bad files change nothing', async () => {
    const made = await postCsv(c.user, '/api/upload/csv', 'team.csv', 'Name,Age\nAna,30\nBo,41\n');
    assert.equal(made.status, 200, made.text);
    assert.equal(typeof made.body, 'number');
    const tableId = Number(made.headers.get('metabase-table-id'));
    const rows = async () => ok(await c.admin.get(`/api/table/${tableId}/data`), 'data').data.rows.map((r: unknown[]) => r.slice(1));

    const appended = await postCsv(c.user, `/api/table/${tableId}/append-csv`, 'more.csv', 'name,age\nCy,22\n');
    assert.equal(appended.status, 200, appended.text);
    assert.equal(appended.text, '');
    assert.deepEqual(await rows(), [['Ana', 30], ['Bo', 41], ['Cy', 22]]);

    const missing = await postCsv(c.user, `/api/table/${tableId}/append-csv`, 'bad.csv', 'name\nDi\n');
    assert.equal(missing.status, 422);
    assert.match(missing.body.message, /missing columns that are in the table:\n- age/);
    const wrongType = await postCsv(c.user, `/api/table/${tableId}/append-csv`, 'bad.csv', 'name,age\nDi,old\n');
    assert.equal(wrongType.status, 422);
    assert.match(wrongType.body.message, /wrong type \('old'\) in the 'age' column/);
    assert.equal((await rows()).length, 3);

    const widened = await postCsv(c.user, `/api/table/${tableId}/append-csv`, 'city.csv', 'Age,Name,City\n50,Ed,Oslo\n');
    assert.equal(widened.status, 200, widened.text);
    const cols = ok(await c.admin.get(`/api/table/${tableId}/data`), 'data').data.cols.map((col: any) => col.name.toLowerCase());
    assert.deepEqual(cols, ['_mb_row_id', 'name', 'age', 'city']);
    assert.deepEqual((await rows()).at(-1), ['Ed', 50, 'Oslo']);

    const replaced = await postCsv(c.user, `/api/table/${tableId}/replace-csv`, 'new.csv', 'name,age,city\nZed,1,Rome\n');
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(await rows(), [['Zed', 1, 'Rome']]);

    assert.equal((await postCsv(c.nodata, `/api/table/${tableId}/append-csv`, 'x.csv', 'name,age,city\nX,2,Y\n')).status, 403);
    const notUpload = await postCsv(c.admin, `/api/table/${table('PRODUCTS')}/append-csv`, 'x.csv', 'a\n1\n');
    assert.equal(notUpload.status, 422);
    assert.equal(notUpload.body.message, 'The table must be an uploaded table.');
    assert.equal((await c.user.post(`/api/table/${tableId}/replace-csv`, {})).status, 400);
    assert.equal((await postCsv(c.user, '/api/table/999999/append-csv', 'x.csv', 'a\n1\n')).status, 404);
    assert.deepEqual(await rows(), [['Zed', 1, 'Rome']]);
  });
});
