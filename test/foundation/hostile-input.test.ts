// Input that used to reach the app DB and fail there (500s, mostly on PostgreSQL): ids beyond the integer columns,
// NUL characters, values longer than their columns, huge passwords, broken URLs and bodies of the wrong type.
// Each answer must be Metabase-shaped — never a 500 — and must leave nothing half-written.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { forEachAppDb, setupAdmin, createUserClient, ADMIN } from '../helpers/server.js';
import type { ApiResponse, Client } from '../helpers/client.js';
import { registerDatabase, mbql, type DataFixture } from '../cards/fixtures.js';
import { addWarehouse, renameAction, tableModel, type Warehouse } from '../actions/fixtures.js';
import { installErrorHandling, NUMBER_OUT_OF_RANGE, VALUE_TOO_LONG } from '../../src/http/error-handler.js';

const TOO_BIG = '2147483648';
const HUGE = '99999999999999999999';

/** A 400 validation error on `path` saying the string is longer than `max` characters. */
function assertTooLong(r: ApiResponse, path: string[], max = 254): void {
  assert.equal(r.status, 400, r.text);
  let specific: any = r.body['specific-errors'];
  for (const key of path) specific = specific?.[key];
  assert.ok(Array.isArray(specific), `specific-errors.${path.join('.')} in ${r.text.slice(0, 300)}`);
  assert.ok(specific[0].startsWith(`should be at most ${max} characters, received: `), specific[0]);
}

