// The admin checklist (computed from the instance as it is), the setup form's user defaults (MB_USER_DEFAULTS), and
// ETL notifications (/api/notify, secured by MB_API_KEY) syncing a real PostgreSQL warehouse.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { waitFor } from '../databases/helpers.js';
import { addWarehouse, tableModel, type Warehouse } from '../actions/fixtures.js';
import { callers, ok, type Callers } from './helpers.js';

const task = (checklist: any[], title: string) => checklist.flatMap((g) => g.tasks).find((t: any) => t.title === title);

forEachAppDb('admin checklist, user defaults, ETL notifications', (server) => {
  let c: Callers;
  let warehouse: Warehouse;
  const API_KEY = 'etl-static-key-0123456789';

  before(async () => {
    c = await callers(server());
    warehouse = await addWarehouse(c.admin, 'postgres', { enableActions: false });
  });
  after(async () => {
    delete server().ctx.config.env.MB_API_KEY;
    delete server().ctx.config.env.MB_USER_DEFAULTS;
    await warehouse?.drop();
  });

  test('the admin checklist: Metabase’s groups and tasks, completed from what the instance has', async () => {
    const before = ok(await c.admin.get('/api/setup/admin_checklist'), 'checklist');
    assert.deepEqual(before.map((g: any) => g.name), ['Get connected', 'Productionize', 'Curate your data']);
    for (const t of before.flatMap((g: any) => g.tasks)) {
      assert.deepEqual(Object.keys(t).sort(), ['completed', 'description', 'group', 'is_next_step', 'link', 'title', 'triggered']);
    }
    assert.equal(task(before, 'Add a database').completed, true, 'a warehouse besides the sample');
    assert.equal(task(before, 'Invite team members').completed, true, 'three users');
    assert.equal(task(before, 'Switch to a production-ready app database').completed, server().kind !== 'sqlite');
    assert.equal(task(before, 'Set up email').completed, false);
    assert.equal(task(before, 'Set Slack credentials').completed, false);
    assert.equal(task(before, 'Create a model').completed, false);
    assert.equal(before.flatMap((g: any) => g.tasks).filter((t: any) => t.is_next_step).length, 1);
    assert.equal(task(before, 'Set up email').is_next_step, true, 'the first triggered task not done');

    ok(await c.admin.put('/api/setting/email-smtp-host', { value: 'smtp.example.com' }), 'smtp host');
    const model = await tableModel(c.admin, warehouse, 'customers');
    ok(await c.admin.put(`/api/table/${warehouse.tables.orders}`, { visibility_type: 'hidden' }), 'hide a table');
    const now = ok(await c.admin.get('/api/setup/admin_checklist'), 'checklist again');
    assert.equal(task(now, 'Set up email').completed, true);
    assert.equal(task(now, 'Create a model').completed, true);
    assert.equal(task(now, 'Create a model').triggered, false);
    assert.equal(task(now, 'Hide irrelevant tables').completed, true);
    assert.equal(task(now, 'Set Slack credentials').is_next_step, true);
    ok(await c.admin.put('/api/setting/email-smtp-host', { value: null }), 'clear');
    ok(await c.admin.delete(`/api/card/${model.id}`), 'delete model');
    ok(await c.admin.put(`/api/table/${warehouse.tables.orders}`, { visibility_type: null }), 'unhide');

    assert.equal((await c.user.get('/api/setup/admin_checklist')).status, 403);
    assert.equal((await server().anon.get('/api/setup/admin_checklist')).status, 401);
  });

  test('user defaults: 404 unless configured with a token, 403 for another token, else the defaults without it', async () => {
    const env = server().ctx.config.env;
    delete env.MB_USER_DEFAULTS;
    assert.equal((await server().anon.get('/api/setup/user_defaults', { query: { token: 'x' } })).status, 404);
    env.MB_USER_DEFAULTS = '{}';
    assert.equal((await server().anon.get('/api/setup/user_defaults', { query: { token: 'x' } })).text, 'Not found.');
    env.MB_USER_DEFAULTS = 'not json';
    assert.equal((await server().anon.get('/api/setup/user_defaults', { query: { token: 'x' } })).status, 404);
    env.MB_USER_DEFAULTS = JSON.stringify({ token: '123456', email: 'john.doe@example.com', first_name: 'John' });
    const wrong = await server().anon.get('/api/setup/user_defaults', { query: { token: '654321' } });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.text, "You don't have permissions to do that.");
    assert.equal((await server().anon.get('/api/setup/user_defaults')).status, 403);
    assert.deepEqual(ok(await server().anon.get('/api/setup/user_defaults', { query: { token: '123456' } }), 'defaults'), { email: 'john.doe@example.com', first_name: 'John' });
    delete env.MB_USER_DEFAULTS;
  });

  test('notify: only with MB_API_KEY, sent as X-Metabase-Apikey', async () => {
    const path = `/api/notify/db/${warehouse.id}`;
    delete server().ctx.config.env.MB_API_KEY;
    const unset = await c.admin.post(path, {});
    assert.equal(unset.status, 403);
    assert.match(unset.text, /^MB_API_KEY is not set\. See https:\/\/www\.metabase\.com\/docs/);
    server().ctx.config.env.MB_API_KEY = API_KEY;
    const etl = new Client(server().url, null, { 'X-Metabase-Apikey': API_KEY });
    const wrong = new Client(server().url, null, { 'X-Metabase-Apikey': 'nope' });
    assert.equal((await c.admin.post(path, {})).status, 403, 'a session is not the key');
    assert.equal((await wrong.post(path, {})).text, "You don't have permissions to do that.");
    assert.equal((await wrong.post(path, { scan: 'bogus' })).status, 403, 'the key is checked before the body');
    assert.deepEqual(ok(await etl.post(path, {}), 'notify'), { success: true });
    assert.equal((await etl.post(path, { scan: 'bogus' })).status, 400);
    assert.equal((await etl.post(path, { table_id: 'x' })).status, 400);
    assert.equal((await etl.post('/api/notify/db/999999', {})).status, 404);
    assert.equal((await etl.post(path, { table_id: 999999 })).status, 404);
    assert.equal((await etl.post(path, { table_name: 'no_such_table' })).status, 404);
    assert.equal((await etl.post('/api/notify/db/attached_datawarehouse', {})).status, 404, 'no attached warehouse');
    assert.equal((await wrong.post('/api/notify/db/attached_datawarehouse', {})).status, 403);
  });

  test('notify: a table’s new column is synced (synchronously when asked), and a new table is found and synced', async () => {
    server().ctx.config.env.MB_API_KEY = API_KEY;
    const etl = new Client(server().url, null, { 'X-Metabase-Apikey': API_KEY });
    const path = `/api/notify/db/${warehouse.id}`;
    const fieldsOf = async (tableId: number) => ok(await c.admin.get(`/api/table/${tableId}/query_metadata`), 'table').fields.map((f: any) => f.name);

    await warehouse.query('ALTER TABLE customers ADD COLUMN city text');
    assert.ok(!(await fieldsOf(warehouse.tables.customers)).includes('city'));
    assert.deepEqual(ok(await etl.post(path, { table_name: 'customers', scan: 'schema', 'synchronous?': true }), 'table sync'), { success: true });
    assert.ok((await fieldsOf(warehouse.tables.customers)).includes('city'));

    await warehouse.query('ALTER TABLE orders ADD COLUMN note text');
    ok(await etl.post(path, { table_id: warehouse.tables.orders }), 'background table sync');
    await waitFor('the background sync', async () => (await fieldsOf(warehouse.tables.orders)).includes('note'));

    await warehouse.query("CREATE TABLE invoices (id serial PRIMARY KEY, kind text); INSERT INTO invoices (kind) VALUES ('a'), ('b')");
    const created = ok(await etl.post(`${path}/new-table`, { schema_name: 'public', table_name: 'invoices' }), 'new table');
    assert.equal(created.name, 'invoices');
    assert.equal(created.schema, 'public');
    assert.equal(created.db_id, warehouse.id);
    assert.equal(created.initial_sync_status, 'complete');
    const kind = ok(await c.admin.get(`/api/table/${created.id}/query_metadata`), 'invoices').fields.find((f: any) => f.name === 'kind');
    assert.deepEqual(ok(await c.admin.get(`/api/field/${kind.id}/values`), 'values').values.map((v: unknown[]) => v[0]).sort(), ['a', 'b'], 'field values scanned');

    const again = await etl.post(`${path}/new-table`, { schema_name: 'public', table_name: 'invoices' });
    assert.equal(again.status, 400);
    assert.equal(again.text, "Table 'public.invoices' already exists");
    const missing = await etl.post(`${path}/new-table`, { schema_name: 'public', table_name: 'ghosts' });
    assert.equal(missing.status, 404);
    assert.equal(missing.text, "Unable to identify table 'public.ghosts'");
    assert.equal((await etl.post(`${path}/new-table`, { table_name: 'invoices' })).status, 400, 'schema_name is required');

    // a whole-database sync in the background picks up a table too
    await warehouse.query('CREATE TABLE refunds (id serial PRIMARY KEY)');
    ok(await etl.post(path, { scan: 'full' }), 'database sync');
    await waitFor('refunds', async () => ok(await c.admin.get(`/api/database/${warehouse.id}/metadata`), 'metadata').tables.some((t: any) => t.name === 'refunds'));
  });
});
