// A persisted model under a report time zone: its table holds what a live run returns (the build runs in that
// zone), and a table built under another zone is not read (the model runs live until its next refresh).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCountingWarehouse, type CountingWarehouse } from '../cache/warehouse.js';
import { refreshesDone } from '../../src/persistence/refresh.js';

// 20:00 UTC is the next day in Tokyo: the date, the hour and the rendered instant all depend on the session zone
const SQL = `SELECT 1 AS id, (timestamptz '2024-01-01 20:00:00+00')::date AS day, to_char(timestamptz '2024-01-01 20:00:00+00', 'HH24') AS hour, timestamptz '2024-01-01 20:00:00+00' AS at`;

forEachAppDb('persisted models and the report time zone', (server) => {
  let admin: Client;
  let wh: CountingWarehouse;
  let model: number;

  before(async () => {
    admin = await setupAdmin(server());
    wh = await createCountingWarehouse(server(), admin);
    const created = await admin.post('/api/card', { name: 'Zoned', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: wh.id, type: 'native', native: { query: SQL } } });
    assert.equal(created.status, 200, created.text);
    model = created.body.id;
    assert.equal((await admin.post('/api/persist/enable')).status, 204);
    assert.equal((await admin.post(`/api/database/${wh.id}/persist`)).status, 204);
  });
  after(async () => {
    await wh?.drop();
  });

  async function run() {
    const r = await admin.post(`/api/card/${model}/query`);
    assert.equal(r.body.status, 'completed', r.text);
    return r.body.data;
  }

  test('the table built under the report time zone answers as the live run does', async () => {
    assert.equal((await admin.put('/api/setting/report-timezone', { value: 'Asia/Tokyo' })).status, 204);
    const live = await run();
    assert.doesNotMatch(live.native_form.query, /metabase_cache_/);
    assert.equal(live.rows[0][2], '05', 'the live run is in Tokyo time');
    assert.equal((await admin.post(`/api/card/${model}/persist`)).status, 204);
    await refreshesDone(server().ctx);
    assert.equal((await admin.get(`/api/persist/card/${model}`)).body.state, 'persisted');
    const persisted = await run();
    assert.match(persisted.native_form.query, /metabase_cache_/, 'read from the table');
    assert.deepEqual(persisted.rows, live.rows);
  });

  test('after the report time zone changes, the table built under the old one is not read', async () => {
    assert.equal((await admin.put('/api/setting/report-timezone', { value: 'America/New_York' })).status, 204);
    const answer = await run();
    assert.doesNotMatch(answer.native_form.query, /metabase_cache_/, 'runs live until the next refresh');
    assert.equal(answer.rows[0][2], '15');
    assert.equal((await admin.post(`/api/card/${model}/refresh`)).status, 204);
    await refreshesDone(server().ctx);
    const rebuilt = await run();
    assert.match(rebuilt.native_form.query, /metabase_cache_/);
    assert.deepEqual(rebuilt.rows, answer.rows);
  });
});