forEachAppDb('hostile input', (server) => {
  let admin: Client;
  let data: DataFixture;
  const warehouses: Warehouse[] = [];

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });
  after(async () => {
    for (const w of warehouses) await w.drop().catch(() => {});
  });

  test('an id path param beyond 2147483647 names nothing: 404 Not found.', async () => {
    for (const path of [`/api/user/${TOO_BIG}`, `/api/user/${HUGE}`, `/api/permissions/group/${TOO_BIG}`, `/api/api-key/${TOO_BIG}`]) {
      const r = path.startsWith('/api/api-key') ? await admin.put(path, { name: 'x' }) : await admin.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.text, 'Not found.', path);
    }
    assert.equal((await admin.get('/api/user/2147483647')).status, 404, 'the largest id is a plain miss');
    assert.equal((await admin.delete(`/api/permissions/membership/${TOO_BIG}`)).status, 404);
  });

  test('ids beyond 2147483647 in bodies and query strings are the usual 400', async () => {
    const membership = await admin.post('/api/permissions/membership', { group_id: 2147483648, user_id: 1 });
    assert.equal(membership.status, 400);
    assert.equal(membership.body.errors.group_id, 'value must be an integer greater than zero.');
    assert.deepEqual(membership.body['specific-errors'].group_id, ['value must be an integer greater than zero., received: 2147483648']);
    const user = await admin.post('/api/user', { email: 'big@example.com', user_group_memberships: [{ id: 1e20 }] });
    assert.equal(user.status, 400);
    assert.ok('user_group_memberships' in user.body.errors);
    const byGroup = await admin.get('/api/user', { query: { group_id: TOO_BIG } });
    assert.equal(byGroup.status, 400);
    assert.equal(byGroup.body.errors.group_id, 'nullable value must be an integer greater than zero.');
  });

  test('huge limit and offset are a 400, on every app DB', async () => {
    for (const key of ['limit', 'offset']) {
      const r = await admin.get('/api/user', { query: { [key]: HUGE } });
      assert.equal(r.status, 400, key);
      assert.equal(r.body.errors[key], 'nullable value must be an integer greater than zero.');
    }
    const largest = await admin.get('/api/user', { query: { limit: 2147483647, offset: 2147483647 } });
    assert.equal(largest.status, 200);
    assert.deepEqual(largest.body.data, []);
  });

  test('a reset token naming an impossible user id is just an invalid token', async () => {
    const token = `${TOO_BIG}_00000000-0000-0000-0000-000000000000`;
    const valid = await server().anon.get('/api/session/password_reset_token_valid', { query: { token } });
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body, { valid: false });
    const huge = await server().anon.get('/api/session/password_reset_token_valid', { query: { token: `${HUGE}${HUGE}_00000000-0000-0000-0000-000000000000` } });
    assert.deepEqual(huge.body, { valid: false });
    const reset = await server().anon.post('/api/session/reset_password', { token, password: 'Brand-New-Pass-42' });
    assert.equal(reset.status, 400);
    assert.deepEqual(reset.body, { errors: { password: 'Invalid reset token' } });
  });

  test('NUL characters in strings are a 400 wherever they arrive', async () => {
    const nul = 'a\u0000b';
    const login = await server().anon.post('/api/session', { username: `ada${nul}@example.com`, password: 'x-1234567' });
    assert.equal(login.status, 400);
    assert.equal(login.body.errors.username, 'value must be a non-blank string.');
    assert.deepEqual(login.body['specific-errors'].username, ['should not contain NUL characters, received: "adaa\\u0000b@example.com"']);
    const loginPassword = await server().anon.post('/api/session', { username: ADMIN.email, password: nul });
    assert.equal(loginPassword.status, 400);
    assert.equal((await server().anon.post('/api/session/forgot_password', { email: `a${nul}@example.com` })).status, 400);
    assert.equal((await admin.post('/api/user', { email: 'nul@example.com', first_name: nul })).status, 400);
    assert.equal((await admin.post('/api/permissions/group', { name: nul })).status, 400);
    assert.equal((await admin.post('/api/api-key', { name: nul, group_id: 1 })).status, 400);
    assert.equal((await admin.get('/api/user', { query: { query: nul } })).status, 400);
    const setting = await admin.put('/api/setting/site-name', { value: nul });
    assert.equal(setting.status, 400);
    const many = await admin.put('/api/setting', { 'site-name': 'Fine', 'application-name': nul });
    assert.equal(many.status, 400);
    assert.equal((await admin.get('/api/setting/site-name')).body, 'Quarry Test', 'nothing of the batch was written');
    // Nothing was created by any of them.
    const groups = await admin.get('/api/permissions/group');
    assert.deepEqual(groups.body.map((g: any) => g.id).sort(), [1, 2]);
  });

  test('names and emails longer than their 254-character columns are a 400 naming the limit', async () => {
    const long = 'x'.repeat(255);
    const user = await admin.post('/api/user', { email: 'long@example.com', first_name: long });
    assert.equal(user.status, 400);
    assert.equal(user.body.errors.first_name, 'nullable value must be a non-blank string.');
    assert.deepEqual(user.body['specific-errors'].first_name, [`should be at most 254 characters, received: "${'x'.repeat(199)}…`]);
    const email = await admin.post('/api/user', { email: `${'e'.repeat(250)}@example.com` });
    assert.equal(email.status, 400);
    assert.equal(email.body.errors.email, 'value must be a valid email address.');
    assert.equal((await admin.post('/api/permissions/group', { name: long })).status, 400);
    assert.equal((await admin.post('/api/api-key', { name: long, group_id: 1 })).status, 400);
    const me = (await admin.get('/api/user/current')).body;
    assert.equal((await admin.put(`/api/user/${me.id}`, { last_name: long })).status, 400);
    // Exactly 254 characters fit; 254 emoji (two UTF-16 units each) are 254 characters too.
    const fits = await admin.post('/api/permissions/group', { name: '😀'.repeat(254) });
    assert.equal(fits.status, 200);
    assert.equal(fits.body.name, '😀'.repeat(254));
  });

  test('a user with two 254-character names gets a personal collection whose name fits', async () => {
    const first = 'F'.repeat(254);
    const last = 'L'.repeat(254);
    const created = await admin.post('/api/user', { email: 'longnames@example.com', first_name: first, last_name: last });
    assert.equal(created.status, 200);
    const collection = await server().ctx.db.selectFrom('collection').select('name').where('personal_owner_id', '=', created.body.id).executeTakeFirstOrThrow();
    assert.equal(collection.name.length, 254);
    assert.ok(collection.name.startsWith('FFFF'));
    assert.ok(collection.name.endsWith("'s Personal Collection"));
    const renamed = await admin.put(`/api/user/${created.body.id}`, { first_name: 'G'.repeat(254) });
    assert.equal(renamed.status, 200);
  });

  test('an over-long X-Forwarded-For or metabase.DEVICE cookie still logs in (stored cut to size)', async () => {
    const r = await server().anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password }, {
      headers: { 'X-Forwarded-For': `10.0.0.${'1'.repeat(300)}`, Cookie: `metabase.DEVICE=${'d'.repeat(200)}` },
    });
    assert.equal(r.status, 200);
    const history = await server().ctx.db.selectFrom('login_history').select(['ip_address', 'device_id']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.equal(history.ip_address!.length, 128);
    assert.equal(history.device_id, 'd'.repeat(64));
  });

  test('a password over 1 KB is refused at once, everywhere passwords are checked', async () => {
    const big = 'Aa1!'.repeat(300_000); // 1.2 MB
    for (const path of ['/api/session/password-check', '/api/util/password_check']) {
      const r = await server().anon.post(path, { password: big });
      assert.equal(r.status, 400, path);
      assert.equal(r.body.errors.password, 'password is too common.');
      assert.equal(r.body['specific-errors'].password[0].startsWith('should be at most 1024 characters, received: '), true);
      assert.ok(r.text.length < 1000, 'the password is not echoed back in full');
    }
    const login = await server().anon.post('/api/session', { username: ADMIN.email, password: big });
    assert.equal(login.status, 400);
    assert.equal(login.body.errors.password, 'value must be a non-blank string.');
    const me = (await admin.get('/api/user/current')).body;
    const change = await admin.put(`/api/user/${me.id}/password`, { password: big });
    assert.equal(change.status, 400);
    assert.equal(change.body.errors.password, 'password is too common.');
    const reset = await server().anon.post('/api/session/reset_password', { token: '1_00000000-0000-0000-0000-000000000000', password: big });
    assert.equal(reset.status, 400);
    const atLimit = await server().anon.post('/api/session/password-check', { password: 'Aa1!'.repeat(256) });
    assert.equal(atLimit.status, 200, '1024 characters are fine');
  });

  test('bodies over 10 MB are refused with 413', async () => {
    const r = await admin.post('/api/permissions/group', undefined, { raw: JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }) });
    assert.equal(r.status, 413);
    assert.equal(r.text, 'Request body is too large.');
  });

  test('a URL with broken percent-encoding is the unknown-endpoint 404, as plain text with the API headers', async () => {
    for (const path of ['/api/user/%E0%A4%A', '/api/setting/%zz', '/api/permissions/group/%']) {
      const r = await admin.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.text, 'API endpoint does not exist.');
      assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    }
  });

  test('form-encoded and text/plain bodies are refused outside the download routes', async () => {
    const form = await admin.post('/api/permissions/group', undefined, { raw: 'name=Formed', contentType: 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 400);
    assert.equal(form.text, 'Request bodies must be JSON (Content-Type: application/json).');
    const text = await admin.post('/api/permissions/group', undefined, { raw: '{"name":"Texted"}', contentType: 'text/plain' });
    assert.equal(text.status, 400);
    assert.equal(text.text, 'Request bodies must be JSON (Content-Type: application/json).');
    const login = await server().anon.post('/api/session', undefined, {
      raw: `username=${encodeURIComponent(ADMIN.email)}&password=${encodeURIComponent(ADMIN.password)}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(login.status, 400);
    const names = (await admin.get('/api/permissions/group')).body.map((g: any) => g.name);
    assert.ok(!names.includes('Formed') && !names.includes('Texted'));
    // JSON with a vendor type and an empty text/plain body are fine.
    const vendor = await admin.post('/api/permissions/group', undefined, { raw: '{"name":"Vendor JSON"}', contentType: 'application/vnd.api+json' });
    assert.equal(vendor.status, 200);
    const empty = await admin.put(`/api/user/${(await admin.get('/api/user/current')).body.id}/modal/qbnewb`, undefined, { raw: '', contentType: 'text/plain' });
    assert.equal(empty.status, 200);
  });

  test('a download route still takes the form post the UI sends', async () => {
    // The export needs a database to query; its form body is parsed (a bad query is a 4xx about the query, not the body).
    const r = await admin.post('/api/dataset/csv', undefined, { raw: 'query=%7Bnot-json', contentType: 'application/x-www-form-urlencoded' });
    assert.notEqual(r.text, 'Request bodies must be JSON (Content-Type: application/json).');
    assert.ok(r.status >= 400 && r.status < 500);
  });

  test('concurrent duplicates are the domain 400s, never a unique-key 500', async () => {
    const t = server();
    const twice = <T>(make: () => Promise<T>) => Promise.all([make(), make(), make()]);
    const users = await twice(() => admin.post('/api/user', { email: 'same@example.com', first_name: 'Same' }));
    assert.deepEqual(users.map((r) => r.status).sort(), [200, 400, 400]);
    for (const r of users.filter((x) => x.status === 400)) assert.deepEqual(r.body, { errors: { email: 'Email address already in use.' } });
    const keys = await twice(() => admin.post('/api/api-key', { name: 'Same key', group_id: 1 }));
    assert.deepEqual(keys.map((r) => r.status).sort(), [200, 400, 400]);
    for (const r of keys.filter((x) => x.status === 400)) assert.deepEqual(r.body, { errors: { name: 'An API key with this name already exists.' } });
    const groups = await twice(() => admin.post('/api/permissions/group', { name: 'Same group' }));
    assert.deepEqual(groups.map((r) => r.status).sort(), [200, 400, 400]);
    for (const r of groups.filter((x) => x.status === 400)) assert.equal(r.text, 'A group with that name already exists.');
    const cased = await Promise.all(['Cased group', 'CASED GROUP', 'cased group'].map((name) => admin.post('/api/permissions/group', { name })));
    assert.deepEqual(cased.map((r) => r.status).sort(), [200, 400, 400], 'names differing only in case are the same name');
    const group = groups.find((r) => r.status === 200)!.body;
    const { user } = await createUserClient(t, admin);
    const members = await twice(() => admin.post('/api/permissions/membership', { group_id: group.id, user_id: user.id }));
    assert.deepEqual(members.map((r) => r.status), [200, 200, 200], 'adding the same member twice is harmless');
    const rows = await t.ctx.db.selectFrom('permissions_group_membership').select('id').where('group_id', '=', group.id).execute();
    assert.equal(rows.length, 1);
  });
  // ----- strings longer than their varchar columns (PostgreSQL and MySQL refuse them: they used to be 500s)

  const LONG = 'n'.repeat(255);
  const FITS = 'n'.repeat(254);
  const dashboardsNamed = async (name: string) =>
    Number((await server().ctx.db.selectFrom('report_dashboard').select((eb) => eb.fn.countAll().as('n')).where('name', '=', name).executeTakeFirstOrThrow()).n);

  test('dashboard and tab names over 254 characters are a 400 on every route that stores one', async () => {
    assertTooLong(await admin.post('/api/dashboard', { name: LONG }), ['name']);
    const created = await admin.post('/api/dashboard', { name: FITS });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.name, FITS);
    const id = created.body.id;
    assertTooLong(await admin.put(`/api/dashboard/${id}`, { name: LONG }), ['name']);
    assertTooLong(await admin.put(`/api/dashboard/${id}`, { dashcards: [], tabs: [{ id: -1, name: LONG }] }), ['tabs']);
    assertTooLong(await admin.put(`/api/dashboard/${id}/cards`, { cards: [], tabs: [{ id: -1, name: LONG }] }), ['tabs']);
    const tabbed = await admin.put(`/api/dashboard/${id}`, { dashcards: [], tabs: [{ id: -1, name: FITS }] });
    assert.equal(tabbed.status, 200, tabbed.text);
    assert.equal(tabbed.body.tabs[0].name, FITS);
    assertTooLong(await admin.post(`/api/dashboard/${id}/copy`, { name: LONG }), ['name']);
    assertTooLong(await admin.post('/api/dashboard/save', { name: LONG }), ['name']);
    const parent = await admin.post('/api/collection', { name: 'Saves go here' });
    assertTooLong(await admin.post(`/api/dashboard/save/collection/${parent.body.id}`, { name: LONG }), ['name']);
    assert.equal(await dashboardsNamed(LONG), 0, 'nothing was stored');
    assert.equal((await admin.get(`/api/dashboard/${id}`)).body.name, FITS);
    // collection_position is a smallint: beyond it is the same 400 as for cards
    const pinned = await admin.post('/api/dashboard', { name: 'Pinned far down', collection_position: 32768 });
    assert.equal(pinned.status, 400, pinned.text);
    assert.equal(pinned.body.errors.collection_position, 'nullable value must be an integer greater than zero and at most 32767.');
  });

  test('dashboard save: a name that fills its column still gets its collection numbered, and over-long card and tab names are a 400 that makes nothing', async () => {
    const parent = (await admin.post('/api/collection', { name: 'Generated here' })).body;
    const card = (extra: Record<string, unknown> = {}) => ({ name: 'Generated card', display: 'table', dataset_query: mbql(data), visualization_settings: {}, ...extra });
    const body = (extra: Record<string, unknown> = {}, cardExtra: Record<string, unknown> = {}) => ({
      name: FITS,
      tabs: [{ id: 1, name: 'Main' }],
      dashcards: [{ id: 1, dashboard_tab_id: 1, row: 0, col: 0, size_x: 6, size_y: 4, card: card(cardExtra), series: [], visualization_settings: {}, parameter_mappings: [] }],
      ...extra,
    });
    const first = await admin.post(`/api/dashboard/save/collection/${parent.id}`, body());
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.collection.name, FITS);
    const second = await admin.post(`/api/dashboard/save/collection/${parent.id}`, body());
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.collection.name, `${'n'.repeat(252)} 2`, 'cut for the number to fit');
    const before = await dashboardsNamed(FITS);
    const collections = async () => (await admin.get(`/api/collection/${parent.id}/items`, { query: { models: 'collection' } })).body.total;
    const collectionsBefore = await collections();
    assertTooLong(await admin.post(`/api/dashboard/save/collection/${parent.id}`, body({}, { name: LONG })), ['dashcards', 'card', 'name']);
    assertTooLong(await admin.post(`/api/dashboard/save/collection/${parent.id}`, body({}, { display: LONG })), ['dashcards', 'card', 'display']);
    assertTooLong(await admin.post(`/api/dashboard/save/collection/${parent.id}`, body({ tabs: [{ id: 1, name: LONG }] })), ['tabs', 'name']);
    const badType = await admin.post(`/api/dashboard/save/collection/${parent.id}`, body({}, { type: 'x'.repeat(40) }));
    assert.equal(badType.status, 400, badType.text);
    assert.ok('type' in badType.body.errors.dashcards.card);
    assert.equal(await dashboardsNamed(FITS), before, 'no dashboard made');
    assert.equal(await collections(), collectionsBefore, 'no collection made');
  });

  test('card names and displays over 254 characters are a 400; copies of a full-length name are cut to fit', async () => {
    const card = (extra: Record<string, unknown>) => admin.post('/api/card', { name: 'Card', display: 'table', visualization_settings: {}, dataset_query: mbql(data), ...extra });
    assertTooLong(await card({ name: LONG }), ['name']);
    assertTooLong(await card({ display: LONG }), ['display']);
    const created = await card({ name: FITS });
    assert.equal(created.status, 200, created.text);
    assertTooLong(await admin.put(`/api/card/${created.body.id}`, { name: LONG }), ['name']);
    assertTooLong(await admin.put(`/api/card/${created.body.id}`, { display: LONG }), ['display']);
    const copy = await admin.post(`/api/card/${created.body.id}/copy`);
    assert.equal(copy.status, 200, copy.text);
    assert.equal(copy.body.name, `Copy of ${'n'.repeat(246)}`);
    // a deep copy of a dashboard into the same collection names its duplicates "… - Duplicate"
    const dashboard = (await admin.post('/api/dashboard', { name: 'Deep copied' })).body;
    const dashcard = { id: -1, card_id: created.body.id, row: 0, col: 0, size_x: 6, size_y: 4, parameter_mappings: [], visualization_settings: {}, series: [] };
    assert.equal((await admin.put(`/api/dashboard/${dashboard.id}`, { dashcards: [dashcard] })).status, 200);
    const deep = await admin.post(`/api/dashboard/${dashboard.id}/copy`, { is_deep_copy: true });
    assert.equal(deep.status, 200, deep.text);
    const [copied] = (await admin.get(`/api/dashboard/${deep.body.id}`)).body.dashcards;
    assert.equal(copied.card.name, `${'n'.repeat(242)} - Duplicate`);
  });

  test('collection names and namespaces over 254 characters are a 400, and so is nesting deeper than the location column holds', async () => {
    assertTooLong(await admin.post('/api/collection', { name: LONG }), ['name']);
    assertTooLong(await admin.post('/api/collection', { name: 'Spaced', namespace: LONG }), ['namespace']);
    const created = await admin.post('/api/collection', { name: FITS });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.slug.length <= 254, true);
    assertTooLong(await admin.put(`/api/collection/${created.body.id}`, { name: LONG }), ['name']);
    assertTooLong(await admin.put('/api/collection/graph', { namespace: LONG, groups: {} }), ['namespace']);
    assert.equal((await admin.get(`/api/collection/${created.body.id}`)).body.name, FITS);

    // `location` is a varchar(600) path of ancestor ids; make two collections as deep as that allows (ids padded with
    // zeros read as the same id, standing in for some 150 levels of real nesting)
    const db = server().ctx.db;
    const anchor = (await admin.post('/api/collection', { name: 'Anchor' })).body.id as number;
    /** Puts collection `id` at a location such that its children's location is exactly `length` characters. */
    const placeDeep = async (id: number, length: number) => {
      let location = '/';
      const target = length - `${id}/`.length;
      while (target - location.length > 2 * `${anchor}/`.length) location += `${anchor}/`;
      location += `${'0'.repeat(target - location.length - `${anchor}/`.length)}${anchor}/`;
      assert.equal(location.length, target);
      await db.updateTable('collection').set({ location }).where('id', '=', id).execute();
    };
    const full = (await admin.post('/api/collection', { name: 'Full' })).body.id as number;
    await placeDeep(full, 600);
    const over = (await admin.post('/api/collection', { name: 'Over' })).body.id as number;
    await placeDeep(over, 601);
    const refused = await admin.post('/api/collection', { name: 'Too deep', parent_id: over });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body, { errors: { location: 'Collections cannot be nested this deeply.' } });
    const fits = await admin.post('/api/collection', { name: 'Just fits', parent_id: full });
    assert.equal(fits.status, 200, fits.text);
    assert.equal(fits.body.location.length, 600);
    // moving a collection whose child would end up too deep is refused, and moves nothing
    const mover = (await admin.post('/api/collection', { name: 'Mover' })).body;
    const child = (await admin.post('/api/collection', { name: 'Child', parent_id: mover.id })).body;
    const moved = await admin.put(`/api/collection/${mover.id}`, { parent_id: full });
    assert.equal(moved.status, 400, moved.text);
    assert.deepEqual(moved.body, { errors: { location: 'Collections cannot be nested this deeply.' } });
    assert.equal((await admin.get(`/api/collection/${mover.id}`)).body.location, '/');
    assert.equal((await admin.get(`/api/collection/${child.id}`)).body.location, `/${mover.id}/`);
  });

  test('snippet, timeline and event strings over their columns are a 400', async () => {
    const snippet = await admin.post('/api/native-query-snippet', { name: LONG, content: 'select 1' });
    assertTooLong(snippet, ['name']);
    assert.equal(snippet.body.errors.name, "snippet names cannot include '}' or start with spaces");
    const made = await admin.post('/api/native-query-snippet', { name: FITS, content: 'select 1' });
    assert.equal(made.status, 200, made.text);
    assertTooLong(await admin.put(`/api/native-query-snippet/${made.body.id}`, { name: LONG }), ['name']);
    // timelines and their events are varchar(255)
    assertTooLong(await admin.post('/api/timeline', { name: 'n'.repeat(256) }), ['name'], 255);
    const timeline = await admin.post('/api/timeline', { name: LONG });
    assert.equal(timeline.status, 200, timeline.text);
    assertTooLong(await admin.put(`/api/timeline/${timeline.body.id}`, { name: 'n'.repeat(256) }), ['name'], 255);
    const event = (extra: Record<string, unknown>) =>
      admin.post('/api/timeline-event', { name: 'Launch', timestamp: '2024-01-01T00:00:00Z', timezone: 'UTC', timeline_id: timeline.body.id, ...extra });
    assertTooLong(await event({ name: 'n'.repeat(256) }), ['name'], 255);
    assertTooLong(await event({ timezone: 'z'.repeat(256) }), ['timezone'], 255);
    const launched = await event({ name: LONG });
    assert.equal(launched.status, 200, launched.text);
    assertTooLong(await admin.put(`/api/timeline-event/${launched.body.id}`, { timezone: 'z'.repeat(256) }), ['timezone'], 255);
  });

  test('setting keys and uploads names over their columns are a 400', async () => {
    assertTooLong(await admin.put(`/api/setting/${'k'.repeat(255)}`, { value: 'x' }), ['key']);
    const uploads = await admin.put('/api/setting/uploads-settings', { value: { db_id: null, schema_name: LONG, table_prefix: null } });
    assert.equal(uploads.status, 400, uploads.text);
    assert.match(uploads.text, /schema_name must be at most 254 characters/);
  });

  test('action, database, table, field and remapping names over 254 characters are a 400 (a PostgreSQL warehouse with actions)', async () => {
    const w = await addWarehouse(admin, 'postgres');
    warehouses.push(w);
    const model = await tableModel(admin, w, 'customers');
    assertTooLong(await admin.post('/api/action', renameAction(w, model.id, { name: LONG })), ['name']);
    const action = await admin.post('/api/action', renameAction(w, model.id, { name: FITS }));
    assert.equal(action.status, 200, action.text);
    assert.equal(action.body.name, FITS);
    assertTooLong(await admin.put(`/api/action/${action.body.id}`, { name: LONG }), ['name']);
    assert.equal((await admin.get(`/api/action/${action.body.id}`)).body.name, FITS);

    assertTooLong(await admin.post('/api/database', { engine: 'postgres', name: LONG, details: {} }), ['name']);
    assertTooLong(await admin.put(`/api/database/${w.id}`, { name: LONG }), ['name']);
    assertTooLong(await admin.put(`/api/table/${w.tables.customers}`, { display_name: LONG }), ['display_name']);
    assertTooLong(await admin.put('/api/table', { ids: [w.tables.customers], display_name: LONG }), ['display_name']);
    const field = w.fields['customers.name'];
    assertTooLong(await admin.put(`/api/field/${field}`, { display_name: LONG }), ['display_name']);
    assertTooLong(await admin.post(`/api/field/${field}/dimension`, { type: 'internal', name: LONG }), ['name']);
    assertTooLong(await admin.post(`/api/field/${field}/dimension`, { 'dimension-type': 'internal', 'dimension-name': LONG }), ['dimension-name']);
    const renamed = await admin.put(`/api/field/${field}`, { display_name: FITS });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.display_name, FITS);
  });

  test('the fallback: a value the app DB refuses as too long or out of range is a 400 with a generic message, logged as a warning', async () => {
    // Every route caps what it stores, so this drives the error handler directly with the app DB's own refusals.
    const t = server();
    const logs: Array<{ level: number; msg: string }> = [];
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void logs.push(JSON.parse(line)) } } });
    installErrorHandling(app);
    const tooLong = () => t.ctx.db.insertInto('login_throttle').values({ throttle_key: 'k'.repeat(301), attempted_at: 1 }).execute();
    const outOfRange = () => t.ctx.db.insertInto('login_throttle').values({ throttle_key: 'out-of-range', attempted_at: 1e20 }).execute();
    app.post('/too-long', async () => (await tooLong(), {}));
    app.post('/out-of-range', async () => (await outOfRange(), {}));
    app.post('/api/public/too-long', async () => (await tooLong(), {}));
    try {
      const long = await app.inject({ method: 'POST', url: '/too-long' });
      const range = await app.inject({ method: 'POST', url: '/out-of-range' });
      const shared = await app.inject({ method: 'POST', url: '/api/public/too-long' });
      if (t.kind === 'sqlite') {
        // SQLite stores any length and any number: why the caps live in the route schemas
        assert.deepEqual([long.statusCode, range.statusCode, shared.statusCode], [200, 200, 200]);
        return;
      }
      assert.equal(long.statusCode, 400);
      assert.deepEqual(long.json(), { message: VALUE_TOO_LONG });
      assert.equal(range.statusCode, 400);
      assert.deepEqual(range.json(), { message: NUMBER_OUT_OF_RANGE });
      assert.doesNotMatch(long.body + range.body, /varchar|character varying|column|bigint|Data too long/i, 'no SQL in the answer');
      assert.equal(shared.statusCode, 400);
      assert.equal(shared.body, 'An error occurred.', 'public links answer in their own words');
      const warnings = logs.filter((l) => l.msg === 'the app DB refused a value that does not fit its column');
      assert.equal(warnings.length, 3);
      assert.ok(warnings.every((l) => l.level === 40), 'logged at warn, not error');
      assert.equal(logs.filter((l) => l.level >= 50).length, 0);
    } finally {
      await app.close();
      await t.ctx.db.deleteFrom('login_throttle').where((eb) => eb.or([eb('throttle_key', '=', 'out-of-range'), eb('throttle_key', 'like', 'kkkk%')])).execute();
    }
  });
});
