// First run and sign-in in a real browser: /setup creates the admin, names the site and connects a first database;
// sign out; a wrong password and the login throttle read as the server words them; a signed-out visit to a page
// goes through sign-in and back to that page. The links Quarry mails (password reset, unsubscribe) open their pages.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { forEachBrowser } from './browser.js';
import { ADMIN, setupAdmin } from '../helpers/server.js';
import { emailChannel, subscriptionBody } from '../notify/fixtures.js';
import { installSample } from '../cards/sample.js';
import { unsubscribeHash } from '../../src/notify/unsubscribe.js';

function makeSqliteFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'quarry-web-db-')), 'birds.sqlite');
  const db = new Database(file);
  db.exec("CREATE TABLE birds (id INTEGER PRIMARY KEY, name TEXT, wingspan_cm REAL); INSERT INTO birds (name, wingspan_cm) VALUES ('Toucan', 58), ('Heron', 180);");
  db.close();
  return file;
}

forEachBrowser('setup, sign-in and sign-out', (session) => {
  let birdsFile: string;
  before(() => {
    birdsFile = makeSqliteFile();
  });

  test('the first visit goes to /setup, which creates the admin, names the site and connects a first database', async () => {
    const { page, url, server, screenshot } = session();
    await page.goto(url('/'));
    await page.waitForURL(/\/setup$/);
    await page.getByLabel('First name').fill(ADMIN.first_name);
    await page.getByLabel('Last name').fill(ADMIN.last_name);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Company or team name').fill('Birdwatch Inc');
    await page.getByLabel('Create a password').fill(ADMIN.password);
    await page.getByLabel('Confirm your password').fill(ADMIN.password + 'x');
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm your password').fill(ADMIN.password);
    await screenshot('setup');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Add your data' }).waitFor();
    await page.getByRole('textbox', { name: 'Database type' }).click();
    await page.getByRole('option', { name: 'SQLite' }).click();
    await page.getByLabel('Display name').fill('Birds');
    await page.getByLabel('Filename').fill(birdsFile);
    await page.getByRole('button', { name: 'Connect database' }).click();
    await page.waitForURL(url('/'));
    await page.getByRole('heading', { name: `Hello, ${ADMIN.first_name}` }).waitFor();
    assert.equal(await page.getByRole('banner').getByText('Birdwatch Inc').count(), 1, 'the header shows the site name');
    await screenshot('home-after-setup');

    // What the browser did is what the API now says.
    const props = await server.anon.get('/api/session/properties');
    assert.equal(props.body['has-user-setup'], true);
    assert.equal(props.body['site-name'], 'Birdwatch Inc');
    const login = await server.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
    const databases = (await server.anon.withSession(login.body.id).get('/api/database')).body.data;
    assert.deepEqual(databases.map((d: any) => [d.name, d.engine, d.details.db]), [['Birds', 'sqlite', birdsFile]]);
  });

  test('/setup after setup goes home; sign out from the account menu lands on sign-in', async () => {
    const { page, url } = session();
    await page.goto(url('/setup'));
    await page.waitForURL(url('/'));
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/login$/);
    await page.getByRole('heading', { name: 'Sign in to Birdwatch Inc' }).waitFor();
    const cookies = await page.context().cookies();
    assert.equal(cookies.find((c) => c.name === 'metabase.SESSION')?.value ?? '', '', 'the session cookie is gone');
  });

  test('a wrong password is refused with the server\'s message; a page visited signed out comes back after sign-in', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url('/browse/databases'));
    await page.waitForURL(/\/auth\/login\?redirect=%2Fbrowse%2Fdatabases$/);
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill('not-the-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('did not match stored password').waitFor();
    await screenshot('login-wrong-password');
    assert.match(page.url(), /\/auth\/login/);

    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/browse/databases'));
    await page.getByTestId('database-card').filter({ hasText: 'Birds' }).waitFor();
  });

  test('a session that ends while the app is open sends the next page that needs it to sign-in, and back', async () => {
    const { page, url, server } = session();
    const login = await server.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password });
    await session().signIn(login.body.id);
    await page.goto(url('/'));
    await page.getByRole('heading', { name: `Hello, ${ADMIN.first_name}` }).waitFor();
    // The home page's sections load after its heading; one still loading when the session ends would send the app
    // to sign-in before the click this test makes.
    await page.waitForLoadState('networkidle');
    assert.equal((await server.anon.withSession(login.body.id).delete('/api/session')).status, 204);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
    await page.waitForURL(/\/auth\/login\?redirect=%2Fcollection%2Froot$/);
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/collection/root'));
    await page.getByRole('heading', { name: 'Our analytics' }).waitFor();
  });

  test('after too many failed attempts the login throttle\'s wait is shown', async () => {
    const { page, url, server } = session();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/login$/);
    const victim = 'someone.throttled@example.com';
    for (let i = 0; i < 10; i++) await server.anon.post('/api/session', { username: victim, password: 'wrong-' + i });
    await page.goto(url('/auth/login'));
    await page.getByLabel('Email address').fill(victim);
    await page.getByLabel(/^Password/).fill('wrong-again-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/Too many attempts! You must wait \d+ seconds before trying again\./).waitFor();
  });
});

