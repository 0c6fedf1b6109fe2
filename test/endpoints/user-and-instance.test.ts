// Endpoints of newer Metabase versions around the user and the instance: login history, the user key-value store,
// region maps (built-in and custom, through the outbound guard), bug-report details and anonymous stats under
// 0.55's names and the old ones, entity-id translation, and `legacy-mbql` on a card.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { forEachAppDb } from '../helpers/server.js';
import { tableOf } from '../databases/helpers.js';
import { callers, ok, type Callers } from './helpers.js';

const TRIANGLE = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { code: 'T', label: 'Triangle' }, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 1], [0, 0]]] } }] };

forEachAppDb('login history, key-value store, maps, diagnostics', (server) => {
  let c: Callers;
  let maps: Server;
  let mapsUrl: string;

  before(async () => {
    c = await callers(server());
    maps = createServer((req, res) => {
      if (req.url === '/triangle.geojson') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(TRIANGLE));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a map</html>');
    });
    await new Promise<void>((resolve) => maps.listen(0, '127.0.0.1', resolve));
    const address = maps.address();
    mapsUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(() => new Promise<void>((resolve) => maps.close(() => resolve())));

  test('login history: the caller’s own sign-ins, newest first, with the device and whether the session is open', async () => {
    const history = ok(await c.user.get('/api/login-history/current'), 'history');
    assert.equal(history.length, 1);
    assert.deepEqual(Object.keys(history[0]).sort(), ['active', 'device_description', 'ip_address', 'location', 'timestamp', 'timezone']);
    assert.equal(history[0].active, true);
    assert.equal(history[0].location, 'Unknown location');
    assert.match(history[0].ip_address, /127\.0\.0\.1/);
    assert.equal(history[0].device_description, 'Node.js');
    assert.equal((await server().anon.get('/api/login-history/current')).status, 401);
  });

  test('user key-value store: each user’s own values, per namespace, expiring when asked', async () => {
    const path = '/api/user-key-value/namespace/banners/key/welcome';
    assert.equal((await c.user.get(path)).status, 204);
    const put = await c.user.put(path, { value: { dismissed: true, at: 3 } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, { dismissed: true, at: 3 });
    assert.deepEqual((await c.user.get(path)).body, { dismissed: true, at: 3 });
    ok(await c.user.put(path, { value: 'again' }), 'overwrite');
    assert.deepEqual((await c.user.get(path)).body, 'again');
    assert.equal((await c.nodata.get(path)).status, 204, 'another user has their own store');
    ok(await c.user.put('/api/user-key-value/namespace/banners/key/old', { value: 1, expires_at: '2000-01-01T00:00:00Z' }), 'expired');
    assert.deepEqual((await c.user.get('/api/user-key-value/namespace/banners')).body, { welcome: 'again' });
    assert.equal((await c.user.delete(path)).status, 204);
    assert.equal((await c.user.get(path)).status, 204);
    assert.equal((await c.user.put(path, {})).status, 400);
    assert.equal((await c.user.put(path, { value: 1, expires_at: 'soon' })).status, 400);
    assert.equal((await c.user.put(path, { value: 'x'.repeat(70_000) })).status, 400);
    assert.equal((await server().anon.get(path)).status, 401);
  });

  test('geojson: the built-in maps are real boundaries; custom maps come through the outbound guard', async () => {
    const us = await server().anon.get('/api/geojson/us_states');
    assert.equal(us.status, 200);
    assert.equal(us.body.type, 'FeatureCollection');
    const california = us.body.features.find((f: any) => f.properties.STATE === 'CA');
    assert.equal(california.properties.NAME, 'California');
    assert.equal(us.body.features.filter((f: any) => /^[A-Z]{2}$/.test(f.properties.STATE)).length, us.body.features.length);
    assert.ok(us.body.features.length >= 51);
    const world = await c.user.get('/api/geojson/world_countries');
    const france = world.body.features.find((f: any) => f.properties.ISO_A2 === 'FR');
    assert.equal(france.properties.NAME, 'France');
    assert.equal(france.geometry.type, 'MultiPolygon');

    assert.equal((await c.user.get('/api/geojson/atlantis')).status, 400);
    ok(await c.admin.put('/api/setting/custom-geojson', { value: { triangle: { name: 'Triangle', url: `${mapsUrl}/triangle.geojson`, region_key: 'code', region_name: 'label' }, page: { name: 'Page', url: `${mapsUrl}/page`, region_key: 'a', region_name: 'b' } } }), 'custom maps');
    const refused = await c.user.get('/api/geojson/triangle');
    assert.equal(refused.status, 400, 'loopback is off limits by default');
    assert.match(refused.text, /not allowed/);
    ok(await c.admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' }), 'allow loopback');
    assert.deepEqual((await c.user.get('/api/geojson/triangle')).body, TRIANGLE);
    assert.match((await c.user.get('/api/geojson/page')).text, /not JSON/);
    assert.deepEqual((await c.admin.get('/api/geojson', { query: { url: `${mapsUrl}/triangle.geojson` } })).body, TRIANGLE);
    assert.equal((await c.user.get('/api/geojson', { query: { url: `${mapsUrl}/triangle.geojson` } })).status, 403);
    assert.equal((await c.admin.get('/api/geojson', { query: { url: 'file:///etc/passwd' } })).status, 400);
    assert.equal((await c.admin.get('/api/geojson')).status, 400);
    ok(await c.admin.put('/api/setting/http-channel-host-strategy', { value: null }), 'reset');
  });

  test('bug report details and anonymous stats, under 0.55’s paths and the old ones, for admins', async () => {
    for (const path of ['/api/bug-reporting/details', '/api/util/bug_report_details']) {
      const details = ok(await c.admin.get(path), path);
      assert.ok(details['metabase-info'].databases.includes('sqlite'));
      assert.equal(details['metabase-info']['application-database'], server().kind);
      assert.equal(details['system-info']['node.version'], process.version);
      assert.equal((await c.user.get(path)).status, 403);
    }
    for (const path of ['/api/analytics/anonymous-stats', '/api/util/stats']) {
      const stats = ok(await c.admin.get(path), path);
      assert.equal(stats.stats.user.users.total, 3);
      assert.equal(stats.stats.database.databases.total, 1);
      assert.equal((await c.user.get(path)).status, 403);
    }
    ok(await c.user.get(`/api/table/${tableOf(c.sample.metadata, 'PRODUCTS').id}/data`), 'a query, so the database has a queue');
    for (const path of ['/api/bug-reporting/connection-pool-details', '/api/util/diagnostic_info/connection_pool_info']) {
      const pools = ok(await c.admin.get(path), path)['connection-pools'];
      const sample = pools[`Sample Database (${c.sample.id})`];
      assert.ok(sample, JSON.stringify(pools));
      assert.equal(sample.numBusyConnections, 0);
      assert.ok(sample.maxPoolSize >= 1);
      assert.equal((await c.user.get(path)).status, 403);
    }
  });

  test('the newest log lines, for admins, under 0.55’s path and the old one', async () => {
    server().ctx.log.fatal({ err: new Error('boom for the log test') }, 'a line for the log test');
    for (const path of ['/api/logger/logs', '/api/util/logs']) {
      const logs = ok(await c.admin.get(path), path);
      const line = logs.find((l: any) => l.msg === 'a line for the log test');
      assert.ok(line, JSON.stringify(logs.slice(0, 3)));
      assert.equal(line.level, 'FATAL');
      assert.match(line.exception[0], /boom for the log test/);
      assert.deepEqual(Object.keys(line).sort(), ['exception', 'fqns', 'level', 'msg', 'process_uuid', 'timestamp']);
      assert.equal((await c.user.get(path)).status, 403);
    }
  });

  test('entity ids translate to ids under both paths; unknown ones say not-found', async () => {
    const card = ok(
      await c.admin.post('/api/card', {
        name: 'Translated',
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': tableOf(c.sample.metadata, 'ORDERS').id } },
      }),
      'card',
    );
    for (const path of ['/api/eid-translation/translate', '/api/util/entity_id']) {
      const answer = ok(await c.user.post(path, { entity_ids: { card: [card.entity_id, 'AAAAAAAAAAAAAAAAAAAAA'] } }), path);
      assert.deepEqual(answer, {
        entity_ids: {
          [card.entity_id]: { id: card.id, type: 'card', status: 'ok' },
          AAAAAAAAAAAAAAAAAAAAA: { type: 'card', status: 'not-found' },
        },
      });
      const unknown = await c.user.post(path, { entity_ids: { spaceship: ['x'] } });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body['specific-errors'].entity_ids.spaceship[0], /^should be either action, card, dataset, .*received: "spaceship"$/);
      assert.ok(unknown.body.errors.entity_ids);
      // Metabase's API names: a model is a `dataset`, dashboards' cards and tabs, snippets, timelines…
      const names = ok(await c.user.post(path, { entity_ids: { dataset: [card.entity_id], 'dashboard-card': ['BBBBBBBBBBBBBBBBBBBBB'], pulse: ['CCCCCCCCCCCCCCCCCCCCC'], snippet: [], timeline: [] } }), 'names');
      assert.deepEqual(names.entity_ids[card.entity_id], { id: card.id, type: 'dataset', status: 'ok' });
      assert.deepEqual(names.entity_ids.BBBBBBBBBBBBBBBBBBBBB, { type: 'dashboard-card', status: 'not-found' });
      assert.deepEqual(names.entity_ids.CCCCCCCCCCCCCCCCCCCCC, { type: 'pulse', status: 'not-found' });
      assert.equal((await c.user.post(path, { entity_ids: { card: [1] } })).status, 400);
      assert.equal((await c.user.post(path, {})).status, 400);
    }
    const legacy = await c.admin.get(`/api/card/${card.id}`, { query: { 'legacy-mbql': 'true' } });
    assert.equal(legacy.status, 200);
    assert.equal(legacy.body.dataset_query.type, 'query');
    assert.equal(legacy.body.dataset_query.query['source-table'], tableOf(c.sample.metadata, 'ORDERS').id);
    assert.equal((await c.admin.get(`/api/card/${card.id}`, { query: { 'legacy-mbql': 'maybe' } })).status, 400);
  });
});
