// /api/dataset as a client sees it: the result envelope and cols (reference §4.3–4.4), row limits (§4.5), failed
// results (§4.6), HTTP errors, MBQL → SQL, query_metadata, parameter values, pivot, the execution log, report
// time zone and start of week — on a SQLite and a PostgreSQL app DB.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerWarehouses, type Warehouse } from './helpers/warehouses.js';
import { recentExecutions, averageRunningTimes, executionCounts, runQueryToMemory } from '../../src/query/index.js';

forEachAppDb('/api/dataset', (server: () => TestServer) => {
  let admin: Client;
  let w: Warehouse;
  let pgw: Warehouse;

  before(async () => {
    admin = await setupAdmin(server());
    const wh = await registerWarehouses(server(), admin, ['sqlite', 'postgres']);
    w = wh.sqlite;
    pgw = wh.postgres;
  });

  const run = (query: Record<string, unknown>) => admin.post('/api/dataset', query);

  // ----- envelope and cols --------------------------------------------------------------------------------------

  test('a result has Metabase’s envelope, streamed with status 202, rows first', async () => {
    const r = await run(w.mbql({ 'source-table': w.t('PRODUCTS'), limit: 5, 'order-by': [['asc', w.f('PRODUCTS', 'ID')]] }));
    assert.equal(r.status, 202);
    assert.match(r.headers.get('content-type')!, /^application\/json/);
    assert.ok(r.text.startsWith('{"data":{"rows":['));
    const b = r.body;
    assert.equal(b.status, 'completed');
    assert.equal(b.row_count, 5);
    assert.equal(b.data.rows.length, 5);
    assert.equal(b.database_id, w.id);
    assert.equal(b.context, 'ad-hoc');
    assert.equal(b.average_execution_time, null);
    assert.ok(Number.isInteger(b.running_time));
    assert.ok(!Number.isNaN(Date.parse(b.started_at)));
    assert.equal(b.json_query.database, w.id);
    assert.deepEqual(b.json_query.middleware, { 'js-int-to-string?': true, 'add-default-userland-constraints?': true });
    assert.equal(b.json_query.parameters, undefined);
    assert.equal(b.data.results_timezone, 'UTC');
    assert.match(b.data.native_form.query, /^SELECT /);
    assert.equal(b.data.native_form.params, null);
    assert.equal(b.data.results_metadata.columns.length, b.data.cols.length);
    assert.ok(b.data.results_metadata.columns[0].fingerprint.global);
    assert.equal(b.data.rows_truncated, 5);
    assert.deepEqual(b.data.rows.map((r: unknown[]) => r[0]), [1, 2, 3, 4, 5]);
  });

  test('field cols carry the field’s metadata', async () => {
    const r = await run(w.mbql({ 'source-table': w.t('PEOPLE'), fields: [w.f('PEOPLE', 'ID'), w.f('PEOPLE', 'BIRTH_DATE'), w.f('PEOPLE', 'CREATED_AT')], limit: 1, 'order-by': [['asc', w.f('PEOPLE', 'ID')]] }));
    const [id, birth, created] = r.body.data.cols;
    assert.equal(id.name, 'ID');
    assert.equal(id.id, w.fid('PEOPLE', 'ID'));
    assert.equal(id.table_id, w.t('PEOPLE'));
    assert.equal(id.semantic_type, 'type/PK');
    assert.equal(id.source, 'fields');
    assert.deepEqual(id.field_ref, ['field', w.fid('PEOPLE', 'ID'), null]);
    for (const key of ['display_name', 'base_type', 'effective_type', 'database_type', 'visibility_type', 'fingerprint', 'description', 'coercion_strategy', 'settings', 'nfc_path', 'parent_id', 'fk_target_field_id', 'active', 'position']) {
      assert.ok(key in id, `missing ${key}`);
    }
    assert.equal(birth.base_type, 'type/Date');
    assert.equal(birth.unit, 'default');
    // DATE values are full offset date-times; timestamps too.
    const row = r.body.data.rows[0];
    assert.match(row[1], /^\d{4}-\d\d-\d\dT00:00:00Z$/);
    assert.match(row[2], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.equal(created.display_name, 'Created At');
  });

  test('breakout and aggregation cols', async () => {
    const r = await run(w.mbql({
      'source-table': w.t('ORDERS'),
      aggregation: [['count'], ['sum', w.f('ORDERS', 'TOTAL')], ['sum', w.f('ORDERS', 'TAX')], ['aggregation-options', ['avg', w.f('ORDERS', 'QUANTITY')], { name: 'q', 'display-name': 'Mean quantity' }]],
      breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' }), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')],
      limit: 3,
    }));
    const cols = r.body.data.cols;
    assert.deepEqual(cols.map((c: any) => c.name), ['CREATED_AT', 'CATEGORY', 'count', 'sum', 'sum_2', 'q']);
    assert.deepEqual(cols.map((c: any) => c.display_name), ['Created At: Month', 'Product → Category', 'Count', 'Sum of Total', 'Sum of Tax', 'Mean quantity']);
    assert.equal(cols[0].unit, 'month');
    assert.equal(cols[0].source, 'breakout');
    assert.deepEqual(cols[0].field_ref, ['field', w.fid('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]);
    assert.deepEqual(cols[1].field_ref, ['field', w.fid('PRODUCTS', 'CATEGORY'), { 'source-field': w.fid('ORDERS', 'PRODUCT_ID') }]);
    assert.deepEqual(cols[2], { ...cols[2], name: 'count', base_type: 'type/BigInteger', effective_type: 'type/BigInteger', semantic_type: 'type/Quantity', source: 'aggregation', field_ref: ['aggregation', 0] });
    assert.deepEqual(cols[4].field_ref, ['aggregation', 2]);
    assert.equal(r.body.data.rows[0][0], '2022-04-01T00:00:00Z');
  });

  // ----- insights -------------------------------------------------------------------------------------------------

  /** Least squares in closed form: [offset, slope] of y = offset + slope·x. */
  function leastSquares(xs: number[], ys: number[]): [number, number] {
    const n = xs.length;
    const sx = xs.reduce((a, b) => a + b, 0);
    const sy = ys.reduce((a, b) => a + b, 0);
    const sxx = xs.reduce((a, x) => a + x * x, 0);
    const sxy = xs.reduce((a, x, i) => a + x * ys[i], 0);
    const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    return [(sy - slope * sx) / n, slope];
  }

  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b)), `${what}: ${a} vs ${b}`);

  test('insights of a time series: per numeric column, last values, change, the least-squares line and the best trend line', async () => {
    const r = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count'], ['sum', w.f('ORDERS', 'QUANTITY')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }));
    const { rows, insights } = r.body.data;
    assert.equal(rows.length, 5);
    assert.deepEqual(insights.map((i: any) => i.col), ['count', 'sum']);
    const xs = rows.map((row: unknown[]) => Date.parse(row[0] as string) / 86_400_000);
    for (const [index, insight] of insights.entries()) {
      const ys = rows.map((row: unknown[]) => row[index + 1] as number);
      assert.deepEqual(Object.keys(insight).sort(), ['best-fit', 'col', 'last-change', 'last-value', 'offset', 'previous-value', 'slope', 'unit']);
      assert.equal(insight.unit, 'year');
      assert.equal(insight['last-value'], ys[4]);
      assert.equal(insight['previous-value'], ys[3]);
      near(insight['last-change'], (ys[4] - ys[3]) / ys[3], 'last-change');
      const [offset, slope] = leastSquares(xs, ys);
      near(insight.slope, slope, 'slope');
      near(insight.offset, offset, 'offset');
      // The four families fitted on transformed axes; the one with the least mean absolute error (on every row: fewer
      // than 20) wins, the later one on a tie.
      const fits = [
        { f: leastSquares(xs, ys), model: ([a, b]: number[]) => (x: number) => a + b * x, formula: ([a, b]: number[]) => ['+', a, ['*', b, 'x']] },
        { f: leastSquares(xs, ys.map(Math.log)), model: ([a, b]: number[]) => (x: number) => Math.exp(a) * Math.exp(b * x), formula: ([a, b]: number[]) => ['*', Math.exp(a), ['exp', ['*', b, 'x']]] },
        { f: leastSquares(xs.map(Math.log), ys), model: ([a, b]: number[]) => (x: number) => a + b * Math.log(x), formula: ([a, b]: number[]) => ['+', a, ['*', b, ['log', 'x']]] },
        { f: leastSquares(xs.map(Math.log), ys.map(Math.log)), model: ([a, b]: number[]) => (x: number) => Math.exp(a) * x ** b, formula: ([a, b]: number[]) => ['*', Math.exp(a), ['pow', 'x', b]] },
      ].map((fit) => ({ ...fit, error: xs.reduce((acc: number, x: number, i: number) => acc + Math.abs(ys[i] - fit.model(fit.f)(x)), 0) / xs.length }));
      const best = fits.reduce((a, b) => (b.error <= a.error ? b : a));
      const expected = best.formula(best.f);
      const got = insight['best-fit'];
      assert.equal(JSON.stringify(got).replace(/-?[\d.]+(e[-+]\d+)?/g, 'n'), JSON.stringify(expected).replace(/-?[\d.]+(e[-+]\d+)?/g, 'n'), 'best-fit family');
      const numbers = (x: unknown): number[] => (Array.isArray(x) ? x.flatMap(numbers) : typeof x === 'number' ? [x] : []);
      numbers(got).forEach((n, i) => near(n, numbers(expected)[i], 'best-fit coefficient'));
    }
  });

  test('insights: no change across a gap, units inferred for unbucketed values, null when the result is no time series', async () => {
    const month = w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' });
    const gap = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [month], filter: ['and', ['<', w.f('ORDERS', 'CREATED_AT'), '2026-03-01'], ['not', ['between', w.f('ORDERS', 'CREATED_AT'), '2026-01-01', '2026-01-31']]] }));
    const rows = gap.body.data.rows;
    assert.equal(rows.at(-1)[0], '2026-02-01T00:00:00Z');
    assert.equal(rows.at(-2)[0], '2025-12-01T00:00:00Z');
    const [insight] = gap.body.data.insights;
    assert.deepEqual([insight.unit, insight['last-value'], insight['previous-value'], insight['last-change']], ['month', rows.at(-1)[1], null, null]);
    // Unbucketed: the unit is inferred from the last two values; keys (PK, FK) aren't insights.
    // (A native query's columns have no semantic types: its ID is a number like any other.)
    const raw = await run(w.native('SELECT "ID", "CREATED_AT", "TOTAL" FROM "ORDERS" WHERE "ID" <= 3 ORDER BY "ID"'));
    assert.deepEqual(raw.body.data.insights.map((i: any) => i.col), ['ID', 'TOTAL']);
    const days = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['sum', w.f('ORDERS', 'TOTAL')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day' })], filter: ['between', w.f('ORDERS', 'CREATED_AT'), '2025-03-01', '2025-03-10'] }));
    assert.deepEqual(days.body.data.insights.map((i: any) => [i.col, i.unit]), [['sum', 'day']]);
    const fields = await run(w.mbql({ 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'PRODUCT_ID'), w.f('ORDERS', 'CREATED_AT'), w.f('ORDERS', 'TOTAL')], limit: 2, 'order-by': [['asc', w.f('ORDERS', 'ID')]] }));
    assert.deepEqual(fields.body.data.insights.map((i: any) => i.col), ['TOTAL']);
    const xs = fields.body.data.rows.map((row: unknown[]) => Date.parse(row[2] as string) / 86_400_000);
    const apart = Math.abs(xs[1] - xs[0]);
    const inferred = ([['minute', 1 / 1440], ['hour', 1 / 24], ['day', 1], ['week', 7], ['month', 30.5], ['quarter', 91.2]] as const).find(([, d]) => apart / d > 0.9 && apart / d < 1.1)?.[0] ?? (apart >= 364.5 && apart <= 366.5 ? 'year' : null);
    assert.equal(fields.body.data.insights[0].unit, inferred);
    // No temporal column, or two: null.
    assert.equal((await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']] }))).body.data.insights, null);
    const two = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' }), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CREATED_AT', { 'temporal-unit': 'year' })] }));
    assert.equal(two.body.data.insights, null);
    // An aggregated date isn't the time axis: max(CREATED_AT) by category is no time series.
    const maxDate = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['max', w.f('ORDERS', 'CREATED_AT')], ['count']], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')] }));
    assert.equal(maxDate.body.data.insights, null);
  });

  test('join, binning and expression cols', async () => {
    const r = await run(w.mbql({
      'source-table': w.t('ORDERS'),
      expressions: { 'Net total': ['-', w.f('ORDERS', 'TOTAL'), w.f('ORDERS', 'TAX')] },
      joins: [{ 'source-table': w.t('PRODUCTS'), alias: 'Products', fields: 'none', condition: ['=', w.f('ORDERS', 'PRODUCT_ID'), w.f('PRODUCTS', 'ID', { 'join-alias': 'Products' })] }],
      aggregation: [['sum', ['expression', 'Net total']]],
      breakout: [w.f('PRODUCTS', 'CATEGORY', { 'join-alias': 'Products' }), w.f('ORDERS', 'QUANTITY', { binning: { strategy: 'num-bins', 'num-bins': 4 } })],
    }));
    const [category, quantity, total] = r.body.data.cols;
    assert.equal(category.display_name, 'Products → Category');
    assert.deepEqual(category.field_ref, ['field', w.fid('PRODUCTS', 'CATEGORY'), { 'join-alias': 'Products' }]);
    assert.match(quantity.display_name, /^Quantity: 4 bins$/);
    assert.equal(quantity.binning_info.binning_strategy, 'num-bins');
    assert.ok(quantity.binning_info.bin_width > 0);
    assert.equal(total.display_name, 'Sum of Net total');
    const e = await run(w.mbql({ 'source-table': w.t('ORDERS'), expressions: { 'Tax Rate': ['/', w.f('ORDERS', 'TAX'), w.f('ORDERS', 'SUBTOTAL')] }, fields: [['expression', 'Tax Rate']], limit: 1 }));
    assert.deepEqual(e.body.data.cols[0], { ...e.body.data.cols[0], name: 'Tax Rate', display_name: 'Tax Rate', expression_name: 'Tax Rate', field_ref: ['expression', 'Tax Rate'], source: 'fields', base_type: 'type/Float' });
  });

  test('case and coalesce columns have the type of their values: Float for mixed numbers, Text for text and numbers', async () => {
    const q = (e: unknown) => run(w.mbql({ 'source-table': w.t('ORDERS'), expressions: { e }, fields: [['expression', 'e']], limit: 1 }));
    const mixed = await q(['case', [[['>', w.f('ORDERS', 'QUANTITY'), 2], 1]], { default: 2.5 }]);
    assert.equal(mixed.body.data.cols[0].base_type, 'type/Float');
    const text = await q(['coalesce', ['case', [[['>', w.f('ORDERS', 'QUANTITY'), 99], 'many']]], w.f('ORDERS', 'QUANTITY')]);
    assert.equal(text.body.data.cols[0].base_type, 'type/Text');
    assert.equal(typeof text.body.data.rows[0][0], 'string');
    const ints = await q(['coalesce', w.f('ORDERS', 'QUANTITY'), 0]);
    assert.equal(ints.body.data.cols[0].base_type, 'type/Integer');
  });

  test('native cols use the column name and dedupe duplicates', async () => {
    const r = await run(w.native('SELECT "ID", "ID", COUNT(*) AS "COUNT(*)" FROM "PRODUCTS" GROUP BY "ID" ORDER BY "ID" LIMIT 2'));
    const cols = r.body.data.cols;
    assert.deepEqual(cols.map((c: any) => c.name), ['ID', 'ID_2', 'COUNT(*)']);
    assert.equal(cols[2].source, 'native');
    assert.deepEqual(cols[2].field_ref, ['field', 'COUNT(*)', { 'base-type': cols[2].base_type }]);
    assert.equal(r.body.data.native_form.query, 'SELECT "ID", "ID", COUNT(*) AS "COUNT(*)" FROM "PRODUCTS" GROUP BY "ID" ORDER BY "ID" LIMIT 2');
  });

  // ----- row limits ---------------------------------------------------------------------------------------------

  test('unaggregated and native queries stop at 2,000 rows; aggregated ones at 10,000', async () => {
    const bare = await run(w.mbql({ 'source-table': w.t('ORDERS') }));
    assert.equal(bare.body.row_count, 2000);
    assert.equal(bare.body.data.rows_truncated, 2000);
    const native = await run(w.native('SELECT "ID" FROM "ORDERS"'));
    assert.equal(native.body.row_count, 2000);
    assert.equal(native.body.data.rows_truncated, 2000);
    const aggregated = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'ID')] }));
    assert.equal(aggregated.body.row_count, 10000);
    assert.equal(aggregated.body.data.rows_truncated, 10000);
    const small = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'QUANTITY')] }));
    assert.equal(small.body.data.rows_truncated, undefined);
  });

  test('request constraints and an explicit smaller limit win', async () => {
    const c = await run(w.mbql({ 'source-table': w.t('ORDERS') }, { constraints: { 'max-results': 300, 'max-results-bare-rows': 120 } }));
    assert.equal(c.body.row_count, 120);
    const agg = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'ID')] }, { constraints: { 'max-results': 300, 'max-results-bare-rows': 120 } }));
    assert.equal(agg.body.row_count, 300);
    const limited = await run(w.mbql({ 'source-table': w.t('ORDERS'), limit: 7 }));
    assert.equal(limited.body.row_count, 7);
    const bad = await run(w.mbql({ 'source-table': w.t('ORDERS') }, { constraints: { 'max-results': 10, 'max-results-bare-rows': 20 } }));
    assert.equal(bad.body.status, 'failed');
  });

  test('a row cap inside a driver batch stops reading there, every row once and in order, the connection reusable', async () => {
    // Native SQL has no LIMIT added: the cap is applied to the driver's 500-row batches (mid-batch at 1,234), and on
    // PostgreSQL the portal is dropped while its next batch is being fetched.
    for (const wh of [w, pgw]) {
      const capped = await run(wh.native('SELECT "ID" FROM "ORDERS" ORDER BY "ID"', {}, { constraints: { 'max-results': 1234, 'max-results-bare-rows': 1234 } }));
      assert.equal(capped.body.row_count, 1234, wh.engine);
      assert.equal(capped.body.data.rows_truncated, 1234, wh.engine);
      assert.deepEqual(capped.body.data.rows.map((r: unknown[]) => r[0]), Array.from({ length: 1234 }, (_, i) => i + 1), wh.engine);
      const after = await run(wh.native('SELECT COUNT(*) FROM "PRODUCTS"'));
      assert.deepEqual(after.body.data.rows, [[200]], wh.engine);
    }
  });

  test('the unaggregated row limit is a setting', async () => {
    assert.equal((await admin.put('/api/setting/unaggregated-query-row-limit', { value: 150 })).status, 204);
    try {
      assert.equal((await run(w.mbql({ 'source-table': w.t('ORDERS') }))).body.row_count, 150);
    } finally {
      await admin.put('/api/setting/unaggregated-query-row-limit', { value: null });
    }
  });

  test('dashboard parameters become filters; a temporal-unit parameter changes the breakout unit', async () => {
    const query = w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' })] }, {
      parameters: [
        { id: 'u', type: 'temporal-unit', target: ['dimension', w.f('ORDERS', 'CREATED_AT')], value: 'year' },
        { id: 'c', type: 'string/=', target: ['dimension', w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')], value: ['Widget'] },
        { id: 'd', type: 'date/all-options', target: ['dimension', w.f('ORDERS', 'CREATED_AT')], value: '2023-01-01~2024-12-31' },
      ],
    });
    const r = await run(query);
    assert.equal(r.body.status, 'completed', r.body.error);
    assert.deepEqual(r.body.data.rows.map((x: unknown[]) => x[0]), ['2023-01-01T00:00:00Z', '2024-01-01T00:00:00Z']);
    assert.equal(r.body.data.cols[0].unit, 'year');
    assert.deepEqual(r.body.json_query.parameters.map((p: any) => p.id), ['u', 'c', 'd']);
  });

  // ----- failures ---------------------------------------------------------------------------------------------------

  test('a SQL error is a 202 failed result', async () => {
    const r = await run(w.native('SELECT nope FROM nowhere'));
    assert.equal(r.status, 202);
    assert.equal(r.body.status, 'failed');
    assert.equal(r.body.error_type, 'invalid-query');
    assert.match(r.body.error, /nowhere|nope/);
    assert.deepEqual(r.body.data, { rows: [], cols: [] });
    assert.equal(r.body.row_count, 0);
    assert.equal(r.body.native.query, 'SELECT nope FROM nowhere');
    assert.equal(r.body.context, 'ad-hoc');
    const pg = await run(pgw.native('SELECT nope FROM nowhere'));
    assert.equal(pg.body.state, '42P01');
  });

  test('a query without a type says so', async () => {
    const { type: _type, ...untyped } = w.mbql({ 'source-table': w.t('ORDERS') }) as Record<string, unknown>;
    const r = await run(untyped);
    assert.equal(r.status, 202);
    assert.equal(r.body.error_type, 'invalid-query');
    assert.equal(r.body.error, 'Invalid query type: nothing (expected "query" or "native").');
  });

  test('a failed result carries the preprocessed query (null when it failed before that)', async () => {
    const sqlError = await run(w.native('SELECT nope FROM nowhere'));
    assert.equal(sqlError.body.preprocessed.type, 'native');
    assert.equal(sqlError.body.preprocessed.database, w.id);
    assert.equal(sqlError.body.preprocessed.info, undefined);
    const invalid = await run(w.mbql({ 'source-table': w.t('ORDERS'), filter: ['frobnicate', 1] }));
    assert.equal(invalid.body.status, 'failed');
    assert.equal(invalid.body.preprocessed, null);
  });

  test('an invalid MBQL clause is a failed result naming it', async () => {
    const r = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['frobnicate', w.f('ORDERS', 'TOTAL')]] }));
    assert.equal(r.status, 202);
    assert.equal(r.body.status, 'failed');
    assert.equal(r.body.error_type, 'invalid-query');
    assert.match(r.body.error, /frobnicate/);
    const arity = await run(w.mbql({ 'source-table': w.t('ORDERS'), filter: ['between', w.f('ORDERS', 'TOTAL'), 1] }));
    assert.match(arity.body.error, /between/);
    const otherDb = await run(w.mbql({ 'source-table': pgw.t('ORDERS'), aggregation: [['count']] }));
    assert.equal(otherDb.body.status, 'failed');
    assert.match(otherDb.body.error, /is not in database/);
    const otherDbFilter = await run(w.native('SELECT 1 WHERE {{f}}', { f: { name: 'f', type: 'dimension', dimension: pgw.f('PRODUCTS', 'CATEGORY'), 'widget-type': 'string/=' } }, { parameters: [{ type: 'string/=', target: ['dimension', ['template-tag', 'f']], value: ['x'] }] }));
    assert.match(otherDbFilter.body.error, /is not in database/);
    const noField = await run(w.mbql({ 'source-table': w.t('ORDERS'), fields: [['field', 999999, null]] }));
    assert.equal(noField.body.status, 'failed');
    assert.match(noField.body.error, /999999/);
  });

  test('a missing required parameter fails with Metabase’s message', async () => {
    const r = await run(w.native('SELECT COUNT(*) FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}', { cat: { id: 'c', name: 'cat', 'display-name': 'Category', type: 'text', required: true } }));
    assert.equal(r.body.status, 'failed');
    assert.equal(r.body.error_type, 'missing-required-parameter');
    assert.equal(r.body.error, "You'll need to pick a value for 'Category' before this query can run.");
  });

  test('an unsupported feature fails with unsupported-feature', async () => {
    const r = await run(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['offset', ['count'], -1]], breakout: [w.f('PRODUCTS', 'CATEGORY')] }));
    assert.equal(r.body.error_type, 'unsupported-feature', r.body.error);
  });

  test('HTTP errors before the query runs', async () => {
    const noDb = await admin.post('/api/dataset', { type: 'query', query: { 'source-table': 1 } });
    assert.equal(noDb.status, 400);
    assert.match(noDb.text, /`database` is required for all queries whose type is not `internal`\./);
    assert.equal((await admin.post('/api/dataset', { database: 99999, type: 'native', native: { query: 'SELECT 1' } })).status, 404);
    assert.equal((await server().anon.post('/api/dataset', w.native('SELECT 1'))).status, 401);
    assert.equal((await admin.post('/api/dataset/nonsense', { query: '{}' })).status, 404);
  });

  test('a regular user can run queries', async () => {
    const { client } = await createUserClient(server(), admin);
    const r = await client.post('/api/dataset', w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']] }));
    assert.deepEqual(r.body.data.rows, [[200]]);
  });

  // ----- /native ---------------------------------------------------------------------------------------------------

  test('/api/dataset/native turns MBQL into SQL, laid out unless pretty is false', async () => {
    const query = pgw.mbql({ 'source-table': pgw.t('PRODUCTS'), aggregation: [['count']], breakout: [pgw.f('PRODUCTS', 'CATEGORY')], filter: ['=', pgw.f('PRODUCTS', 'VENDOR'), "O'Brien"] });
    const pretty = await admin.post('/api/dataset/native', query);
    assert.equal(pretty.status, 200);
    assert.equal(pretty.body.params, null);
    assert.equal(
      pretty.body.query,
      [
        'SELECT',
        '  "public"."PRODUCTS"."CATEGORY" AS "CATEGORY",',
        '  COUNT(*) AS "count"',
        'FROM',
        '  "public"."PRODUCTS"',
        'WHERE',
        `  ("public"."PRODUCTS"."VENDOR" = 'O''Brien')`,
        'GROUP BY',
        '  "public"."PRODUCTS"."CATEGORY"',
        'ORDER BY',
        '  "public"."PRODUCTS"."CATEGORY" ASC NULLS FIRST',
      ].join('\n'),
    );
    const flat = await admin.post('/api/dataset/native', { ...query, pretty: false });
    assert.equal(flat.body.query.includes('\n'), false);
    assert.match(flat.body.query, /LIMIT|GROUP BY/);
    const invalid = await admin.post('/api/dataset/native', pgw.mbql({ 'source-table': pgw.t('PRODUCTS'), aggregation: [['nope']] }));
    assert.equal(invalid.status, 400);
  });

  // ----- metadata, parameter values -----------------------------------------------------------------------------------

  test('query_metadata lists the database, tables and extra fields', async () => {
    const r = await admin.post('/api/dataset/query_metadata', w.mbql({ 'source-table': w.t('ORDERS'), breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')], aggregation: [['count']] }));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.databases.map((d: any) => d.id), [w.id]);
    assert.deepEqual(r.body.tables.map((t: any) => t.name).sort(), ['ORDERS', 'PRODUCTS']);
    assert.ok(r.body.tables[0].fields.length > 0);
    const native = await admin.post('/api/dataset/query_metadata', w.native('SELECT 1 WHERE {{f}}', { f: { name: 'f', type: 'dimension', dimension: w.f('PEOPLE', 'STATE'), 'widget-type': 'string/=' } }));
    assert.deepEqual(native.body.fields.map((f: any) => f.id), [w.fid('PEOPLE', 'STATE')]);
  });

  test('parameter values from a static list, from fields, and search', async () => {
    const list = await admin.post('/api/dataset/parameter/values', { parameter: { id: 'p', type: 'category', values_source_type: 'static-list', values_source_config: { values: ['Apple', 'Banana', ['c', 'Cherry']] } } });
    assert.deepEqual(list.body, { values: [['Apple'], ['Banana'], ['c', 'Cherry']], has_more_values: false });
    const searched = await admin.post('/api/dataset/parameter/search/an', { parameter: { id: 'p', type: 'category', values_source_type: 'static-list', values_source_config: { values: ['Apple', 'Banana'] } } });
    assert.deepEqual(searched.body.values, [['Banana']]);
    const fields = await admin.post('/api/dataset/parameter/values', { parameter: { id: 'p', type: 'category' }, field_ids: [w.fid('PRODUCTS', 'CATEGORY')] });
    assert.deepEqual(fields.body.values.map((v: unknown[]) => v[0]).sort(), ['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    const search = await admin.post('/api/dataset/parameter/search/giz', { parameter: { id: 'p', type: 'category' }, field_ids: [w.fid('PRODUCTS', 'CATEGORY')] });
    assert.deepEqual(search.body.values, [['Gizmo']]);
    const distinct = await admin.post('/api/dataset/parameter/search/ex', { parameter: { id: 'p', type: 'string/=' }, field_ids: [w.fid('PEOPLE', 'EMAIL')] });
    assert.ok(distinct.body.values.length > 0 && distinct.body.values.every((v: string[]) => v[0].includes('ex')));
    // The search text as ?query= works the same way; without it the request is invalid.
    const byQuery = await admin.post('/api/dataset/parameter/search', { parameter: { id: 'p', type: 'category' }, field_ids: [w.fid('PRODUCTS', 'CATEGORY')] }, { query: { query: 'giz' } });
    assert.equal(byQuery.status, 200, byQuery.text);
    assert.deepEqual(byQuery.body.values, [['Gizmo']]);
    const byQueryList = await admin.post('/api/dataset/parameter/search', { parameter: { id: 'p', type: 'category', values_source_type: 'static-list', values_source_config: { values: ['Apple', 'Banana'] } } }, { query: { query: 'an' } });
    assert.deepEqual(byQueryList.body.values, [['Banana']]);
    assert.equal((await admin.post('/api/dataset/parameter/search', { parameter: { id: 'p', type: 'category' } })).status, 400);
  });

  test('parameter values of a card column: a source-field column works, a failing query is an error, not []', async () => {
    const category = w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY');
    const c = await admin.post('/api/card', { name: 'Orders by category', display: 'table', visualization_settings: {}, dataset_query: w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [category] }) });
    assert.equal(c.status, 200, c.text);
    const ok = await admin.post('/api/dataset/parameter/values', { parameter: { id: 'p', type: 'category', values_source_type: 'card', values_source_config: { card_id: c.body.id, value_field: category } } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.values, [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']]);
    const bad = await admin.post('/api/dataset/parameter/values', { parameter: { id: 'p', type: 'category', values_source_type: 'card', values_source_config: { card_id: c.body.id, value_field: ['field', 'NO_SUCH_COLUMN', { 'base-type': 'type/Text' }] } } });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.message, /NO_SUCH_COLUMN/);
    assert.equal(bad.body.error_type, 'invalid-query');
  });

  // ----- pivot ----------------------------------------------------------------------------------------------------------

  test('pivot results carry pivot-grouping rows for subtotals and the grand total', async () => {
    const query = w.mbql({
      'source-table': w.t('ORDERS'),
      aggregation: [['count']],
      breakout: [w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE'), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')],
    });
    const r = await admin.post('/api/dataset/pivot', { ...query, pivot_rows: [0], pivot_cols: [1] });
    assert.equal(r.status, 202);
    assert.equal(r.body.status, 'completed');
    const names = r.body.data.cols.map((c: any) => c.name);
    assert.deepEqual(names, ['SOURCE', 'CATEGORY', 'pivot-grouping', 'count']);
    const rows = r.body.data.rows as unknown[][];
    const byGroup = new Map<number, unknown[][]>();
    for (const row of rows) byGroup.set(row[2] as number, [...(byGroup.get(row[2] as number) ?? []), row]);
    assert.equal(byGroup.get(0)!.length, 20);
    assert.deepEqual(byGroup.get(3), [[null, null, 3, 18760]]);
    assert.equal(byGroup.get(1)!.length, 4);
    assert.equal(byGroup.get(2)!.length, 5);
    assert.equal(r.body.row_count, rows.length);
  });

  test('pivot without pivot rows and columns: every breakout combination, ordered by pivot-grouping', async () => {
    const query = w.mbql({
      'source-table': w.t('ORDERS'),
      aggregation: [['count']],
      breakout: [w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE'), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY'), w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })],
    });
    const r = await admin.post('/api/dataset/pivot', query);
    assert.equal(r.body.status, 'completed', r.body.error);
    const rows = r.body.data.rows as unknown[][];
    const groups = [...new Set(rows.map((row) => row[3]))];
    assert.deepEqual(groups, [0, 1, 2, 3, 4, 5, 6, 7]);
    const years = new Set(rows.filter((row) => row[3] === 0).map((row) => row[2])).size;
    const count = (g: number) => rows.filter((row) => row[3] === g).length;
    // 1: without SOURCE (category × year); 2: without CATEGORY (source × year); 4: without the year (source × category).
    assert.equal(count(1), 4 * years);
    assert.equal(count(2), 5 * years);
    assert.equal(count(4), 20);
    assert.equal(count(3), years);
    assert.equal(count(5), 4);
    assert.equal(count(6), 5);
    assert.deepEqual(rows.filter((row) => row[3] === 7), [[null, null, null, 7, 18760]]);
    // Every level adds up to the same total.
    for (const g of groups) assert.equal(rows.filter((row) => row[3] === g).reduce((a, row) => a + (row[4] as number), 0), 18760);
  });

  test('pivot-rows / pivot-cols in kebab-case, and out-of-range indexes fail the query', async () => {
    const query = w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE'), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')] });
    const three = w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [...(query.query as any).breakout, w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] });
    const kebab = await admin.post('/api/dataset/pivot', { ...three, 'pivot-rows': [2, 0], 'pivot-cols': [1] });
    assert.equal(kebab.body.status, 'completed');
    // Rows [year, source], column [category]: the full breakdown (0); year × category (1: source left out); the row
    // totals year × source (2) and year (3); the column totals by category (5); the grand total (7).
    assert.deepEqual([...new Set((kebab.body.data.rows as unknown[][]).map((row) => row[3]))], [0, 1, 2, 3, 5, 7]);
    const bad = await admin.post('/api/dataset/pivot', { ...query, pivot_rows: [5], pivot_cols: [1] });
    assert.equal(bad.status, 202);
    assert.equal(bad.body.status, 'failed');
    assert.equal(bad.body.error_type, 'invalid-query');
    assert.match(bad.body.error, /pivot-rows.*index 5.*2 breakouts/);
  });

  // ----- execution log ---------------------------------------------------------------------------------------------

  test('every execution is recorded in query_execution', async () => {
    const ok = await run(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']] }));
    assert.equal(ok.body.status, 'completed');
    await run(w.native('SELECT broken'));
    const rows = await recentExecutions(server().ctx, { limit: 2 });
    const [failed, completed] = rows;
    assert.equal(failed.context, 'ad-hoc');
    assert.ok(failed.error);
    assert.equal(Number(failed.native) === 1 || failed.native === true, true);
    assert.equal(completed.result_rows, 1);
    assert.equal(completed.error, null);
    assert.equal(completed.database_id, w.id);
    assert.match(completed.hash, /^[0-9a-f]{64}$/);
    assert.ok(Number.isInteger(completed.running_time));
    assert.ok(completed.executor_id);
    assert.deepEqual(await averageRunningTimes(server().ctx, [123456]), new Map());
    assert.ok(Array.isArray(await executionCounts(server().ctx)));
  });

  test('/api/dataset/duration is the average running time of the same query', async () => {
    const query = w.mbql({ 'source-table': w.t('PEOPLE'), aggregation: [['count']], breakout: [w.f('PEOPLE', 'STATE')] });
    const never = await admin.post('/api/dataset/duration', { ...query, query: { ...(query.query as object), limit: 12345 } });
    assert.deepEqual(never.body, { average: null });
    await run(query);
    const r = await admin.post('/api/dataset/duration', query);
    assert.ok(Number.isInteger(r.body.average));
  });

  test('public results keep only a generic message (except parameter errors)', async () => {
    const bad = await runQueryToMemory(server().ctx, { query: w.native('SELECT secret FROM nowhere'), caller: null, context: 'public-question', publicResult: true, skipPermissionCheck: true });
    assert.deepEqual(bad, { data: { rows: [], cols: [] }, row_count: 0, status: 'failed', error: 'An error occurred while running the query.', error_type: 'invalid-query' });
    const missing = await runQueryToMemory(server().ctx, {
      query: w.native('SELECT {{x}}', { x: { name: 'x', 'display-name': 'X', type: 'text', required: true } }),
      caller: null,
      context: 'public-question',
      publicResult: true,
      skipPermissionCheck: true,
    });
    assert.equal(missing.error, "You'll need to pick a value for 'X' before this query can run.");
  });

  // ----- settings --------------------------------------------------------------------------------------------------

  test('report-timezone: values and buckets in the report zone, with its offset', async () => {
    assert.equal((await admin.put('/api/setting/report-timezone', { value: 'America/Los_Angeles' })).status, 204);
    try {
      const r = await run(pgw.mbql({ 'source-table': pgw.t('PEOPLE'), fields: [pgw.f('PEOPLE', 'BIRTH_DATE'), pgw.f('PEOPLE', 'CREATED_AT')], 'order-by': [['asc', pgw.f('PEOPLE', 'ID')]], limit: 1 }));
      assert.equal(r.body.data.results_timezone, 'America/Los_Angeles');
      assert.equal(r.body.data.requested_timezone, 'America/Los_Angeles');
      const [birth, created] = r.body.data.rows[0];
      assert.match(birth, /^\d{4}-\d\d-\d\dT00:00:00-0[78]:00$/);
      assert.match(created, /-0[78]:00$/);
      const month = await run(pgw.mbql({ 'source-table': pgw.t('ORDERS'), aggregation: [['count']], breakout: [pgw.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' })], limit: 1 }));
      assert.equal(month.body.data.rows[0][0], '2022-04-01T00:00:00-07:00');
    } finally {
      await admin.put('/api/setting/report-timezone', { value: null });
    }
  });

  test('start-of-week moves weeks and days of week', async () => {
    const dow = async () => (await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day-of-week' })] }))).body.data.rows;
    const week = async () => (await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'week' })], limit: 1 }))).body.data.rows[0][0];
    const sunday = await dow();
    const sundayWeek = await week();
    assert.equal((await admin.put('/api/setting/start-of-week', { value: 'monday' })).status, 204);
    try {
      const monday = await dow();
      // Monday is day 2 of a Sunday week and day 1 of a Monday week.
      assert.equal(monday[0][1], sunday[1][1]);
      assert.equal(monday[6][1], sunday[0][1]);
      assert.equal(new Date(await week()).getUTCDay(), 1);
      assert.equal(new Date(sundayWeek).getUTCDay(), 0);
    } finally {
      await admin.put('/api/setting/start-of-week', { value: 'sunday' });
    }
  });
});
