// Downloads (POST /api/dataset/:export-format): CSV, JSON, XLSX and `api`, parsed back and compared with the API
// result of the same query; headers, quoting, no 2,000-row cap, formatted values, failures.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { parse as parseCsv } from 'csv-parse/sync';
import { forEachAppDb, setupAdmin, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerWarehouses, type Warehouse } from './helpers/warehouses.js';
import { downloadRowCap } from '../../src/query/settings.js';

forEachAppDb('dataset exports', (server: () => TestServer) => {
  let admin: Client;
  let w: Warehouse;

  before(async () => {
    admin = await setupAdmin(server());
    w = (await registerWarehouses(server(), admin, ['sqlite'])).sqlite;
  });

  /** A download as a browser form posts it: `query=<json>&format_rows=…`. */
  async function download(format: string, query: unknown, form: Record<string, string> = {}): Promise<Response> {
    const body = new URLSearchParams({ query: JSON.stringify(query), ...form });
    return fetch(`${server().url}/api/dataset/${format}`, {
      method: 'POST',
      headers: { 'X-Metabase-Session': admin.session!, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  const byCategory = () => w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count'], ['avg', w.f('PRODUCTS', 'PRICE')]], breakout: [w.f('PRODUCTS', 'CATEGORY')] });
  const peopleRows = () => w.mbql({ 'source-table': w.t('PEOPLE'), fields: [w.f('PEOPLE', 'ID'), w.f('PEOPLE', 'NAME'), w.f('PEOPLE', 'LATITUDE'), w.f('PEOPLE', 'BIRTH_DATE'), w.f('PEOPLE', 'CREATED_AT')], 'order-by': [['asc', w.f('PEOPLE', 'ID')]], limit: 300 });

  test('CSV: headers, display-name header row, the same values as the API', async () => {
    const r = await download('csv', peopleRows());
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/csv/);
    assert.match(r.headers.get('content-disposition')!, /^attachment; filename="query_result_\d{4}-\d\d-\d\dT[\d:.]+Z\.csv"$/);
    assert.equal(r.headers.get('x-accel-buffering'), 'no');
    const table = parseCsv(await r.text()) as string[][];
    assert.deepEqual(table[0], ['ID', 'Name', 'Latitude', 'Birth Date', 'Created At']);
    const api = (await admin.post('/api/dataset', peopleRows())).body.data.rows as unknown[][];
    assert.equal(table.length - 1, api.length);
    api.forEach((row, i) => {
      const csv = table[i + 1];
      assert.equal(Number(csv[0]), row[0]);
      assert.equal(csv[1], row[1]);
      assert.equal(Number(csv[2]), row[2]);
      // Unformatted: a date is just the date, a local date-time has no offset.
      assert.equal(csv[3], String(row[3]).slice(0, 10));
      assert.equal(csv[4], String(row[4]).replace(/Z$/, '').replace(/T00:00:00(\.0+)?$/, ''));
    });
  });

  test('CSV quoting and nulls (RFC 4180)', async () => {
    const r = await download('csv', w.native(`SELECT 'a,b' AS "comma", 'he said "hi"' AS "quote", 'line1' || char(10) || 'line2' AS "newline", NULL AS "nothing", 3 AS "n"`));
    const text = await r.text();
    assert.equal(text, 'comma,quote,newline,nothing,n\n"a,b","he said ""hi""","line1\nline2",,3\n');
  });

  test('CSV downloads are not capped at 2,000 rows', async () => {
    const r = await download('csv', w.mbql({ 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID')] }));
    const lines = (await r.text()).trimEnd().split('\n');
    assert.equal(lines.length, 18760 + 1);
  });

  test('CSV with format_rows formats numbers and dates like the UI', async () => {
    const q = w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['sum', w.f('ORDERS', 'TOTAL')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' })], limit: 1 });
    const text = await (await download('csv', q, { format_rows: 'true' })).text();
    const [header, row] = parseCsv(text) as string[][];
    assert.deepEqual(header, ['Created At: Month', 'Sum of Total']);
    assert.equal(row[0], 'April 2022');
    assert.match(row[1], /^\d{1,3}(,\d{3})*(\.\d{1,2})?$/);
  });

  test('JSON: an array of objects keyed by display names', async () => {
    const r = await download('json', byCategory());
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^application\/json/);
    const text = await r.text();
    assert.ok(text.startsWith('[\n{'));
    const data = JSON.parse(text);
    const api = (await admin.post('/api/dataset', byCategory())).body.data.rows;
    assert.deepEqual(data, api.map((row: unknown[]) => ({ Category: row[0], Count: row[1], 'Average of Price': row[2] })));
  });

  test('JSON body instead of a form works too (0.53+)', async () => {
    const r = await admin.post('/api/dataset/json', { query: byCategory(), format_rows: false });
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 4);
  });

  test('XLSX: one sheet, bold frozen header, typed cells', async () => {
    const r = await download('xlsx', peopleRows());
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const buffer = Buffer.from(await r.arrayBuffer());
    assert.equal(buffer.subarray(0, 2).toString(), 'PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Query result')!;
    assert.ok(sheet);
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['ID', 'Name', 'Latitude', 'Birth Date', 'Created At']);
    assert.equal(sheet.rowCount, 301);
    const api = (await admin.post('/api/dataset', peopleRows())).body.data.rows as unknown[][];
    const second = (sheet.getRow(2).values as unknown[]).slice(1);
    assert.equal(second[0], api[0][0]);
    assert.equal(second[1], api[0][1]);
    assert.equal(second[2], api[0][2]);
    assert.ok(second[3] instanceof Date);
    assert.equal((second[3] as Date).toISOString().slice(0, 10), String(api[0][3]).slice(0, 10));
    assert.equal((second[4] as Date).toISOString().slice(0, 19), String(api[0][4]).slice(0, 19));
  });

  test('visualization settings: column titles, hidden and reordered columns in CSV, JSON and XLSX', async () => {
    const query = w.mbql({ 'source-table': w.t('PRODUCTS'), fields: [w.f('PRODUCTS', 'ID'), w.f('PRODUCTS', 'TITLE'), w.f('PRODUCTS', 'CATEGORY'), w.f('PRODUCTS', 'PRICE')], 'order-by': [['asc', w.f('PRODUCTS', 'ID')]], limit: 3 });
    const viz = {
      column_settings: {
        [JSON.stringify(['ref', ['field', w.fid('PRODUCTS', 'PRICE'), null]])]: { column_title: 'List price' },
        [JSON.stringify(['name', 'TITLE'])]: { column_title: 'Product' },
      },
      'table.columns': [
        { name: 'PRICE', fieldRef: ['field', w.fid('PRODUCTS', 'PRICE'), null], enabled: true },
        { name: 'ID', enabled: true },
        { name: 'CATEGORY', enabled: false },
        { name: 'TITLE', enabled: true },
      ],
    };
    const api = (await admin.post('/api/dataset', query)).body.data.rows as unknown[][];
    const expected = api.map((r) => [r[3], r[0], r[1]]);

    const csv = parseCsv(await (await download('csv', query, { visualization_settings: JSON.stringify(viz) })).text()) as string[][];
    assert.deepEqual(csv[0], ['List price', 'ID', 'Product']);
    assert.deepEqual(csv.slice(1), expected.map((r) => r.map(String)));

    const json = await admin.post('/api/dataset/json', { query, visualization_settings: viz });
    assert.deepEqual(json.body, expected.map(([price, id, title]) => ({ 'List price': price, ID: id, Product: title })));

    const xlsx = await download('xlsx', query, { visualization_settings: JSON.stringify(viz) });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Query result')!;
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['List price', 'ID', 'Product']);
    assert.deepEqual((sheet.getRow(2).values as unknown[]).slice(1), expected[0]);

    // Columns the settings don't list come after the listed ones; without settings, display names in query order.
    const partial = parseCsv(await (await download('csv', query, { visualization_settings: JSON.stringify({ 'table.columns': [{ name: 'CATEGORY', enabled: true }] }) })).text()) as string[][];
    assert.deepEqual(partial[0], ['Category', 'ID', 'Title', 'Price']);
  });

  test('pivot_results: the pivoted table — row headers, a column per pivot value, row totals, grand totals', async () => {
    const source = w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE');
    const category = w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY');
    const query = w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [source, category] });
    const viz = { 'pivot_table.column_split': { rows: [source], columns: [category], values: [['aggregation', 0]] } };
    const counts = async (breakout: unknown[]) => (await admin.post('/api/dataset', w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], ...(breakout.length ? { breakout } : {}) }))).body.data.rows as unknown[][];
    const full = await counts([source, category]);
    const bySource = await counts([source]);
    const byCategory = await counts([category]);
    const [[total]] = await counts([]);
    const categories = byCategory.map((r) => r[0] as string);
    const expected = [
      ['User → Source', ...categories, 'Row totals'],
      ...bySource.map(([src, n]) => [src, ...categories.map((c) => String(full.find((r) => r[0] === src && r[1] === c)?.[2] ?? '')), String(n)]),
      ['Grand totals', ...byCategory.map((r) => String(r[1])), String(total)],
    ];
    const csv = parseCsv(await (await download('csv', query, { pivot_results: 'true', visualization_settings: JSON.stringify(viz) })).text()) as string[][];
    assert.deepEqual(csv, expected);
    // The rows add up: each row's cells to its row total, the grand totals row to the grand total.
    for (const row of csv.slice(1)) assert.equal(row.slice(1, -1).reduce((a, v) => a + Number(v || 0), 0), Number(row[row.length - 1]));

    // XLSX: the same table, numbers as numbers.
    const xlsx = await download('xlsx', query, { pivot_results: 'true', visualization_settings: JSON.stringify(viz) });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Query result')!;
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), expected[0]);
    assert.deepEqual((sheet.getRow(sheet.rowCount).values as unknown[]).slice(1), ['Grand totals', ...byCategory.map((r) => r[1]), total]);
  });

  test('pivot_results with two row breakouts and two measures: a measure header row and subtotal rows', async () => {
    const source = w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE');
    const category = w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY');
    const year = w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' });
    const query = w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count'], ['sum', w.f('ORDERS', 'QUANTITY')]], breakout: [source, category, year] });
    const viz = { 'pivot_table.column_split': { rows: [source, category], columns: [year] }, column_settings: { [JSON.stringify(['name', 'sum'])]: { column_title: 'Items' } } };
    const text = await (await download('csv', query, { pivot_results: 'true', visualization_settings: JSON.stringify(viz) })).text();
    const csv = parseCsv(text, { relax_column_count: false }) as string[][];
    const years = (await admin.post('/api/dataset', w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [year] }))).body.data.rows.map((r: unknown[]) => String(r[0]).slice(0, 4));
    // Unformatted, a year bucket is its first day (a midnight date-time is written as the date).
    assert.deepEqual(csv[0], ['', '', ...years.flatMap((y: string) => [`${y}-01-01`, `${y}-01-01`]), 'Row totals', 'Row totals']);
    assert.deepEqual(csv[1], ['User → Source', 'Product → Category', ...years.flatMap(() => ['Count', 'Items']), 'Count', 'Items']);
    // Affiliate's four categories, then its subtotal row; five sources; the grand totals row last.
    assert.deepEqual(csv.slice(2, 7).map((r) => r.slice(0, 2)), [['Affiliate', 'Doohickey'], ['Affiliate', 'Gadget'], ['Affiliate', 'Gizmo'], ['Affiliate', 'Widget'], ['Totals for Affiliate', '']]);
    assert.equal(csv.filter((r) => r[0].startsWith('Totals for ')).length, 5);
    const grand = csv[csv.length - 1];
    assert.equal(grand[0], 'Grand totals');
    assert.equal(Number(grand[grand.length - 2]), 18760);
    const subtotals = csv.filter((r) => r[0].startsWith('Totals for '));
    assert.equal(subtotals.reduce((a, r) => a + Number(r[r.length - 2]), 0), 18760);
    assert.equal(subtotals.reduce((a, r) => a + Number(r[r.length - 1]), 0), Number(grand[grand.length - 1]));
  });

  test('download-row-limit caps CSV, JSON and XLSX; XLSX never goes past Excel’s 1,048,575 rows', async () => {
    assert.equal(downloadRowCap('xlsx', null), 1_048_575);
    assert.equal(downloadRowCap('xlsx', 5_000_000), 1_048_575);
    assert.equal(downloadRowCap('xlsx', 100), 100);
    assert.equal(downloadRowCap('csv', null), null);
    const query = w.mbql({ 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID')], 'order-by': [['asc', w.f('ORDERS', 'ID')]] });
    assert.equal((await admin.put('/api/setting/download-row-limit', { value: 100 })).status, 204);
    try {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await (await download('xlsx', query)).arrayBuffer()) as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Query result')!;
      assert.equal(sheet.rowCount, 101);
      assert.equal(sheet.getRow(101).getCell(1).value, 100);
      assert.equal((await (await download('csv', query)).text()).trimEnd().split('\n').length, 101);
      assert.equal((await admin.post('/api/dataset/json', { query })).body.length, 100);
    } finally {
      await admin.put('/api/setting/download-row-limit', { value: null });
    }
  });

  test('api format: the API result as an attachment with status 200, not capped at 2,000', async () => {
    const r = await download('api', w.mbql({ 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID')] }));
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-disposition')!, /\.json"$/);
    const body: any = await r.json();
    assert.equal(body.status, 'completed');
    assert.equal(body.row_count, 18760);
    assert.equal(body.context, 'api-download');
  });

  test('a failing download answers 200 with the error as JSON', async () => {
    const r = await download('csv', w.native('SELECT nope FROM nowhere'));
    assert.equal(r.status, 200);
    const body = JSON.parse(await r.text());
    assert.equal(body.status, 'failed');
    assert.match(body.error, /nowhere/);
  });

  test('downloads need a session and a query', async () => {
    const anon = await fetch(`${server().url}/api/dataset/csv`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `query=${encodeURIComponent(JSON.stringify(byCategory()))}` });
    assert.equal(anon.status, 401);
    const missing = await admin.post('/api/dataset/csv', { format_rows: true });
    assert.equal(missing.status, 400);
    const garbage = await admin.post('/api/dataset/csv', undefined, { raw: 'query=%7Bnot-json', contentType: 'application/x-www-form-urlencoded' });
    assert.equal(garbage.status, 400);
  });
});
