// A small fuzzer over the whole API on a real server: every route, fed bodies, query strings and path segments of
// odd sizes and shapes — lists at and past the cap, long strings, NUL, numbers past every range, NaN-ish text,
// unicode, nesting — must answer without a 5xx. Then the specific inputs whose size or shape used to reach a stack
// overflow, an exponential blow-up, a quadratic loop or an engine error, each answered clearly now.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { forEachAppDb, onlyIfTested, setupAdmin, type AppDbKind } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { listRoutes, fillPath, type RouteEntry } from '../helpers/routes.js';
import { registerWarehouses, type Warehouse } from '../query/helpers/warehouses.js';
import { schemaFilter } from '../../src/drivers/shared/schema-filters.js';

/** Keys the API's bodies and query strings use (any route ignores the ones it doesn't take). */
const KEYS = (
  'name description archived parameters collection_id collection_position visualization_settings type display dataset_query ' +
  'result_metadata parameter_mappings dashcards tabs cards card_ids ids field_ids exclude_ids models orderings ' +
  'user_group_memberships email first_name last_name password login_attributes details engine schedules settings value ' +
  'values query q limit offset page items model id group_id table_id database_id dashboard_id card_id parent_id content ' +
  'definition timeline_id timestamp timezone icon default status entity_id position size_x size_y row col'
).split(' ');

const LIST_KEYS = 'card_ids ids field_ids exclude_ids models orderings parameters parameter_mappings result_metadata dashcards tabs cards user_group_memberships'.split(' ');

const everyKey = (value: unknown) => Object.fromEntries(KEYS.map((k) => [k, value]));
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Bodies: every key holding one odd value, or every list key holding a long list. */
const BODIES: Record<string, () => unknown> = {
  'lists at the cap': () => Object.fromEntries(LIST_KEYS.map((k) => [k, ids(10_000)])),
  'lists past the cap': () => Object.fromEntries(LIST_KEYS.map((k) => [k, ids(10_001)])),
  'lists of maps': () => Object.fromEntries(LIST_KEYS.map((k) => [k, ids(2_000).map((id) => ({ id, card_id: id, parameter_id: `p${id}`, target: ['dimension', ['field', id, null]] }))])),
  'long strings': () => everyKey('x'.repeat(40_000)),
  NUL: () => everyKey('a\u0000b'),
  'huge numbers': () => everyKey(1e308),
  'past 32 bits': () => everyKey(2147483648),
  negative: () => everyKey(-1),
  fractions: () => everyKey(1.5),
  'NaN-ish text': () => everyKey('NaN'),
  Infinity: () => everyKey('-Infinity'),
  unicode: () => everyKey('😀\u200b\ufeffé\u0301'),
  maps: () => everyKey({ a: { b: [1, { c: null }] } }),
  'nested lists': () => everyKey([[[[[['x']]]]]]),
  // Each list under the cap, thousands of elements across them: nothing counts them all, so every walker must cope.
  'many short lists': () => Object.fromEntries(LIST_KEYS.map((k) => [k, ids(20).map((i) => ids(20).map((j) => ['field', i * j, null]))])),
  empty: () => everyKey(''),
  nulls: () => everyKey(null),
};

/** Query-string values put in every key at once. */
const QUERIES: Record<string, string> = {
  huge: '99999999999999999999',
  negative: '-1',
  'NaN-ish': 'NaN',
  NUL: 'a\u0000b',
  json: '[[[[{"a":[1]}]]]]',
  emoji: '😀'.repeat(20),
  fraction: '1.5',
  empty: '',
};

/** Path segments put in place of every param. */
const SEGMENTS: Record<string, string> = {
  negative: '-1',
  zero: '0',
  huge: '99999999999999999999',
  'NaN-ish': 'NaN',
  emoji: encodeURIComponent('😀'),
  NUL: '%00',
  'broken escape': '%E0%A4%A',
  'lone surrogate': '%ED%A0%80',
  long: 'x'.repeat(1900),
};

/** Routes the sweep leaves alone: they would end the admin's session or remove the admin. */
const skipped = (r: RouteEntry) => (r.method === 'DELETE' && (r.path === '/api/session' || r.path.startsWith('/api/user/'))) || /^\/api\/user\/[^/]+\/(password|modal)/.test(r.path);

