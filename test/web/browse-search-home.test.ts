// Finding things in a real browser: the home page (recently viewed, popular, collections, and — when the server has
// them — suggested x-rays and the plain-words question box), browsing a database's tables to a new question on one,
// and the search box with results grouped by type.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBrowser } from './browser.js';
import { setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';

forEachBrowser('home, browse and search', (session) => {
  let admin: Client;
  let sample: Sample;
  let card: any;
  let dashboard: any;

  before(async () => {
    const { server, signIn } = session();
    admin = await setupAdmin(server);
    sample = await installSample(admin);
    card = (await admin.post('/api/card', {
      name: 'Orders per month',
      display: 'line',
      visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), aggregation: [['count']], breakout: [['field', sample.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]] } },
    })).body;
    dashboard = (await admin.post('/api/dashboard', { name: 'Orders overview' })).body;
    // What makes items recent and popular: viewing the dashboard and the question, running the question.
    await admin.get(`/api/dashboard/${dashboard.id}`);
    await admin.get(`/api/card/${card.id}`);
    await admin.post(`/api/card/${card.id}/query`);
    await signIn(admin.session!);
  });

  test('home: recently viewed and popular items link to their pages; the top-level collections are listed', async () => {
    const { page, url, screenshot } = session();
    const recents = (await admin.get('/api/activity/recent_views')).body.recent_views.map((i: any) => i.name);
    assert.ok(recents.includes('Orders per month') && recents.includes('Orders overview'));
    await page.goto(url('/'));
    const recent = page.getByTestId('recent-views');
    await recent.getByRole('link', { name: 'Orders per month' }).waitFor();
    assert.match((await recent.getByRole('link', { name: 'Orders per month' }).getAttribute('href'))!, new RegExp(`^/question/${card.id}-orders_per_month$`));
    assert.equal(await recent.getByRole('link', { name: 'Orders overview' }).getAttribute('href'), `/dashboard/${dashboard.id}-orders_overview`);
    const popular = (await admin.get('/api/activity/popular_items')).body.popular_items.map((i: any) => i.name);
    for (const name of popular) await page.getByTestId('popular-items').getByRole('link', { name }).waitFor();
    await page.getByTestId('home-collections').getByRole('link', { name: 'Our analytics' }).waitFor();
    await screenshot('home');
  });

  test('home: suggested x-rays and the question box appear exactly when the server has those endpoints', async () => {
    const { page, url } = session();
    const candidates = await admin.get(`/api/automagic-dashboards/database/${sample.id}/candidates`);
    const assistant = await admin.post(`/api/assistant/database/${sample.id}`, {});
    await page.goto(url('/'));
    await page.getByTestId('recent-views').waitFor();
    await page.getByTestId('popular-items').waitFor();
    if (candidates.status === 404) {
      assert.equal(await page.getByTestId('xray-suggestions').count(), 0);
    } else {
      const first = candidates.body[0].tables[0];
      await page.getByTestId('xray-suggestions').getByRole('link', { name: `A look at ${first.title}` }).waitFor();
    }
    if (assistant.status === 404) {
      assert.equal(await page.getByTestId('ask-box').count(), 0);
    } else {
      await page.getByLabel('Your question').fill('How many orders are there?');
      await page.getByRole('button', { name: 'Ask' }).click();
      await page.waitForURL(/\/question#/);
      const asked = JSON.parse(Buffer.from(new URL(page.url()).hash.slice(1), 'base64').toString('utf8'));
      assert.equal(asked.dataset_query.database, sample.id);
    }
  });

  test('browse: databases → the sample database\'s tables → a table opens as a new question on it', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url('/'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Databases' }).click();
    await page.waitForURL(url('/browse/databases'));
    await page.getByTestId('database-card').filter({ hasText: 'Sample Database' }).click();
    await page.waitForURL(new RegExp(`/browse/databases/${sample.id}-sample_database$`));
    const tables = (await admin.get(`/api/database/${sample.id}`, { query: { include: 'tables' } })).body.tables.map((t: any) => t.display_name);
    for (const name of tables) await page.getByTestId('table-card').filter({ hasText: name }).first().waitFor();
    assert.equal(await page.getByTestId('table-card').count(), tables.length);
    await screenshot('browse-tables');
    await page.getByTestId('table-card').filter({ has: page.getByText('Orders', { exact: true }) }).click();
    await page.waitForURL(/\/question#/);
    const question = JSON.parse(Buffer.from(new URL(page.url()).hash.slice(1), 'base64').toString('utf8'));
    assert.deepEqual(question.dataset_query, { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS') } });
    assert.equal(question.display, 'table');
  });

  test('search: the header\'s box lists results grouped by type, each linking to its page', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url('/'));
    await page.getByRole('searchbox', { name: 'Search' }).or(page.getByRole('textbox', { name: 'Search' })).fill('orders');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/search?q=orders'));
    await page.getByRole('heading', { name: 'Results for “orders”' }).waitFor();
    const results = (await admin.get('/api/search', { query: { q: 'orders' } })).body.data as Array<{ model: string; name: string }>;
    const models = [...new Set(results.map((r) => r.model))];
    assert.ok(models.includes('card') && models.includes('dashboard') && models.includes('table'), models.join());
    for (const model of models) {
      const group = page.getByTestId(`search-group-${model}`);
      for (const r of results.filter((x) => x.model === model)) await group.getByRole('link', { name: r.name, exact: true }).waitFor();
    }
    await screenshot('search');
    await page.getByTestId('search-group-dashboard').getByRole('link', { name: 'Orders overview' }).click();
    await page.waitForURL(new RegExp(`/dashboard/${dashboard.id}-orders_overview$`));
  });
});
