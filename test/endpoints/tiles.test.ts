// Pin-map tiles: PNGs of the Sample Database's people drawn where they live — ad hoc, for a saved card and for a
// card on a dashboard (with its filters) — with the caller's query permissions.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Resvg } from '@resvg/resvg-js';
import { forEachAppDb } from '../helpers/server.js';
import { fieldOf, tableOf } from '../databases/helpers.js';
import { pngSize } from '../notify/render-png.js';
import { callers, ok, type Callers } from './helpers.js';

/** The RGBA of every pixel of a PNG (decoded by drawing it with resvg). */
function pixels(png: Buffer): Uint8Array {
  const { width, height } = pngSize(png);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  return new Resvg(svg).render().pixels;
}
const at = (rgba: Uint8Array, x: number, y: number) => [...rgba.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4)];
const opaque = (rgba: Uint8Array) => {
  let n = 0;
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] > 0) n += 1;
  return n;
};
const blue = (rgba: Uint8Array) => {
  let n = 0;
  for (let i = 0; i < rgba.length; i += 4) if (rgba[i] === 76 && rgba[i + 1] === 157 && rgba[i + 2] === 230 && rgba[i + 3] === 255) n += 1;
  return n;
};

/** Slippy-map arithmetic, written independently of the server's: the tile and the pixel in it of a point. */
function locate(lat: number, lon: number, zoom: number) {
  const scale = 2 ** zoom * 256;
  const worldX = ((lon + 180) / 360) * scale;
  const r = (lat * Math.PI) / 180;
  const worldY = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * scale;
  return { x: Math.floor(worldX / 256), y: Math.floor(worldY / 256), px: Math.floor(worldX) % 256, py: Math.floor(worldY) % 256 };
}

async function tile(client: any, path: string, query: Record<string, string> = {}) {
  const response = await fetch(client.url(path, query), { headers: client.session ? { 'X-Metabase-Session': client.session } : {} });
  return { status: response.status, type: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()) };
}

