// The SQL editor in a real browser, on the Sample Database: a {{variable}} becomes a widget whose value changes the
// number shown (checked against the API's answer), autocomplete offers a table of the database, a syntax error shows
// the database's own message with its line highlighted, a snippet is inserted from the sidebar, and a field filter
// picks its field and a value from the field's values.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBrowser } from './browser.js';
import { setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { editorText, numberOf, openNewSqlQuery, runAndRead, signIn, writeSql } from './sql-editor-helpers.js';

forEachBrowser('SQL editor', (session) => {
  let admin: Client;
  let sample: Sample;

  const apiCount = async (query: string, tags: Record<string, unknown>, parameters: unknown[]) => {
    const r = await admin.post('/api/dataset', { database: sample.id, type: 'native', native: { query, 'template-tags': tags }, parameters });
    assert.equal(r.body.status, 'completed', r.text);
    return Number(r.body.data.rows[0][0]);
  };

  before(async () => {
    admin = await setupAdmin(session().server);
    sample = await installSample(admin);
    await signIn(session(), admin);
  });

  test('a {{variable}} becomes a number widget; the count shown is the API\'s for the value typed', async () => {
    const { page, screenshot } = session();
    await openNewSqlQuery(session(), 'Sample Database');
    const sql = 'SELECT count(*) AS N FROM ORDERS WHERE TOTAL > {{min_total}}';
    await writeSql(page, sql);
    await page.getByTestId('tag-settings-min_total').waitFor();
    await page.getByRole('textbox', { name: 'Type of min_total' }).click();
    await page.getByRole('option', { name: 'Number', exact: true }).click();
    await page.getByLabel('Min Total', { exact: true }).fill('100');
    const [[shown]] = await runAndRead(page);
    const expected = await apiCount(sql, { min_total: { id: 'x', name: 'min_total', 'display-name': 'Min Total', type: 'number' } }, [{ type: 'number/=', target: ['variable', ['template-tag', 'min_total']], value: 100 }]);
    assert.ok(expected > 0);
    assert.equal(numberOf(shown), expected);
    await screenshot('sql-editor-variable');

    await page.getByLabel('Min Total', { exact: true }).fill('150');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const next = await apiCount(sql, { min_total: { id: 'x', name: 'min_total', 'display-name': 'Min Total', type: 'number' } }, [{ type: 'number/=', target: ['variable', ['template-tag', 'min_total']], value: 150 }]);
    assert.ok(next < expected);
    await page.getByTestId('scalar-value').filter({ hasText: new RegExp(`^${next.toLocaleString('en-US')}$`) }).waitFor();
    assert.deepEqual(session().pageErrors, [], 'the page logged no errors');
  });

  test('autocomplete offers the database\'s table as the name is typed', async () => {
    const { page, screenshot } = session();
    await openNewSqlQuery(session(), 'Sample Database');
    await writeSql(page, 'SELECT * FROM ');
    await page.keyboard.type('ORDE');
    const option = page.locator('.cm-tooltip-autocomplete li[role="option"]').filter({ has: page.locator('.cm-completionLabel', { hasText: /^ORDERS$/ }) });
    await option.waitFor();
    assert.equal(await option.locator('.cm-completionDetail').textContent(), 'table');
    await screenshot('sql-editor-autocomplete');
    await option.click();
    assert.equal(await editorText(page), 'SELECT * FROM ORDERS');
    // New → SQL query again starts a fresh query (the URL's hash held the one being written).
    await page.waitForURL((u) => Buffer.from(decodeURIComponent(u.hash.slice(1)), 'base64').toString().includes('FROM ORDERS'));
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByRole('menuitem', { name: 'SQL query' }).click();
    await page.locator('.cm-placeholder').waitFor(); // shown only while the SQL is empty
    assert.deepEqual(session().pageErrors, [], 'the page logged no errors');
  });

  test('a syntax error shows the database\'s message, and the line it points at is highlighted', async () => {
    const { page, screenshot } = session();
    await openNewSqlQuery(session(), 'Sample Database');
    const sql = 'SELECT *\nFORM ORDERS\nLIMIT 5';
    await writeSql(page, sql);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const api = await admin.post('/api/dataset', { database: sample.id, type: 'native', native: { query: sql } });
    assert.equal(api.body.status, 'failed');
    const alert = page.getByTestId('query-error');
    await alert.waitFor();
    assert.ok((await alert.textContent())!.includes(api.body.error), `the page shows the database's message: ${api.body.error}`);
    await page.locator('.cm-line[data-error-line="2"]').waitFor();
    assert.equal(await page.locator('.cm-line.cm-error-line').textContent(), 'FORM ORDERS');
    await screenshot('sql-editor-error');
    // Fixing the SQL clears the highlight (it pointed into the old text).
    await page.locator('.cm-content').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    assert.equal(await page.locator('.cm-error-line').count(), 0);
    assert.deepEqual(session().pageErrors, [], 'the page logged no errors');
  });

  test('a snippet, offered after {{snippet: or clicked in the sidebar, goes into the SQL as {{snippet: name}} and runs', async () => {
    const { page } = session();
    const created = await admin.post('/api/native-query-snippet', { name: 'Big orders', content: 'TOTAL > 120' });
    assert.equal(created.status, 200, created.text);
    await openNewSqlQuery(session(), 'Sample Database');
    // Typed: after `{{snippet:` the editor offers the snippets' names.
    await writeSql(page, 'SELECT count(*) FROM ORDERS WHERE ');
    await page.keyboard.type('{{snippet: Bi');
    await page.locator('.cm-tooltip-autocomplete li[role="option"]').filter({ hasText: 'Big orders' }).click();
    assert.equal(await editorText(page), 'SELECT count(*) FROM ORDERS WHERE {{snippet: Big orders}}');
    // Or clicked in the sidebar.
    await writeSql(page, 'SELECT count(*) FROM ORDERS WHERE ');
    await page.getByRole('button', { name: 'Insert snippet Big orders' }).click();
    assert.equal(await editorText(page), 'SELECT count(*) FROM ORDERS WHERE {{snippet: Big orders}}');
    const [[shown]] = await runAndRead(page);
    assert.equal(numberOf(shown), await apiCount('SELECT count(*) FROM ORDERS WHERE TOTAL > 120', {}, []));
    assert.deepEqual(session().pageErrors, [], 'the page logged no errors');
  });

  test('a field filter: its field picked from the database, its value from the field\'s values', async () => {
    const { page, screenshot } = session();
    await openNewSqlQuery(session(), 'Sample Database');
    const sql = 'SELECT count(*) FROM PRODUCTS WHERE {{category}}';
    await writeSql(page, sql);
    await page.getByRole('textbox', { name: 'Type of category' }).click();
    await page.getByRole('option', { name: 'Field filter' }).click();
    await page.getByRole('textbox', { name: 'Field of category' }).fill('PRODUCTS.CATEG');
    await page.getByRole('option', { name: 'PRODUCTS.CATEGORY', exact: true }).click();
    await page.getByRole('textbox', { name: 'Category', exact: true }).click();
    await page.getByRole('option', { name: 'Gizmo', exact: true }).click();
    await page.keyboard.press('Escape');
    const [[shown]] = await runAndRead(page);
    const tags = { category: { id: 'c', name: 'category', 'display-name': 'Category', type: 'dimension', dimension: ['field', sample.field('PRODUCTS', 'CATEGORY'), null], 'widget-type': 'string/=' } };
    const expected = await apiCount(sql, tags, [{ type: 'string/=', target: ['dimension', ['template-tag', 'category']], value: ['Gizmo'] }]);
    const all = await apiCount('SELECT count(*) FROM PRODUCTS', {}, []);
    assert.ok(expected > 0 && expected < all);
    assert.equal(numberOf(shown), expected);
    await screenshot('sql-editor-field-filter');
    assert.deepEqual(session().pageErrors, [], 'the page logged no errors');
  });
});