forEachBrowser('password reset, sign-out link and unsubscribe link', (session) => {
  test('forgot password: the emailed link sets a new password and signs in; used twice, it says it expired', async () => {
    const { page, url, server, screenshot } = session();
    await setupAdmin(server);
    await page.goto(url('/auth/login'));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(url('/auth/forgot_password'));
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByRole('button', { name: 'Send password reset email' }).click();
    await page.getByText(`If an account uses ${ADMIN.email}, a link to reset its password is on its way.`).waitFor();
    const mail = server.mail.find((m) => m.to === ADMIN.email || (Array.isArray(m.to) && m.to.includes(ADMIN.email)));
    const link = /(\/auth\/reset_password\/\S+)/.exec(String(mail?.text))![1];

    await page.goto(url(link));
    await page.getByLabel(/^Create a password/).fill('A-new-passw0rd!');
    await page.getByLabel(/^Confirm your password/).fill('A-new-passw0rd!');
    await screenshot('reset-password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.waitForURL(url('/'));
    await page.getByRole('heading', { name: `Hello, ${ADMIN.first_name}` }).waitFor();
    assert.equal((await server.anon.post('/api/session', { username: ADMIN.email, password: 'A-new-passw0rd!' })).status, 200);

    await page.goto(url(link));
    await page.getByText('This reset link has expired or was already used.').waitFor();
  });

  test('/auth/logout signs out', async () => {
    const { page, url } = session();
    await page.goto(url('/auth/logout'));
    await page.waitForURL(url('/auth/login'));
    await page.goto(url('/'));
    await page.waitForURL(/\/auth\/login\?redirect=%2F$/);
  });

  test('the unsubscribe link of a subscription email stops the emails to that address, and can be undone', async () => {
    const { page, url, server } = session();
    const admin = server.anon.withSession((await server.anon.post('/api/session', { username: ADMIN.email, password: 'A-new-passw0rd!' })).body.id);
    const sample = await installSample(admin);
    const card = (await admin.post('/api/card', {
      name: 'Product count',
      display: 'scalar',
      visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']] } },
    })).body;
    const created = (await admin.post('/api/dashboard', { name: 'Weekly numbers' })).body;
    const dashboard = (await admin.put(`/api/dashboard/${created.id}`, { dashcards: [{ id: -1, card_id: card.id, row: 0, col: 0, size_x: 4, size_y: 3 }] })).body;
    const pulse = await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ email: 'reader@example.com' }])]));
    assert.equal(pulse.status, 200, pulse.text);
    const hash = await unsubscribeHash(server.ctx, 'reader@example.com', pulse.body.id);
    await page.goto(url(`/unsubscribe?${new URLSearchParams({ hash, email: 'reader@example.com', 'pulse-id': String(pulse.body.id) })}`));
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText('reader@example.com won\'t receive “Weekly numbers” any more.').waitFor();
    assert.deepEqual((await admin.get(`/api/pulse/${pulse.body.id}`)).body.channels[0].recipients, []);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('reader@example.com is subscribed to “Weekly numbers” again.').waitFor();
    assert.deepEqual((await admin.get(`/api/pulse/${pulse.body.id}`)).body.channels[0].recipients.map((r: any) => r.email), ['reader@example.com']);
  });
});