/** The sweep on one app-DB kind (each kind has its own test file, so the two run side by side). */
export function inputSweep(kind: AppDbKind): void {
  forEachAppDb('input sweep', (server) => {
    let admin: Client;
    let w: Warehouse;

    before(async () => {
      admin = await setupAdmin(server());
      w = (await registerWarehouses(server(), admin, ['sqlite'])).sqlite;
      await admin.post('/api/card', { name: 'Orders', display: 'table', visualization_settings: {}, dataset_query: w.mbql({ 'source-table': w.t('ORDERS') }) });
      await admin.post('/api/dashboard', { name: 'Sweep' });
    });

    const other = (name: string) => (/uuid/.test(name) ? '00000000-0000-0000-0000-000000000000' : name.includes('format') ? 'csv' : name === 'key' ? 'site-name' : 'x');

    test('a list longer than 10,000 items is a 400 saying so; one of 40,000 bad items lists the first few', async () => {
      const many = await admin.post('/api/card/collections', { card_ids: ids(40_000), collection_id: null });
      assert.equal(many.status, 400, many.text.slice(0, 200));
      assert.match(many.body['specific-errors'].card_ids[0], /^should contain at most 10000 items, received: \[1 2 3/);
      const atCap = await admin.post('/api/card/collections', { card_ids: ids(10_000), collection_id: null });
      assert.ok(atCap.status < 500, atCap.text.slice(0, 200));
      const bad = await admin.put('/api/bookmark/ordering', { orderings: ids(9_000) });
      assert.equal(bad.status, 400);
      assert.equal(bad.body['specific-errors'].orderings.length, 10);
    });

    test('cells past Excel’s 32,767 characters are cut in XLSX downloads, which Excel would report as damaged', async () => {
      const long = 'é'.repeat(40_000);
      const query = w.native('SELECT {{t}} AS t', { t: { name: 't', 'display-name': 'T', type: 'text' } }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 't']], value: long }] });
      const r = await fetch(`${server().url}/api/dataset/xlsx`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Metabase-Session': admin.session! }, body: JSON.stringify({ query }) });
      assert.equal(r.status, 200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await r.arrayBuffer()) as unknown as ArrayBuffer);
      const cell = String(workbook.worksheets[0].getRow(2).getCell(1).value);
      assert.equal(cell.length, 32_767);
      assert.equal(cell, long.slice(0, 32_767));
    });

    test('segments that use each other twice over are refused when saved, before they double at every level', async () => {
      const table = w.t('ORDERS');
      let last = (await admin.post('/api/segment', { name: 's0', table_id: table, definition: { 'source-table': table, filter: ['>', w.f('ORDERS', 'TOTAL'), 1] } })).body.id;
      let refused: { status: number; body: any } | null = null;
      for (let i = 1; i < 40 && !refused; i++) {
        const r = await admin.post('/api/segment', { name: `s${i}`, table_id: table, definition: { 'source-table': table, filter: ['or', ['segment', last], ['not', ['segment', last]]] } });
        if (r.status === 200) last = r.body.id;
        else refused = r;
      }
      assert.ok(refused, 'a segment past 100,000 clauses written out is refused');
      assert.equal(refused.status, 400);
      assert.match(refused.body.errors.definition, /more than 100,000 clauses once the expressions and segments it uses are written out/);
    });

    test('snippets and cards that use each other many times over stop at 20 million characters of SQL', async () => {
      for (let i = 0; i < 10; i++) {
        const content = i === 0 ? '1' : Array.from({ length: 10 }, () => `{{snippet: fan${i - 1}}}`).join(' + ');
        assert.equal((await admin.post('/api/native-query-snippet', { name: `fan${i}`, content })).status, 200);
      }
      const snippets = await admin.post('/api/dataset', w.native('SELECT {{snippet: fan9}} AS v'));
      assert.equal(snippets.body.status, 'failed');
      assert.equal(snippets.body.error, 'Invalid query: with its snippets written out, its SQL would be longer than 20,000,000 characters.');
      const small = await admin.post('/api/dataset', w.native('SELECT {{snippet: fan2}} AS v'));
      assert.deepEqual(small.body.data.rows, [[100]]);
      // Each card reads the one before it twice: each compiles once, and the SQL stops at the cap instead of 2^24 copies.
      const metadata = [{ name: 'x', display_name: 'x', base_type: 'type/Integer' }];
      const card = (name: string, sql: string, tags: Record<string, unknown> = {}) =>
        admin.post('/api/card', { name, display: 'table', visualization_settings: {}, result_metadata: metadata, dataset_query: w.native(sql, tags) });
      let previous = (await card('one', 'SELECT 1 AS x')).body.id;
      for (let i = 0; i < 24; i++) {
        const tag = `#${previous}`;
        const r = await card(`double ${i}`, `SELECT a.x FROM {{${tag}}} AS a CROSS JOIN {{${tag}}} AS b`, { [tag]: { name: tag, 'display-name': tag, type: 'card', 'card-id': previous } });
        assert.equal(r.status, 200, r.text.slice(0, 200));
        if (i === 2) assert.deepEqual((await admin.post(`/api/card/${r.body.id}/query`, {})).body.data.rows, [[1]]);
        previous = r.body.id;
      }
      const cards = await admin.post(`/api/card/${previous}/query`, {});
      assert.equal(cards.body.status, 'failed');
      assert.equal(cards.body.error, 'Invalid query: its SQL would be longer than 20,000,000 characters.');
    });

    test('thousands of dashboard-style parameters on one question are applied at once', async () => {
      const values = ids(3000);
      const parameters = values.map((id) => ({ id: `p${id}`, type: 'number/>=', target: ['dimension', w.f('ORDERS', 'ID')], value: [id] }));
      const r = await admin.post('/api/dataset', { ...w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']] }), parameters });
      assert.equal(r.body.status, 'completed', r.body.error);
      assert.deepEqual(r.body.data.rows, [[18760 - 2999]]);
    });

    test('thousands of breakouts and aggregations of one column are named and compiled, then refused by the engine clearly', async () => {
      const total = w.f('ORDERS', 'TOTAL');
      for (const clause of ['breakout', 'aggregation'] as const) {
        const items = Array.from({ length: 20_000 }, () => (clause === 'breakout' ? total : ['sum', total]));
        const r = await admin.post('/api/dataset', w.mbql({ 'source-table': w.t('ORDERS'), [clause]: items }));
        assert.equal(r.status, 202, clause);
        assert.equal(r.body.status, 'failed', clause);
        assert.equal(r.body.error, 'too many columns in result set', clause);
      }
    });

    test('schema filter patterns are matched without a regular expression that backtracks', () => {
      const only = (patterns: string) => schemaFilter({ 'schema-filters-type': 'inclusion', 'schema-filters-patterns': patterns } as never);
      assert.equal(only('pub*')('PUBLIC'), true);
      assert.equal(only('*_archive, sales')('sales'), true);
      assert.equal(only('*_archive')('archive'), false);
      assert.equal(only('a.b')('axb'), false, 'dots are plain characters');
      assert.equal(only('a?b')('a?b'), true);
      // `a*a*a*…b` against sixty a's: as a regex, C(60, 30) steps.
      assert.equal(only('a*'.repeat(30) + 'b')('a'.repeat(60)), false);
      const except = schemaFilter({ 'schema-filters-type': 'exclusion', 'schema-filters-patterns': 'tmp*' } as never);
      assert.equal(except('tmp_1'), false);
      assert.equal(except('public'), true);
    });
    // Last: it may change or delete what the tests above use (deletions go to an id that doesn't exist).
    test('every route, fed odd bodies, query strings and path segments, answers without a 5xx', async () => {
      const routes = listRoutes(server().server.app).filter((r) => !skipped(r));
      const failures: string[] = [];
      const check = async (method: string, url: string, label: string, raw?: string) => {
        const r = await admin.request(method, url, undefined, raw === undefined ? {} : { raw });
        if (r.status >= 500) failures.push(`${label}: ${method} ${url.slice(0, 120)} → ${r.status} ${r.text.slice(0, 120)}`);
      };
      // each body written once: the same text goes to every route
      const bodies = Object.entries(BODIES).map(([label, body]) => [label, JSON.stringify(body())] as const);
      for (const route of routes) {
        const url = fillPath(route.path, route.method === 'DELETE' ? 2147483647 : 1, other);
        if (route.method !== 'GET') {
          for (const [label, raw] of bodies) await check(route.method, url, label, raw);
        }
        for (const [label, value] of Object.entries(QUERIES)) {
          const query = KEYS.map((k) => `${k}=${encodeURIComponent(value)}`).join('&');
          await check(route.method, `${url}?${query}`, `query ${label}`, route.method === 'GET' ? undefined : '{}');
        }
        if (!route.path.includes(':')) continue;
        for (const [label, segment] of Object.entries(SEGMENTS)) {
          const odd = route.path.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, () => segment);
          await check(route.method, odd, `path ${label}`, route.method === 'GET' ? undefined : '{}');
        }
      }
      assert.deepEqual(failures, []);
    });

  }, onlyIfTested(kind));
}
