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
});
