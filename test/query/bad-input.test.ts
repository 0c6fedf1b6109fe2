// Input that can't mean anything fails the query with a clear error (202, status failed, invalid-query or
// invalid-parameter) on every engine, instead of running and answering nonsense: invalid date literals, inside with
// non-numeric bounds, object values for template tags and parameters. And an IN list too long to bind value by value
// still runs where the engine can take it as one parameter, or fails with a message that says why.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, setupAdmin, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerWarehouses, ENGINES, type Engine, type Warehouse } from './helpers/warehouses.js';
import { q } from './helpers/native-cases.js';

describe('bad input fails clearly', () => {
  let server: TestServer;
  let admin: Client;
  let wh: Record<Engine, Warehouse>;

  before(async () => {
    server = await startServer('sqlite');
    admin = await setupAdmin(server);
    wh = await registerWarehouses(server, admin);
  });
  after(async () => {
    await server?.close();
  });

  async function expectFailure(build: (w: Warehouse) => Record<string, unknown>, type: string, message: RegExp) {
    for (const e of ENGINES) {
      const r = await admin.post('/api/dataset', build(wh[e]));
      assert.equal(r.status, 202, `${e}: ${r.text.slice(0, 200)}`);
      assert.equal(r.body.status, 'failed', `${e} ran: ${JSON.stringify(r.body.data?.rows)}`);
      assert.equal(r.body.error_type, type, `${e}: ${r.body.error}`);
      assert.match(r.body.error, message, e);
    }
  }
  const countOrders = (w: Warehouse, filter: unknown) => w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], filter });

  test('an impossible date literal', () =>
    expectFailure((w) => countOrders(w, ['>', w.f('ORDERS', 'CREATED_AT'), '2024-13-45']), 'invalid-query', /Invalid date or date-time value: "2024-13-45"/));

  test('a date compared with text that is no date', () =>
    expectFailure((w) => countOrders(w, ['=', w.f('ORDERS', 'CREATED_AT'), 'not a date']), 'invalid-query', /"not a date"/));

  test('between with an impossible bound', () =>
    expectFailure((w) => countOrders(w, ['between', w.f('ORDERS', 'CREATED_AT'), '2024-01-01', '2024-02-30']), 'invalid-query', /"2024-02-30"/));

  test('inside with non-numeric bounds', () =>
    expectFailure((w) => w.mbql({ 'source-table': w.t('PEOPLE'), aggregation: [['count']], filter: ['inside', w.f('PEOPLE', 'LATITUDE'), w.f('PEOPLE', 'LONGITUDE'), 'north', -110, 35, -90] }), 'invalid-query', /inside needs numbers/));

  test('an object as a text tag value', () =>
    expectFailure(
      (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}'), { cat: { name: 'cat', 'display-name': 'Category', type: 'text' } }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 'cat']], value: { evil: true } }] }),
      'invalid-parameter',
      /Invalid value for the text variable 'Category'/,
    ));

  test('a boolean tag value that is no boolean', () =>
    expectFailure(
      (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ACCOUNTS" WHERE "TRIAL_CONVERTED" = {{b}}'), { b: { name: 'b', type: 'boolean' } }, { parameters: [{ type: 'boolean', target: ['variable', ['template-tag', 'b']], value: 'maybe' }] }),
      'invalid-parameter',
      /boolean variable/,
    ));

  test('an object as a field filter value', () =>
    expectFailure(
      (w) => w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']] }, { parameters: [{ type: 'string/=', target: ['dimension', w.f('PRODUCTS', 'CATEGORY')], value: [{ a: 1 }] }] }),
      'invalid-parameter',
      /Invalid value for a string\/= parameter/,
    ));

  test('70,000 IN values: one parameter on PostgreSQL and SQLite, a clear refusal past MySQL’s limit', async () => {
    const ids = Array.from({ length: 70_000 }, (_, i) => i + 1);
    for (const e of ENGINES) {
      const w = wh[e];
      const r = await admin.post('/api/dataset', countOrders(w, ['=', w.f('ORDERS', 'ID'), ...ids]));
      const negated = await admin.post('/api/dataset', countOrders(w, ['!=', w.f('ORDERS', 'ID'), ...ids]));
      if (e === 'mysql') {
        for (const x of [r, negated]) {
          assert.equal(x.body.status, 'failed');
          assert.equal(x.body.error_type, 'invalid-query');
          assert.match(x.body.error, /70000 values to bind, more than the 65535 a mysql statement accepts/);
        }
        continue;
      }
      assert.equal(r.body.status, 'completed', `${e}: ${r.body.error}`);
      assert.deepEqual(r.body.data.rows, [[18760]], e);
      assert.deepEqual(negated.body.data.rows, [[0]], e);
    }
    // Text values too (case-sensitive as always).
    const names = Array.from({ length: 5_000 }, (_, i) => `Category ${i}`).concat(['Gizmo']);
    for (const e of ['postgres', 'sqlite'] as const) {
      const w = wh[e];
      const r = await admin.post('/api/dataset', w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['=', w.f('PRODUCTS', 'CATEGORY'), ...names] }));
      assert.deepEqual(r.body.data.rows, [[51]], `${e}: ${r.body.error}`);
    }
    const shown = await admin.post('/api/dataset/native', { ...countOrders(wh.postgres, ['=', wh.postgres.f('ORDERS', 'ID'), ...ids.slice(0, 1001)]), pretty: false });
    assert.match(shown.body.query, /= ANY\(ARRAY\[1, 2, 3, .*, 1001\]::bigint\[\]\)/);
    // A native tag with more values than PostgreSQL binds: a clear message, not the driver's.
    const tag = await admin.post('/api/dataset', wh.postgres.native('SELECT COUNT(*) FROM "ORDERS" WHERE "ID" IN ({{ids}})', { ids: { name: 'ids', type: 'number' } }, { parameters: [{ type: 'number', target: ['variable', ['template-tag', 'ids']], value: ids }] }));
    assert.equal(tag.body.status, 'failed');
    assert.match(tag.body.error, /more than the 65535 a postgres statement accepts/);
  });
});