forEachAppDb('map tiles', (server) => {
  let c: Callers;
  let lat: any, lon: any, state: any;
  let person: { lat: number; lon: number; state: string };
  let people: number;
  const ref = (f: any) => encodeURIComponent(JSON.stringify(['field', f.id, null]));

  before(async () => {
    c = await callers(server());
    people = tableOf(c.sample.metadata, 'PEOPLE').id;
    lat = fieldOf(c.sample.metadata, 'PEOPLE', 'LATITUDE');
    lon = fieldOf(c.sample.metadata, 'PEOPLE', 'LONGITUDE');
    state = fieldOf(c.sample.metadata, 'PEOPLE', 'STATE');
    const row = ok(
      await c.admin.post('/api/dataset', { database: c.sample.id, type: 'query', query: { 'source-table': people, fields: [['field', lat.id, null], ['field', lon.id, null], ['field', state.id, null]], limit: 1 } }),
      'a person',
    ).data.rows[0];
    person = { lat: row[0], lon: row[1], state: row[2] };
  });

  const peopleQuery = () => JSON.stringify({ database: c.sample.id, type: 'query', query: { 'source-table': people } });

  test('an ad-hoc query: a 256×256 transparent PNG with a pin where each person lives, nothing elsewhere', async () => {
    const where = locate(person.lat, person.lon, 6);
    const hit = await tile(c.user, `/api/tiles/6/${where.x}/${where.y}/${ref(lat)}/${ref(lon)}`, { query: peopleQuery() });
    assert.equal(hit.status, 200, hit.body.toString());
    assert.equal(hit.type, 'image/png');
    assert.deepEqual(pngSize(hit.body), { width: 256, height: 256 });
    const rgba = pixels(hit.body);
    assert.equal(at(rgba, where.px, where.py)[3], 255, 'the person’s pin');
    assert.ok(blue(rgba) >= 4);
    assert.ok(opaque(rgba) < 256 * 256, 'the rest is transparent');

    const farAway = await tile(c.user, `/api/tiles/6/${(where.x + 32) % 64}/${where.y}/${ref(lat)}/${ref(lon)}`, { query: peopleQuery() });
    assert.equal(farAway.status, 200);
    assert.equal(opaque(pixels(farAway.body)), 0, 'no one lives on the other side of the world');

    const world = pixels((await tile(c.user, `/api/tiles/0/0/0/${ref(lat)}/${ref(lon)}`, { query: peopleQuery() })).body);
    const w = locate(person.lat, person.lon, 0);
    assert.equal(at(world, w.px, w.py)[3], 255);

    // a native query: the columns by name
    const sql = JSON.stringify({ database: c.sample.id, type: 'native', native: { query: 'SELECT LATITUDE, LONGITUDE FROM PEOPLE' } });
    const byName = (name: string) => encodeURIComponent(JSON.stringify(['field', name, { 'base-type': 'type/Float' }]));
    const native = await tile(c.user, `/api/tiles/6/${where.x}/${where.y}/${byName('LATITUDE')}/${byName('LONGITUDE')}`, { query: sql });
    assert.equal(native.status, 200, native.body.toString());
    assert.equal(at(pixels(native.body), where.px, where.py)[3], 255);
  });

  test('a saved card and a dashcard: as they run, filters included; only their own columns', async () => {
    const card = ok(
      await c.admin.post('/api/card', { name: 'Where people live', display: 'map', visualization_settings: { 'map.type': 'pin' }, dataset_query: JSON.parse(peopleQuery()) }),
      'card',
    );
    const where = locate(person.lat, person.lon, 6);
    const path = `/api/tiles/${card.id}/6/${where.x}/${where.y}/${ref(lat)}/${ref(lon)}`;
    const own = await tile(c.user, path);
    assert.equal(own.status, 200, own.body.toString());
    assert.equal(at(pixels(own.body), where.px, where.py)[3], 255);
    const notItsColumn = encodeURIComponent(JSON.stringify(['field', fieldOf(c.sample.metadata, 'ORDERS', 'TOTAL').id, null]));
    assert.equal((await tile(c.user, `/api/tiles/${card.id}/6/${where.x}/${where.y}/${notItsColumn}/${ref(lon)}`)).status, 400);

    const dashboard = ok(await c.admin.post('/api/dashboard', { name: 'People map', parameters: [{ id: 'st', name: 'State', slug: 'state', type: 'string/=' }] }), 'dashboard');
    const layout = ok(
      await c.admin.put(`/api/dashboard/${dashboard.id}`, {
        dashcards: [{ id: -1, card_id: card.id, row: 0, col: 0, size_x: 6, size_y: 4, parameter_mappings: [{ parameter_id: 'st', card_id: card.id, target: ['dimension', ['field', state.id, null]] }] }],
      }),
      'layout',
    );
    const dashcardPath = `/api/tiles/${dashboard.id}/dashcard/${layout.dashcards[0].id}/card/${card.id}/6/${where.x}/${where.y}/${ref(lat)}/${ref(lon)}`;
    const inState = await tile(c.user, dashcardPath, { parameters: JSON.stringify([{ id: 'st', value: [person.state] }]) });
    assert.equal(inState.status, 200, inState.body.toString());
    assert.equal(at(pixels(inState.body), where.px, where.py)[3], 255);
    const elsewhere = await tile(c.user, dashcardPath, { parameters: JSON.stringify([{ id: 'st', value: ['ZZ'] }]) });
    assert.equal(opaque(pixels(elsewhere.body)), 0, 'the dashboard filter applies');
    assert.equal((await tile(c.user, `/api/tiles/${dashboard.id}/dashcard/999999/card/${card.id}/6/0/0/${ref(lat)}/${ref(lon)}`)).status, 404);
  });

  test('the 0.58 form, latField and lonField in the query string, draws the same tiles, parameters of a native card applied', async () => {
    const where = locate(person.lat, person.lon, 6);
    const fields = { latField: JSON.stringify(['field', lat.id, null]), lonField: JSON.stringify(['field', lon.id, null]) };
    const oldForm = await tile(c.user, `/api/tiles/6/${where.x}/${where.y}/${ref(lat)}/${ref(lon)}`, { query: peopleQuery() });
    const newForm = await tile(c.user, `/api/tiles/6/${where.x}/${where.y}`, { query: peopleQuery(), ...fields });
    assert.equal(newForm.status, 200, newForm.body.toString());
    assert.equal(newForm.type, 'image/png');
    assert.deepEqual(pixels(newForm.body), pixels(oldForm.body));
    assert.equal((await tile(c.user, `/api/tiles/6/${where.x}/${where.y}`, { query: peopleQuery() })).status, 400, 'no latField');

    // A native question with a required parameter: the tile runs it with the value given.
    const byName = (name: string) => JSON.stringify(['field', name, { 'base-type': 'type/Float' }]);
    const tag = { id: 'st-tag', name: 'st', 'display-name': 'State', type: 'text', required: true, default: 'ZZ' };
    const card = ok(
      await c.admin.post('/api/card', {
        name: 'People of a state',
        display: 'map',
        visualization_settings: { 'map.type': 'pin' },
        dataset_query: { database: c.sample.id, type: 'native', native: { query: 'SELECT LATITUDE, LONGITUDE FROM PEOPLE WHERE STATE = {{st}}', 'template-tags': { st: tag } } },
        parameters: [{ id: 'st-tag', type: 'category', name: 'State', slug: 'st', target: ['variable', ['template-tag', 'st']] }],
      }),
      'native card',
    );
    ok(await c.admin.post(`/api/card/${card.id}/query`, { parameters: [{ id: 'st-tag', type: 'category', target: ['variable', ['template-tag', 'st']], value: person.state }] }), 'a run fills the metadata');
    const nativeFields = { latField: byName('LATITUDE'), lonField: byName('LONGITUDE') };
    const inState = await tile(c.user, `/api/tiles/${card.id}/6/${where.x}/${where.y}`, {
      ...nativeFields,
      parameters: JSON.stringify([{ id: 'st-tag', type: 'category', target: ['variable', ['template-tag', 'st']], value: person.state }]),
    });
    assert.equal(inState.status, 200, inState.body.toString());
    assert.equal(at(pixels(inState.body), where.px, where.py)[3], 255, 'the person’s pin');
    const byDefault = await tile(c.user, `/api/tiles/${card.id}/6/${where.x}/${where.y}`, nativeFields);
    assert.equal(byDefault.status, 200, byDefault.body.toString());
    assert.equal(opaque(pixels(byDefault.body)), 0, 'the default state has no one');
  });

  test('permissions and bad input', async () => {
    const nodata = await tile(c.nodata, `/api/tiles/6/10/20/${ref(lat)}/${ref(lon)}`, { query: peopleQuery() });
    assert.equal(nodata.status, 403);
    assert.equal((await tile(server().anon, `/api/tiles/6/10/20/${ref(lat)}/${ref(lon)}`, { query: peopleQuery() })).status, 401);
    assert.equal((await tile(c.user, `/api/tiles/6/10/20/${ref(lat)}/${ref(lon)}`)).status, 400, 'no query');
    assert.equal((await tile(c.user, `/api/tiles/6/10/20/not-json/${ref(lon)}`, { query: peopleQuery() })).status, 400);
    assert.equal((await tile(c.user, `/api/tiles/6/10/20/${encodeURIComponent('["sum",1]')}/${ref(lon)}`, { query: peopleQuery() })).status, 400);
    assert.equal((await tile(c.user, `/api/tiles/99/10/20/${ref(lat)}/${ref(lon)}`, { query: peopleQuery() })).status, 400);
    assert.equal((await tile(c.user, `/api/tiles/6/10/20/${ref(lat)}/${ref(lon)}`, { query: '{"database": 1, "type": "query", "query": {}}' })).status, 400);
    const other = encodeURIComponent(JSON.stringify(['field', fieldOf(c.sample.metadata, 'PEOPLE', 'STATE').id, null]));
    assert.equal((await tile(c.user, `/api/tiles/6/10/20/${other}/${ref(lon)}`, { query: JSON.stringify({ database: c.sample.id, type: 'query', query: { 'source-table': people, breakout: [['field', lon.id, null]], aggregation: [['count']] } }) })).status, 400, 'a column the results lack');
  });
});
