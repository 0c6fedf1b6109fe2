// The SQL editor's run, cancel and save in a real browser: a slow query on a PostgreSQL data source is cancelled from
// the page and PostgreSQL no longer runs it (pg_stat_activity); a question with a variable is saved into a
// collection, reopened at its URL with its SQL and widget, and saved again after an edit.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { forEachBrowser } from './browser.js';
import { setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { PG } from '../helpers/databases.js';
import { registerWarehouses, sampleDetails } from '../query/helpers/warehouses.js';
import { installSample } from '../cards/sample.js';
import { editorText, numberOf, openNewSqlQuery, runAndRead, signIn, writeSql } from './sql-editor-helpers.js';

/** Statements PostgreSQL is running in `dbname` whose text contains `marker`. */
async function running(dbname: string, marker: string): Promise<number> {
  const c = new pg.Client({ ...PG, database: 'postgres' });
  await c.connect();
  try {
    const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query LIKE $2 AND pid <> pg_backend_pid()", [dbname, `%${marker}%`]);
    return r.rows[0].n;
  } finally {
    await c.end();
  }
}

async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(what);
}

forEachBrowser('SQL editor: cancel, save and reopen', (session) => {
  let admin: Client;
  let pgName: string;

  let sampleId: number;
  /** The count the API gives for the saved question's SQL with min_total = `value`. */
  const apiCount = async (sql: string, value: number) => {
    const tags = { min_total: { id: 'm', name: 'min_total', 'display-name': 'Min Total', type: 'number' } };
    const r = await admin.post('/api/dataset', { database: sampleId, type: 'native', native: { query: sql, 'template-tags': tags }, parameters: [{ type: 'number/=', target: ['variable', ['template-tag', 'min_total']], value }] });
    assert.equal(r.body.status, 'completed', r.text);
    return Number(r.body.data.rows[0][0]);
  };

  before(async () => {
    admin = await setupAdmin(session().server);
    sampleId = (await installSample(admin)).id;
    await registerWarehouses(session().server, admin, ['postgres']);
    pgName = String((await sampleDetails('postgres')).dbname);
    await signIn(session(), admin);
  });

  test('Cancel stops a slow query on PostgreSQL: the page says so and the database no longer runs it', async () => {
    const { page, screenshot } = session();
    await openNewSqlQuery(session(), 'Sample postgres');
    assert.equal(await page.getByTestId('sql-editor').getAttribute('data-engine'), 'postgres');
    const marker = `websql_cancel_${randomBytes(4).toString('hex')}`;
    await writeSql(page, `SELECT pg_sleep(60) AS ${marker}`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('query-running').waitFor();
    await eventually(async () => (await running(pgName, marker)) === 1, 'the query runs on PostgreSQL');
    await screenshot('sql-editor-running');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByTestId('query-cancelled').waitFor();
    await eventually(async () => (await running(pgName, marker)) === 0, 'PostgreSQL stopped the query');
    // The editor is ready for the next run.
    await writeSql(page, 'SELECT count(*) FROM "PEOPLE"');
    const [[count]] = await runAndRead(page);
    assert.ok(numberOf(count) > 0);
    assert.deepEqual(session().pageErrors, [], 'the page logged no errors');
  });

  test('a new SQL question is saved into a collection, reopened at its URL with its SQL and widget, and saved again', async () => {
    const { page, url, screenshot } = session();
    const collection = (await admin.post('/api/collection', { name: 'SQL things', parent_id: null })).body;
    await openNewSqlQuery(session(), 'Sample Database');
    const sql = 'SELECT count(*) FROM ORDERS WHERE TOTAL > {{min_total}}';
    await writeSql(page, sql);
    await page.getByRole('textbox', { name: 'Type of min_total' }).click();
    await page.getByRole('option', { name: 'Number', exact: true }).click();
    // A default, used while the widget is left empty.
    await page.getByRole('textbox', { name: 'Default of min_total' }).fill('100');
    const [[before]] = await runAndRead(page);
    assert.equal(numberOf(before), await apiCount(sql, 100));

    // Unsaved, the question lives in its URL: a reload brings back the SQL, the database and the variable's type.
    const hashQuery = () => page.evaluate(() => {
      const hash = String((globalThis as { location?: { hash: string } }).location?.hash ?? '').slice(1);
      return hash ? JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)))).dataset_query.native.query : null;
    });
    await eventually(async () => (await hashQuery()) === sql, 'the URL carries the SQL');
    await page.reload();
    await page.locator('.cm-content').waitFor();
    assert.equal(await editorText(page), sql);
    assert.equal(await page.getByRole('textbox', { name: 'Database', exact: true }).inputValue(), 'Sample Database');
    assert.equal(await page.getByRole('textbox', { name: 'Type of min_total' }).inputValue(), 'Number');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save new question' });
    await dialog.getByLabel('Name').fill('Big orders count');
    await dialog.getByRole('textbox', { name: 'Collection' }).click();
    await page.getByRole('option', { name: 'SQL things', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/question\/\d+-big_orders_count$/);
    const id = Number(/\/question\/(\d+)-/.exec(page.url())![1]);

    const card = (await admin.get(`/api/card/${id}`)).body;
    assert.equal(card.name, 'Big orders count');
    assert.equal(card.collection_id, collection.id);
    assert.equal(card.dataset_query.type, 'native');
    assert.equal(card.dataset_query.native.query, sql);
    const tag = card.dataset_query.native['template-tags'].min_total;
    assert.deepEqual([tag.name, tag.type, tag['display-name'], tag.default], ['min_total', 'number', 'Min Total', 100]);

    await page.goto(url(`/question/${id}`));
    await page.getByRole('heading', { name: 'Big orders count' }).waitFor();
    await page.locator('.cm-content').waitFor();
    assert.equal(await editorText(page), sql);
    const [[again]] = await runAndRead(page);
    assert.equal(again, before, 'the saved default applies');
    // A value typed in wins over the default; Ctrl+Enter in the editor runs.
    await page.getByLabel('Min Total', { exact: true }).fill('150');
    await page.locator('.cm-content').press('Control+Enter');
    await page.getByTestId('scalar-value').filter({ hasText: new RegExp(`^${(await apiCount(sql, 150)).toLocaleString('en-US')}$`) }).waitFor();
    await screenshot('sql-editor-saved');

    await writeSql(page, 'SELECT count(*) FROM ORDERS WHERE TOTAL >= {{min_total}}');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog', { name: 'Save changes' }).getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const updated = (await admin.get(`/api/card/${id}`)).body;
    assert.equal(updated.dataset_query.native.query, 'SELECT count(*) FROM ORDERS WHERE TOTAL >= {{min_total}}');
    assert.equal(updated.dataset_query.native['template-tags'].min_total.type, 'number', 'the tag kept its settings');
    assert.equal(updated.collection_id, collection.id);
    assert.deepEqual(session().pageErrors, [], 'the page logged no errors');
  });
});
