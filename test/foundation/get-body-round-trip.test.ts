// Clients copy an object by POSTing what a GET returned, with a few keys changed (metabase_api_python's `copy_card`:
// GET the card, change `name` and `collection_id`, POST the whole object). A declared body is the allow-list of what a
// client may write: `id`, `entity_id`, `created_at`, `creator`… are ignored, and the POST makes a new object.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCollection, mbql, registerDatabase, uniqueName, type DataFixture } from '../cards/fixtures.js';
import { addWarehouse, renameAction, tableModel, type Warehouse } from '../actions/fixtures.js';

forEachAppDb('a GET body POSTed back creates a new object', (server) => {
  let admin: Client;
  let data: DataFixture;
  let warehouse: Warehouse;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
    warehouse = await addWarehouse(admin, 'postgres');
  });
  after(async () => {
    await warehouse?.drop();
  });

  /** GET `path`, let `change` edit the body, POST it to `postPath`: the answer is a new object. */
  async function roundTrip(getPath: string, postPath: string, change: (body: any) => void) {
    const source = await admin.get(getPath);
    assert.equal(source.status, 200, source.text);
    const body = structuredClone(source.body);
    change(body);
    const copy = await admin.post(postPath, body);
    assert.equal(copy.status, 200, `${postPath}: ${copy.text}`);
    assert.notEqual(copy.body.id, source.body.id, postPath);
    if (source.body.entity_id !== undefined) {
      assert.match(copy.body.entity_id, /^[A-Za-z0-9_-]{21}$/);
      assert.notEqual(copy.body.entity_id, source.body.entity_id, `${postPath}: a new entity_id`);
    }
    return { source: source.body, copy: copy.body };
  }

  test('cards (copy_card): the copy has its own id and entity_id, the new name and collection, nothing read-only', async () => {
    const target = await createCollection(admin);
    const created = await admin.post('/api/card', { name: uniqueName('Orders'), display: 'table', visualization_settings: {}, dataset_query: mbql(data) });
    assert.equal(created.status, 200, created.text);
    assert.equal((await admin.put(`/api/card/${created.body.id}`, { archived: true })).status, 200);
    const { source, copy } = await roundTrip(`/api/card/${created.body.id}`, '/api/card', (card) => {
      card.name = 'Copy of orders';
      card.collection_id = target.id;
    });
    assert.equal(copy.name, 'Copy of orders');
    assert.equal(copy.collection_id, target.id);
    assert.deepEqual(copy.dataset_query, source.dataset_query);
    assert.equal(copy.archived, false, 'archived is not a key a new card takes');
    assert.equal((await admin.get(`/api/card/${source.id}`)).body.name, source.name, 'the source is untouched');
    // a second copy of the same body works too
    const again = await admin.post('/api/card', { ...source, name: 'Second copy', archived: false, collection_id: null });
    assert.equal(again.status, 200, again.text);
    assert.notEqual(again.body.entity_id, copy.entity_id);
  });

  test('dashboards, collections, timelines, events, snippets', async () => {
    const dashboard = (await admin.post('/api/dashboard', { name: uniqueName('Sales'), width: 'full' })).body;
    const { copy: dashboardCopy } = await roundTrip(`/api/dashboard/${dashboard.id}`, '/api/dashboard', (d) => (d.name = 'Sales copy'));
    assert.equal(dashboardCopy.width, 'full');
    assert.deepEqual(dashboardCopy.dashcards, []);
    // what a new dashboard takes is checked like everything else it takes
    const wide = await admin.post('/api/dashboard', { name: uniqueName('Sales'), width: 'wide' });
    assert.equal(wide.status, 400);
    assert.ok(wide.body.errors.width);

    const collection = await createCollection(admin);
    const { copy: collectionCopy } = await roundTrip(`/api/collection/${collection.id}`, '/api/collection', (c) => {
      c.name = 'Collection copy';
      c.parent_id = collection.id;
    });
    assert.equal(collectionCopy.location, `/${collection.id}/`);

    const timeline = (await admin.post('/api/timeline', { name: uniqueName('Launches'), icon: 'cake' })).body;
    const { copy: timelineCopy } = await roundTrip(`/api/timeline/${timeline.id}`, '/api/timeline', (t) => (t.name = 'Launches copy'));
    assert.equal(timelineCopy.icon, 'cake');
    const event = (await admin.post('/api/timeline-event', { name: 'v1', timeline_id: timeline.id, timestamp: '2024-01-15T10:30:00Z', timezone: 'UTC' })).body;
    const { copy: eventCopy } = await roundTrip(`/api/timeline-event/${event.id}`, '/api/timeline-event', (e) => {
      e.name = 'v1 again';
      e.timeline_id = timelineCopy.id;
    });
    assert.equal(eventCopy.timeline_id, timelineCopy.id);

    const snippet = (await admin.post('/api/native-query-snippet', { name: uniqueName('snip').replace(/\s/g, '_'), content: 'ID = {{id}}' })).body;
    const { copy: snippetCopy } = await roundTrip(`/api/native-query-snippet/${snippet.id}`, '/api/native-query-snippet', (x) => (x.name = `${x.name}_copy`));
    assert.equal(snippetCopy.content, 'ID = {{id}}');
  });

  test('segments and actions', async () => {
    const customers = warehouse.tables.customers;
    const segment = await admin.post('/api/segment', {
      name: uniqueName('High scores'),
      table_id: customers,
      definition: { 'source-table': customers, filter: ['>', ['field', warehouse.fields['customers.score'], null], 15] },
    });
    assert.equal(segment.status, 200, segment.text);
    const { copy: segmentCopy } = await roundTrip(`/api/segment/${segment.body.id}`, '/api/segment', (x) => (x.name = 'High scores copy'));
    assert.deepEqual(segmentCopy.definition, segment.body.definition);

    const model = await tableModel(admin, warehouse, 'customers');
    const action = await admin.post('/api/action', renameAction(warehouse, model.id));
    assert.equal(action.status, 200, action.text);
    const { copy: actionCopy } = await roundTrip(`/api/action/${action.body.id}`, '/api/action', (x) => (x.name = 'Rename copy'));
    assert.equal(actionCopy.model_id, model.id);
    assert.equal(actionCopy.public_uuid, null);
  });

  test('users, groups and API keys', async () => {
    const user = (await admin.post('/api/user', { email: `${uniqueName('u').replace(/\W/g, '')}@example.com`, first_name: 'Uma', last_name: 'User' })).body;
    const { copy: userCopy } = await roundTrip(`/api/user/${user.id}`, '/api/user', (u) => (u.email = `copy.${u.email}`));
    assert.equal(userCopy.first_name, 'Uma');
    assert.equal(userCopy.email, `copy.${user.email}`);

    const group = (await admin.post('/api/permissions/group', { name: uniqueName('Analysts') })).body;
    const { copy: groupCopy } = await roundTrip(`/api/permissions/group/${group.id}`, '/api/permissions/group', (g) => (g.name = `${g.name} copy`));
    assert.equal(groupCopy.name, `${group.name} copy`);

    const key = (await admin.post('/api/api-key', { name: uniqueName('Bot'), group_id: group.id })).body;
    const listed = (await admin.get('/api/api-key')).body.find((k: any) => k.id === key.id);
    const keyCopy = await admin.post('/api/api-key', { ...listed, name: `${listed.name} copy`, group_id: listed.group.id });
    assert.equal(keyCopy.status, 200, keyCopy.text);
    assert.notEqual(keyCopy.body.id, key.id);
    assert.notEqual(keyCopy.body.unmasked_key, undefined);
  });
});
