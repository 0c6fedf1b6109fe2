// Collections in a real browser: create, rename, move and trash a collection; pin an item (a pinned question shows
// its number, the API's), move it between collections, trash it, restore it, delete it for good.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBrowser } from './browser.js';
import { setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample } from '../cards/sample.js';

forEachBrowser('collections', (session) => {
  let admin: Client;
  let card: any;
  let ordersCount: number;
  let financeId: number;

  before(async () => {
    const { server, signIn } = session();
    admin = await setupAdmin(server);
    const sample = await installSample(admin);
    card = (await admin.post('/api/card', {
      name: 'Orders count',
      display: 'scalar',
      visualization_settings: {},
      collection_id: null,
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), aggregation: [['count']] } },
    })).body;
    await admin.post('/api/dashboard', { name: 'Sales overview', collection_id: null });
    ordersCount = (await admin.post(`/api/card/${card.id}/query`)).body.data.rows[0][0];
    await signIn(admin.session!);
  });

  const row = (name: string) => session().page.getByTestId('item-row').filter({ hasText: name });

  test('the root collection lists its items; a new collection is created inside it and opened', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url('/collection/root'));
    await page.getByRole('heading', { name: 'Our analytics' }).waitFor();
    await row('Orders count').waitFor();
    await row('Sales overview').getByText('Dashboard').waitFor();
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Finance');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/collection\/\d+-finance$/);
    await page.getByRole('heading', { name: 'Finance' }).waitFor();
    financeId = Number(/\/collection\/(\d+)/.exec(page.url())![1]);
    const saved = (await admin.get(`/api/collection/${financeId}`)).body;
    assert.equal(saved.name, 'Finance');
    assert.equal(saved.location, '/');
    await screenshot('collection-new');
  });

  test('rename a collection', async () => {
    const { page } = session();
    await page.getByRole('button', { name: 'Collection actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Finance team');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Finance team' }).waitFor();
    assert.equal((await admin.get(`/api/collection/${financeId}`)).body.name, 'Finance team');
  });

  test('move a question into another collection, pin it there: it shows its count', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url('/collection/root'));
    await row('Orders count').getByRole('button', { name: 'Actions for Orders count' }).click();
    await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
    await page.getByRole('textbox', { name: 'Collection' }).click();
    await page.getByRole('option', { name: 'Our analytics / Finance team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
    await row('Orders count').waitFor({ state: 'detached' });
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.collection_id, financeId);

    await page.goto(url(`/collection/${financeId}`));
    await row('Orders count').getByRole('button', { name: 'Actions for Orders count' }).click();
    await page.getByRole('menuitem', { name: 'Pin this item' }).click();
    const pinned = page.getByTestId('pinned-item').filter({ hasText: 'Orders count' });
    await pinned.getByTestId('scalar-value').filter({ hasText: ordersCount.toLocaleString('en-US') }).waitFor();
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.collection_position, 1);
    await screenshot('collection-pinned');
  });

  test('trash an item, find it in the trash, restore it; trash it again and delete it for good', async () => {
    const { page, url, screenshot } = session();
    const pinned = page.getByTestId('pinned-item').filter({ hasText: 'Orders count' });
    await pinned.getByRole('button', { name: 'Actions for Orders count' }).click();
    await page.getByRole('menuitem', { name: 'Move to trash' }).click();
    await pinned.waitFor({ state: 'detached' });
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.archived, true);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL(url('/trash'));
    await row('Orders count').waitFor();
    await screenshot('trash');
    await page.getByRole('button', { name: 'Restore Orders count' }).click();
    await row('Orders count').waitFor({ state: 'detached' });
    const restored = (await admin.get(`/api/card/${card.id}`)).body;
    assert.equal(restored.archived, false);
    assert.equal(restored.collection_id, financeId, 'restored where it was');

    assert.equal((await admin.put(`/api/card/${card.id}`, { archived: true })).status, 200);
    await page.reload();
    await page.getByRole('button', { name: 'Delete Orders count permanently' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete permanently' }).click();
    await row('Orders count').waitFor({ state: 'detached' });
    assert.equal((await admin.get(`/api/card/${card.id}`)).status, 404);
  });

  test('move a collection into another, then to the trash', async () => {
    const { page, url } = session();
    const archive = (await admin.post('/api/collection', { name: 'Archive 2025', parent_id: null })).body;
    await page.goto(url(`/collection/${financeId}`));
    await page.getByRole('button', { name: 'Collection actions' }).click();
    await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
    await page.getByRole('textbox', { name: 'Collection' }).click();
    assert.equal(await page.getByRole('option', { name: 'Our analytics / Finance team' }).count(), 0, 'not into itself');
    await page.getByRole('option', { name: 'Our analytics / Archive 2025' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
    await page.getByRole('link', { name: 'Archive 2025' }).waitFor();
    assert.equal((await admin.get(`/api/collection/${financeId}`)).body.location, `/${archive.id}/`);

    await page.getByRole('button', { name: 'Collection actions' }).click();
    await page.getByRole('menuitem', { name: 'Move to trash' }).click();
    await page.waitForURL(new RegExp(`/collection/${archive.id}-archive_2025$`));
    assert.equal((await admin.get(`/api/collection/${financeId}`)).body.archived, true);
    await page.goto(url('/trash'));
    await row('Finance team').getByText('Collection').waitFor();
  });
});
