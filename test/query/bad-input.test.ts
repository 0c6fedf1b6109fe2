// Input that can't mean anything fails the query with a clear error (202, status failed, invalid-query or
// invalid-parameter) on every engine, instead of running and answering nonsense: invalid date literals, inside with
// non-numeric bounds, object values for template tags and parameters. And an IN list too long to bind value by value
// still runs where the engine can take it as one parameter, or fails with a message that says why. Sizes past what
// SQL can say, and templates and patterns whose cost grows faster than their length, are refused or bounded.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleWarehouseServer, ENGINES, type Warehouse } from './helpers/warehouses.js';
import { q } from './helpers/native-cases.js';

describe('bad input fails clearly', () => {
  const env = sampleWarehouseServer();

  async function expectFailure(build: (w: Warehouse) => Record<string, unknown>, type: string, message: RegExp) {
    for (const e of ENGINES) {
      const r = await env.admin.post('/api/dataset', build(env.wh[e]));
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

  // Clauses on columns of the wrong type are refused as Metabase's query schema and temporal-bucketing check do.
  test('a temporal unit on a number, or a time unit on a date', async () => {
    await expectFailure((w) => w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'TOTAL', { 'temporal-unit': 'month' })] }), 'invalid-query', /Unsupported temporal bucketing: You can't bucket a :type\/Float Field by :month\./);
    await expectFailure((w) => countOrders(w, ['=', w.f('ORDERS', 'QUANTITY', { 'temporal-unit': 'year' }), 2024]), 'invalid-query', /You can't bucket a :type\/Integer Field by :year/);
    await expectFailure((w) => w.mbql({ 'source-table': w.t('PEOPLE'), aggregation: [['count']], breakout: [w.f('PEOPLE', 'BIRTH_DATE', { 'temporal-unit': 'hour' })] }), 'invalid-query', /You can't bucket a :type\/Date Field by :hour/);
    // `default` is no bucketing: fine on anything.
    const r = await env.admin.post('/api/dataset', env.wh.sqlite.mbql({ 'source-table': env.wh.sqlite.t('ORDERS'), aggregation: [['count']], filter: ['=', env.wh.sqlite.f('ORDERS', 'QUANTITY', { 'temporal-unit': 'default' }), 2] }));
    assert.equal(r.body.status, 'completed', r.body.error);
  });

  test('sum, avg and the other number aggregations of a date or text', async () => {
    await expectFailure((w) => w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['sum', w.f('ORDERS', 'CREATED_AT')]] }), 'invalid-query', /sum needs a number, but Created At is a type\/DateTime/);
    await expectFailure((w) => w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['avg', w.f('PRODUCTS', 'TITLE')]] }), 'invalid-query', /avg needs a number, but Title is a type\/Text/);
    await expectFailure((w) => w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['cum-sum', w.f('ORDERS', 'CREATED_AT')]], breakout: [w.f('ORDERS', 'QUANTITY')] }), 'invalid-query', /cum-sum needs a number/);
  });

  test('contains and the other text filters on a date or a boolean (a number is searched as its text)', async () => {
    await expectFailure((w) => countOrders(w, ['starts-with', w.f('ORDERS', 'CREATED_AT'), '2024', { 'case-sensitive': false }]), 'invalid-query', /starts-with needs text, but Created At is a type\/DateTime/);
    await expectFailure((w) => w.mbql({ 'source-table': w.t('ACCOUNTS'), aggregation: [['count']], filter: ['contains', w.f('ACCOUNTS', 'TRIAL_CONVERTED'), 'tr'] }), 'invalid-query', /contains needs text, but Trial Converted is a type\/Boolean/);
    const ids = (await env.admin.post('/api/dataset', env.wh.postgres.mbql({ 'source-table': env.wh.postgres.t('ORDERS'), fields: [env.wh.postgres.f('ORDERS', 'ID')], filter: ['contains', env.wh.postgres.f('ORDERS', 'ID'), '249'], 'order-by': [['asc', env.wh.postgres.f('ORDERS', 'ID')]], limit: 3 }))).body.data.rows;
    assert.deepEqual(ids, [[249], [1249], [2249]]);
  });

  test('substring with a start that is no number', async () => {
    const title = (w: Warehouse, start: unknown) => w.mbql({ 'source-table': w.t('PRODUCTS'), expressions: { s: ['substring', w.f('PRODUCTS', 'TITLE'), start, 3] }, fields: [['expression', 's']], limit: 1 });
    await expectFailure((w) => title(w, 'abc'), 'invalid-query', /The substring start must be a number, not "abc"/);
    await expectFailure((w) => title(w, w.f('PRODUCTS', 'CATEGORY')), 'invalid-query', /The substring start must be a number, but Category is a type\/Text/);
    const r = await env.admin.post('/api/dataset', title(env.wh.postgres, ['+', 1, 1]));
    assert.equal(r.body.status, 'completed', r.body.error);
  });

  test('infinite timestamps read as infinity on DuckDB as on PostgreSQL; time with zone as ISO offset times', async () => {
    for (const e of ['postgres', 'duckdb'] as const) {
      const sqlText = `SELECT 'infinity'::timestamp AS a, '-infinity'::timestamp AS b, 'infinity'::timestamptz AS c, 'infinity'::date AS d, '06:38:23.4024+00'::timetz AS t, '06:38:23+05:30'::timetz AS u`;
      const r = await env.admin.post('/api/dataset', env.wh[e].native(sqlText));
      assert.equal(r.body.status, 'completed', `${e}: ${r.body.error}`);
      assert.deepEqual(r.body.data.rows, [['infinity', '-infinity', 'infinity', 'infinity', '06:38:23.4024Z', '06:38:23+05:30']], e);
      const csv = await env.admin.post('/api/dataset/csv', { query: env.wh[e].native(sqlText) });
      assert.equal(csv.text.split('\n')[1], 'infinity,-infinity,infinity,infinity,06:38:23.4024Z,06:38:23+05:30', e);
    }
  });

  test('70,000 IN values: one parameter on PostgreSQL and SQLite, a clear refusal past MySQL’s limit', async () => {
    const ids = Array.from({ length: 70_000 }, (_, i) => i + 1);
    for (const e of ENGINES) {
      const w = env.wh[e];
      const r = await env.admin.post('/api/dataset', countOrders(w, ['=', w.f('ORDERS', 'ID'), ...ids]));
      const negated = await env.admin.post('/api/dataset', countOrders(w, ['!=', w.f('ORDERS', 'ID'), ...ids]));
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
      const w = env.wh[e];
      const r = await env.admin.post('/api/dataset', w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['=', w.f('PRODUCTS', 'CATEGORY'), ...names] }));
      assert.deepEqual(r.body.data.rows, [[51]], `${e}: ${r.body.error}`);
    }
    const shown = await env.admin.post('/api/dataset/native', { ...countOrders(env.wh.postgres, ['=', env.wh.postgres.f('ORDERS', 'ID'), ...ids.slice(0, 1001)]), pretty: false });
    assert.match(shown.body.query, /= ANY\(ARRAY\[1, 2, 3, .*, 1001\]::bigint\[\]\)/);
    // A native tag with more values than PostgreSQL binds: a clear message, not the driver's.
    const tag = await env.admin.post('/api/dataset', env.wh.postgres.native('SELECT COUNT(*) FROM "ORDERS" WHERE "ID" IN ({{ids}})', { ids: { name: 'ids', type: 'number' } }, { parameters: [{ type: 'number', target: ['variable', ['template-tag', 'ids']], value: ids }] }));
    assert.equal(tag.body.status, 'failed');
    assert.match(tag.body.error, /more than the 65535 a postgres statement accepts/);
  });

  // Sizes past what SQL can say: they used to reach the engine as "1e+30" (a syntax or range error, engine by engine)
  // or as the text "Invalid DateTime" (an error on PostgreSQL, every row on MySQL).
  test('row counts past 2^53 and relative dates past any calendar', async () => {
    const T = (w: Warehouse) => w.t('ORDERS');
    await expectFailure((w) => w.mbql({ 'source-table': T(w), limit: 1e20 }), 'invalid-query', /^Invalid limit: must be an integer from 0 to 9007199254740991/);
    await expectFailure((w) => w.mbql({ 'source-table': T(w), page: { page: 1e15, items: 1e15 } }), 'invalid-query', /^Invalid page: page × items must be at most 9007199254740991/);
    await expectFailure((w) => ({ ...w.mbql({ 'source-table': T(w) }), constraints: { 'max-results': 1e20 } }), 'invalid-query', /max-results must be an integer from 0 to 9007199254740991/);
    await expectFailure((w) => countOrders(w, ['>', w.f('ORDERS', 'CREATED_AT'), ['relative-datetime', -1e12, 'day']]), 'invalid-query', /^Invalid relative date: -1000000000000 days from .* is out of the range of dates\.$/);
    await expectFailure((w) => countOrders(w, ['time-interval', w.f('ORDERS', 'CREATED_AT'), 1e9, 'year']), 'invalid-query', /out of the range of dates/);
    // The largest page that can be said still runs (and finds nothing).
    for (const e of ENGINES) {
      const r = await env.admin.post('/api/dataset', env.wh[e].mbql({ 'source-table': env.wh[e].t('ORDERS'), page: { page: 2147483647, items: 2000 } }));
      assert.equal(r.body.status, 'completed', `${e}: ${r.body.error}`);
      assert.deepEqual(r.body.data.rows, [], e);
    }
  });

  test('text that is no number compared with a number; a number past 2^53 compared with one', async () => {
    await expectFailure((w) => countOrders(w, ['<', w.f('ORDERS', 'TOTAL'), 'NaN']), 'invalid-query', /^Invalid number value: "NaN"$/);
    await expectFailure((w) => countOrders(w, ['=', w.f('ORDERS', 'QUANTITY'), 'three']), 'invalid-query', /^Invalid number value: "three"$/);
    for (const e of ENGINES) {
      const w = env.wh[e];
      // Compared as the float it is, on every engine (PostgreSQL and DuckDB refused it as a BIGINT out of range).
      const r = await env.admin.post('/api/dataset', countOrders(w, ['<', w.f('ORDERS', 'ID'), 1e20]));
      assert.equal(r.body.status, 'completed', `${e}: ${r.body.error}`);
      assert.deepEqual(r.body.data.rows, [[18760]], e);
      const numeric = await env.admin.post('/api/dataset', countOrders(w, ['=', w.f('ORDERS', 'ID'), '12']));
      assert.deepEqual(numeric.body.data.rows, [[1]], `${e}: numeric text still compares as its number`);
    }
  });

  test('native templates: deeply nested optional clauses, and 200,000 unclosed {{', async () => {
    await expectFailure((w) => w.native('SELECT 1 AS v ' + '[['.repeat(5000) + ']]'.repeat(5000)), 'invalid-query', /^Invalid query: optional clauses \[\[ … \]\] are nested more than 100 deep\.$/);
    for (const e of ENGINES) {
      // Tags are found in one pass (a search for "}}" from every "{{" took minutes).
      const r = await env.admin.post('/api/dataset', env.wh[e].native('SELECT 1 AS v -- ' + '{{'.repeat(200_000)));
      assert.equal(r.body.status, 'completed', `${e}: ${r.body.error}`);
      assert.deepEqual(r.body.data.rows, [[1]], e);
    }
  });

  // MariaDB's PCRE has no time limit of its own (MySQL's regexp_time_limit does): there such a pattern runs until the
  // query's timeout, like any slow statement.
  test('a regular expression that backtracks exponentially finishes on SQLite, as on the engines with linear ones', async () => {
    for (const e of ['sqlite', 'postgres', 'duckdb'] as const) {
      const w = env.wh[e];
      const subject = ['concat', 'a'.repeat(60), w.f('PEOPLE', 'NAME')];
      const r = await env.admin.post('/api/dataset', w.mbql({ 'source-table': w.t('PEOPLE'), expressions: { m: ['regex-match-first', subject, '^(a|aa)+$'] }, fields: [['expression', 'm']], limit: 3 }));
      assert.equal(r.body.status, 'completed', `${e}: ${r.body.error}`);
      assert.ok(r.body.data.rows[0][0] === null || r.body.data.rows[0][0] === '', `${e}: ${r.body.data.rows[0][0]}`);
    }
  });
});
