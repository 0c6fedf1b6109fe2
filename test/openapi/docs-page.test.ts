// GET /api/docs in a real browser (Chromium): the page draws the document's areas and operations, filters them as
// the user types, shows an operation's parameters, auth and responses, and fetches nothing but the server's own
// document (no CDN, so it works with no internet).

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { forEachAppDb } from '../helpers/server.js';

forEachAppDb('the API docs page', (server) => {
  let browser: Browser;

  before(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  });

  after(async () => {
    await browser?.close();
  });

  test('is served to anyone as HTML that references nothing outside the server', async () => {
    const response = await server().anon.get('/api/docs');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.doesNotMatch(response.text, /(src|href)=["']?(https?:)?\/\//);
    assert.doesNotMatch(response.text, /@import|url\(/);
  });

  test('lists the areas, filters operations, and shows one operation in full', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route('**/*', (route) => {
      if (route.request().url().startsWith(server().url)) return route.continue();
      elsewhere.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${server().url}/api/docs`);
    await page.waitForSelector('details.op');

    const areas = await page.locator('nav a').allTextContents();
    assert.ok(areas.length > 30, areas.join(', '));
    assert.ok(areas.some((a) => /^\/api\/card \(\d+\)$/.test(a)), areas.join(', '));
    assert.match(await page.locator('#title').textContent() ?? '', /^Quarry API v/);

    await page.fill('#search', 'post card-id query');
    const visible = await page.locator('details.op:visible summary .path').allTextContents();
    assert.ok(visible.includes('/api/card/{card-id}/query'), visible.join(', '));
    assert.ok(visible.every((path) => path.includes('{card-id}') && path.includes('query')), visible.join(', '));
    assert.equal(await page.locator('section:visible h2', { hasText: '/api/user' }).count(), 0);

    const run = page.locator('details.op:visible', { has: page.locator('.path', { hasText: /^\/api\/card\/\{card-id\}\/query$/ }) });
    assert.equal(await run.locator('.method').textContent(), 'POST');
    assert.equal(await run.locator('.auth').textContent(), 'signed in');
    await run.locator('summary').click();
    // The page fills an operation on its 'toggle' event, which the browser fires as a task after the click.
    await run.locator('h4', { hasText: 'Responses' }).waitFor();
    const text = (await run.textContent()) ?? '';
    assert.match(text, /card-idpathinteger \(≥ 1, ≤ 2147483647\)required/);
    assert.match(text, /ignore_cacheboolean \| null/);
    assert.match(text, /202The results/);
    assert.match(text, /401No valid session/);

    await page.fill('#search', '');
    const all = await page.locator('details.op:visible').count();
    const documented = Object.values((await server().anon.get('/api/docs/openapi.json')).body.paths).reduce(
      (n: number, item) => n + Object.keys(item as object).length,
      0,
    );
    assert.equal(all, documented);

    assert.deepEqual(elsewhere, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
