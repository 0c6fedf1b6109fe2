// X-rays beyond the embedded Sample Database: the same tables loaded into PostgreSQL (metadata from its own sync, the
// cards' SQL compiled for PostgreSQL), and the X-ray of one indexed model record (model_index/…/primary_key/…).

import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, startServer, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerWarehouses, type Warehouse } from '../query/helpers/warehouses.js';
import { fieldOf, tableOf } from '../databases/helpers.js';
import { callers, ok, type Callers } from '../endpoints/helpers.js';

const X = '/api/automagic-dashboards';
const queryCards = (d: any) => d.dashcards.filter((dc: any) => dc.card);

async function runAll(client: Client, d: any): Promise<number[]> {
  const counts: number[] = [];
  for (const dc of queryCards(d)) {
    const r = ok(await client.post('/api/dataset', dc.card.dataset_query), dc.card.name);
    assert.equal(r.status, 'completed', `${dc.card.name}: ${JSON.stringify(r.error)} ${JSON.stringify(dc.card.dataset_query)}`);
    counts.push(r.data.rows.length);
  }
  return counts;
}

describe('x-rays of a PostgreSQL data source', () => {
  let server: TestServer;
  let admin: Client;
  let pg: Warehouse;
  before(async () => {
    server = await startServer('sqlite');
    admin = await setupAdmin(server);
    pg = (await registerWarehouses(server, admin, ['postgres'])).postgres;
  });
  after(async () => server?.close());

  test('the orders table: a transactions dashboard whose cards all run on PostgreSQL', async () => {
    const d = ok(await admin.get(`${X}/table/${pg.t('ORDERS')}`), 'orders');
    const titles = queryCards(d).map((dc: any) => dc.card.name);
    assert.ok(titles.some((s: string) => s.startsWith('Sales per')), titles.join(' | '));
    assert.ok((await runAll(admin, d)).every((n) => n > 0));
    const people = ok(await admin.get(`${X}/table/${pg.t('PEOPLE')}`), 'people');
    assert.ok((await runAll(admin, people)).every((n) => n > 0));
    const field = ok(await admin.get(`${X}/field/${pg.fid('PRODUCTS', 'PRICE')}`), 'price field');
    assert.ok((await runAll(admin, field)).every((n) => n > 0));
    const candidates = ok(await admin.get(`${X}/database/${pg.id}/candidates`), 'candidates');
    assert.equal(candidates[0].schema, 'public');
    assert.equal(candidates[0].id, `${pg.id}/public`);
  });
});

forEachAppDb('x-ray of an indexed model record', (server) => {
  let c: Callers;
  before(async () => {
    c = await callers(server());
  });

  test('the tables pointing at the record, one tab each, filtered to it', async () => {
    const t = (name: string) => tableOf(c.sample.metadata, name).id;
    const id = fieldOf(c.sample.metadata, 'PRODUCTS', 'ID').id;
    const title = fieldOf(c.sample.metadata, 'PRODUCTS', 'TITLE').id;
    const model = ok(
      await c.admin.post('/api/card', { name: 'Catalog', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': t('PRODUCTS') } } }),
      'model',
    );
    ok(await c.admin.post(`/api/card/${model.id}/query`, {}), 'run');
    const index = ok(await c.admin.post('/api/model-index', { model_id: model.id, pk_ref: ['field', id, null], value_ref: ['field', title, null] }), 'index');

    const d = ok(await c.user.get(`${X}/model_index/${index.id}/primary_key/1`), 'record');
    assert.match(d.name, /^Here's a look at ".+" from "Catalog"$/);
    assert.deepEqual(d.tabs.map((tab: any) => tab.name).sort(), ['A look at Orders', 'A look at Reviews']);
    for (const tab of d.tabs) {
      const own = d.dashcards.filter((dc: any) => dc.dashboard_tab_id === tab.id);
      assert.equal(own[0].visualization_settings.link.entity.id, model.id, 'each tab opens with a link to the model');
      assert.ok(own.some((dc: any) => dc.card));
    }
    for (const dc of queryCards(d)) assert.match(JSON.stringify(dc.card.dataset_query.query.filter), /"=",\["field",\d+,null\],1/);
    await runAll(c.user, d);

    const none = ok(await c.nodata.get(`${X}/model_index/${index.id}/primary_key/1`), 'no data access: the empty state');
    assert.equal(none.dashcards.length, 2);
    assert.match(none.dashcards[1].visualization_settings.text, /not much else to show/);
    assert.equal((await c.user.get(`${X}/model_index/${index.id}/primary_key/999999`)).status, 404);
  });
});
