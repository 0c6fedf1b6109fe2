// A saved question's results in a real browser: the grid formats numbers and dates as the card's settings say and
// sorts by a clicked header; a CSV downloaded from the page is byte for byte the API's; "View the SQL" shows the
// server's SQL; the bookmark button bookmarks; a card parameter typed in filters the rows.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { forEachBrowser } from './browser.js';
import { ADMIN, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';

forEachBrowser('the question page: results grid, downloads, SQL, bookmark, parameters', (session) => {
  let admin: Client;
  let sample: Sample;
  let orders: any;
  let byCategory: any;
  let rows: unknown[][];
  let cols: any[];

  const ok = <R extends { status: number; text: string }>(response: R): R => {
    assert.ok(response.status < 300, `${response.status} ${response.text}`);
    return response;
  };
  const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' });

  /** Texts of one column of the grid's drawn rows (the first rows on screen). */
  const columnTexts = async (title: string) => {
    const { page } = session();
    const headers = await page.getByRole('columnheader').allTextContents();
    const at = headers.findIndex((h) => h.replace(/ [▲▼]$/, '') === title);
    assert.ok(at >= 0, `no column ${title} in ${headers.join(' | ')}`);
    return page.locator('[data-testid=results-grid] [role=row][aria-rowindex]').evaluateAll((els, i) => els.map((el) => el.children[i]?.textContent ?? ''), at);
  };

  before(async () => {
    admin = await setupAdmin(session().server);
    sample = await installSample(admin);
    orders = ok(await admin.post('/api/card', {
      name: 'Recent orders',
      display: 'table',
      visualization_settings: {
        column_settings: {
          '["name","TOTAL"]': { number_style: 'currency', currency: 'EUR', decimals: 1 },
          '["name","CREATED_AT"]': { date_style: 'YYYY/M/D', time_enabled: null },
        },
      },
      dataset_query: {
        database: sample.id,
        type: 'query',
        query: { 'source-table': sample.table('ORDERS'), fields: ['ID', 'TOTAL', 'CREATED_AT'].map((n) => ['field', sample.field('ORDERS', n), null]), 'order-by': [['asc', ['field', sample.field('ORDERS', 'ID'), null]]], limit: 300 },
      },
    })).body;
    const result = ok(await admin.post(`/api/card/${orders.id}/query`)).body;
    rows = result.data.rows;
    cols = result.data.cols;
    byCategory = ok(await admin.post('/api/card', {
      name: 'Products of a category',
      display: 'table',
      visualization_settings: {},
      parameters: [{ id: 'catp', name: 'Category', slug: 'category', type: 'category', target: ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), null]] }],
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), fields: ['TITLE', 'CATEGORY'].map((n) => ['field', sample.field('PRODUCTS', n), null]) } },
    })).body;
  });

  test('the grid formats values as the settings say and sorts by a clicked header', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url('/auth/login'));
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/'));

    await page.goto(url(`/question/${orders.id}-recent-orders`));
    await page.getByTestId('results-grid').waitFor();
    assert.equal(await page.getByTestId('row-count').textContent(), 'Showing first 300 rows', 'the limit was reached');
    const total = cols.findIndex((c) => c.name === 'TOTAL');
    const created = cols.findIndex((c) => c.name === 'CREATED_AT');
    const euros = (v: unknown) => Number(v).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const totals = await columnTexts('Total (€)');
    assert.equal(totals[0], euros(rows[0][total]), 'decimals: 1, currency in the header');
    const dates = await columnTexts('Created At');
    assert.match(dates[0], /^\d{4}\/\d{1,2}\/\d{1,2}/, `date_style YYYY/M/D: ${dates[0]}`);
    assert.equal(dates[0].slice(0, 4), String(rows[0][created]).slice(0, 4));

    await page.getByRole('columnheader', { name: 'Total (€)' }).click();
    const sortedUp = [...rows].map((r) => Number(r[total])).sort((a, b) => a - b);
    assert.equal((await columnTexts('Total (€)'))[0], euros(sortedUp[0]), 'ascending: the smallest total first');
    await page.getByRole('columnheader', { name: /Total/ }).click();
    assert.equal((await columnTexts('Total (€)'))[0], euros(sortedUp[sortedUp.length - 1]), 'descending: the largest first');
    assert.equal(await page.getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort'), 'descending');
    await screenshot('question-grid-sorted');
    // Scrolling to the end draws the last rows (only the visible ones are in the page).
    assert.ok((await page.locator('[data-testid=results-grid] [role=row][aria-rowindex]').count()) < 100);
    await page.getByTestId('results-grid').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.locator('[data-testid=results-grid] [aria-rowindex="301"]').waitFor();
  });

  test("a CSV (and JSON) downloaded from the page is the API's, byte for byte; so is a new question's CSV; XLSX downloads", async () => {
    const { page, url } = session();
    await page.goto(url(`/question/${orders.id}`));
    await page.getByTestId('results-grid').waitFor();
    const download = async (format = 'csv') => {
      const waiting = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download' }).click();
      await page.getByRole('menuitem', { name: `.${format}` }).click();
      const file = await waiting;
      return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
    };
    const saved = await download();
    const api = await admin.post(`/api/card/${orders.id}/query/csv`, undefined, form({ format_rows: 'true', parameters: '[]' }));
    assert.equal(api.status, 200);
    assert.match(saved.name, /\.csv$/);
    assert.ok(saved.bytes.equals(Buffer.from(api.text)), 'the saved question CSV equals the API');
    assert.match(saved.bytes.toString('utf8').split('\n')[0], /Total/);
    const json = await download('json');
    const apiJson = await admin.post(`/api/card/${orders.id}/query/json`, undefined, form({ format_rows: 'true', parameters: '[]' }));
    assert.ok(json.bytes.equals(Buffer.from(apiJson.text)), 'the JSON download equals the API');
    const xlsx = await download('xlsx');
    assert.match(xlsx.name, /\.xlsx$/);
    assert.equal(xlsx.bytes.subarray(0, 2).toString('latin1'), 'PK', 'an XLSX (zip) file');

    await page.getByRole('link', { name: 'Open in the builder' }).click();
    await page.waitForURL(/\/question#/);
    await page.getByTestId('results-grid').waitFor();
    const adhoc = await download();
    const apiAdhoc = await admin.post('/api/dataset/csv', undefined, form({ format_rows: 'true', query: JSON.stringify(orders.dataset_query), visualization_settings: JSON.stringify(orders.visualization_settings) }));
    assert.ok(adhoc.bytes.equals(Buffer.from(apiAdhoc.text)), 'the new question CSV equals the API');
  });

  test('"View the SQL" shows the SQL the server runs; the bookmark button bookmarks and unbookmarks', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url(`/question/${orders.id}`));
    await page.getByTestId('results-grid').waitFor();
    await page.getByRole('button', { name: 'View the SQL' }).click();
    const sql = ok(await admin.post('/api/dataset/native', orders.dataset_query)).body.query;
    const shown = page.getByTestId('native-sql');
    await shown.waitFor();
    assert.equal(await shown.textContent(), sql);
    await screenshot('question-view-sql');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: '☆ Bookmark' }).click();
    await page.getByRole('button', { name: '★ Bookmarked' }).waitFor();
    const marks = ok(await admin.get('/api/bookmark')).body;
    assert.ok(marks.some((b: any) => b.type === 'card' && b.item_id === orders.id));
    await page.getByRole('button', { name: '★ Bookmarked' }).click();
    await page.getByRole('button', { name: '☆ Bookmark' }).waitFor();
    assert.ok(!ok(await admin.get('/api/bookmark')).body.some((b: any) => b.item_id === orders.id));
  });

  test('a card parameter typed in filters the rows as the API does', async () => {
    const { page, url, screenshot } = session();
    const parameters = [{ id: 'catp', type: 'category', target: byCategory.parameters[0].target, value: ['Widget'] }];
    const expected = ok(await admin.post(`/api/card/${byCategory.id}/query`, { parameters })).body.data.rows.length;
    const all = ok(await admin.post(`/api/card/${byCategory.id}/query`)).body.data.rows.length;
    assert.ok(expected > 0 && expected < all);
    await page.goto(url(`/question/${byCategory.id}`));
    await page.getByTestId('results-grid').waitFor();
    assert.equal(await page.getByTestId('row-count').textContent(), `Showing ${all} rows`);
    await page.getByTestId('parameter-category').fill('Widget');
    await page.getByTestId('parameter-category').press('Enter');
    await page.getByTestId('row-count').filter({ hasText: `Showing ${expected} rows` }).waitFor();
    assert.deepEqual([...new Set(await columnTexts('Category'))], ['Widget']);
    await screenshot('question-parameter');
  });
});
