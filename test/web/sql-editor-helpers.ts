// What the SQL-editor browser tests do over and over: sign the page in with an API session, open a new SQL query from
// the header's New menu, pick a database, write SQL into CodeMirror, run and read the result.

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { BrowserSession } from './browser.js';
import type { Client } from '../helpers/client.js';

/** Gives the browser the admin's session (the cookie POST /api/session sets). */
export async function signIn(session: BrowserSession, admin: Client): Promise<void> {
  await session.context.addCookies([{ name: 'metabase.SESSION', value: admin.session!, url: session.server.url }]);
}

/** Home → New → SQL query, then the database named `database`. */
export async function openNewSqlQuery(session: BrowserSession, database: string): Promise<void> {
  const { page, url } = session;
  await page.goto(url('/'));
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: 'SQL query' }).click();
  await page.waitForURL(/\/question#/);
  await page.getByRole('heading', { name: 'New SQL query' }).waitFor();
  await pickDatabase(page, database);
  await page.locator('.cm-content').waitFor();
}

export async function pickDatabase(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Database', exact: true }).click();
  await page.getByRole('option', { name, exact: true }).click();
  assert.equal(await page.getByRole('textbox', { name: 'Database', exact: true }).inputValue(), name);
}

/** Replaces the editor's SQL with `sql` (inserted as typed text, without the editor's bracket closing). */
export async function writeSql(page: Page, sql: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

export async function editorText(page: Page): Promise<string> {
  return page.locator('.cm-content').evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
}

/**
 * Clicks Run and waits for the result: a table's cells, row by row, or a one-cell result (drawn as a single number,
 * as Metabase draws it) as [[text]].
 */
export async function runAndRead(page: Page): Promise<string[][]> {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const results = page.getByTestId('native-results');
  const table = results.getByTestId('result-table');
  const scalar = results.getByTestId('scalar-value');
  await table.or(scalar).waitFor();
  if (await scalar.count()) return [[(await scalar.textContent()) ?? '']];
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

/** "1,234.5" → 1234.5 (the table formats numbers). */
export const numberOf = (text: string) => Number(text.replace(/,/g, ''));
