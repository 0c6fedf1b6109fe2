// GET /api/dashboard/:id/query_metadata looks each database, table and foreign key up once per request, however many
// cards read them (Metabase's load scenario opens an X-ray of 15 cards over one table).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import { countQueries } from '../helpers/query-count.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';
import { createDashboard, newDashcard, putLayout } from './fixtures.js';

forEachAppDb('dashboard query_metadata cost', (server) => {
  let admin: Client;
  let sample: Sample;
  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
  });

  async function dashboardOf(cards: number): Promise<number> {
    const ids: number[] = [];
    for (let i = 0; i < cards; i++) {
      // Each card breaks out by a column of PRODUCTS through ORDERS.PRODUCT_ID (an implicit join).
      const by = ['field', sample.field('PRODUCTS', i % 2 ? 'CATEGORY' : 'VENDOR'), { 'source-field': sample.field('ORDERS', 'PRODUCT_ID') }];
      const query = { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), aggregation: [['count']], breakout: [by], limit: i + 1 } };
      const r = await admin.post('/api/card', { name: uniqueName('Q'), display: 'bar', visualization_settings: {}, dataset_query: query });
      assert.equal(r.status, 200, r.text);
      ids.push(r.body.id);
    }
    const dash = await createDashboard(admin);
    await putLayout(admin, dash.id, ids.map((id, i) => newDashcard(-1 - i, id)));
    return dash.id;
  }

  test('eight cards over the same tables cost what two do, and each thing is listed once', async () => {
    const small = await dashboardOf(2);
    const large = await dashboardOf(8);
    await admin.get(`/api/dashboard/${small}/query_metadata`); // warms the caller cache
    const two = await countQueries(server(), () => admin.get(`/api/dashboard/${small}/query_metadata`));
    let body: any;
    await admin.get(`/api/dashboard/${large}/query_metadata`);
    const eight = await countQueries(server(), async () => {
      body = (await admin.get(`/api/dashboard/${large}/query_metadata`)).body;
    });
    // (+2: the caller, should its one-second cache expire in between on a slow machine; per card it was +3 or more.)
    assert.ok(eight <= two + 2, `8 cards: ${eight} app-DB statements, 2 cards: ${two}`);
    assert.deepEqual(body.databases.map((d: any) => d.id), [sample.id]);
    assert.deepEqual(body.tables.map((t: any) => t.id).sort(), [sample.table('ORDERS'), sample.table('PRODUCTS')].sort());
  });

  test('the tables of all the cards are described together: four tables cost about what one does', async () => {
    const cardOn = async (table: string) => {
      const query = { database: sample.id, type: 'query', query: { 'source-table': sample.table(table), aggregation: [['count']] } };
      const r = await admin.post('/api/card', { name: uniqueName('Q'), display: 'scalar', visualization_settings: {}, dataset_query: query });
      assert.equal(r.status, 200, r.text);
      return r.body.id as number;
    };
    const dashboardOfTables = async (tables: string[]) => {
      const ids = [];
      for (const table of tables) ids.push(await cardOn(table));
      const dash = await createDashboard(admin);
      await putLayout(admin, dash.id, ids.map((id, i) => newDashcard(-1 - i, id)));
      return dash.id;
    };
    const one = await dashboardOfTables(['ORDERS']);
    const four = await dashboardOfTables(['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS']);
    await admin.get(`/api/dashboard/${one}/query_metadata`); // warms the caller cache
    const oneCost = await countQueries(server(), () => admin.get(`/api/dashboard/${one}/query_metadata`));
    let body: any;
    await admin.get(`/api/dashboard/${four}/query_metadata`);
    const fourCost = await countQueries(server(), async () => {
      body = (await admin.get(`/api/dashboard/${four}/query_metadata`)).body;
    });
    // (+2: the caller's one-second cache; described one table at a time, each more table cost about ten statements.)
    assert.ok(fourCost <= oneCost + 2, `4 tables: ${fourCost} app-DB statements, 1 table: ${oneCost}`);
    assert.equal(body.tables.length, 4);
    for (const table of body.tables) {
      assert.ok(table.fields.length > 0, `${table.name}: its fields`);
      assert.ok(table.fields.every((f: any) => f.table_id === table.id), `${table.name}: only its own fields`);
    }
    const people = body.tables.find((t: any) => t.id === sample.table('PEOPLE'));
    assert.ok(people.fks.some((fk: any) => fk.origin.table_id === sample.table('ORDERS')), 'ORDERS.USER_ID points at PEOPLE');
  });
});
