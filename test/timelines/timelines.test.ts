import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCollection, registerDatabase, uniqueName } from '../cards/fixtures.js';

forEachAppDb('timelines and events', (server) => {
  let admin: Client;

  before(async () => {
    admin = await setupAdmin(server());
  });

  async function timeline(fields: Record<string, unknown> = {}) {
    const response = await admin.post('/api/timeline', { name: uniqueName('Launches'), ...fields });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  test('timelines: create with defaults, read, list, update, archive cascades, delete', async () => {
    const c = await createCollection(admin);
    const t = await timeline({ collection_id: c.id, description: 'product launches' });
    assert.equal(t.icon, 'star');
    assert.equal(t.default, false);
    assert.equal(t.archived, false);
    assert.equal(t.collection_id, c.id);
    assert.equal(t.collection.id, c.id);
    assert.equal(t.creator.email, 'admin@example.com');
    const cake = await timeline({ icon: 'cake' });
    assert.equal(cake.icon, 'cake');
    assert.equal(cake.collection.id, 'root');
    assert.equal((await admin.post('/api/timeline', { name: 'x', icon: 'balloons' })).status, 400);
    assert.equal((await admin.post('/api/timeline', {})).status, 400);

    const event = (await admin.post('/api/timeline-event', { name: 'v1', timeline_id: t.id, timestamp: '2024-01-15T10:30:00Z', timezone: 'UTC' })).body;
    const withEvents = (await admin.get(`/api/timeline/${t.id}`, { query: { include: 'events' } })).body;
    assert.deepEqual(withEvents.events.map((e: any) => e.id), [event.id]);
    assert.equal('events' in (await admin.get(`/api/timeline/${t.id}`)).body, false);
    const list = (await admin.get('/api/timeline')).body;
    assert.ok(list.some((x: any) => x.id === t.id) && list.some((x: any) => x.id === cake.id));

    const renamed = (await admin.put(`/api/timeline/${t.id}`, { name: 'Renamed', icon: 'bell' })).body;
    assert.equal(renamed.name, 'Renamed');
    assert.equal(renamed.icon, 'bell');
    const archived = (await admin.put(`/api/timeline/${t.id}`, { archived: true })).body;
    assert.equal(archived.archived, true);
    assert.equal((await admin.get(`/api/timeline-event/${event.id}`)).body.archived, true, 'archiving a timeline archives its events');
    assert.ok((await admin.get('/api/timeline', { query: { archived: 'true' } })).body.some((x: any) => x.id === t.id));
    assert.equal((await admin.delete(`/api/timeline/${t.id}`)).status, 204);
    assert.equal((await admin.get(`/api/timeline/${t.id}`)).status, 404);
    assert.equal((await admin.get(`/api/timeline-event/${event.id}`)).status, 404);
  });

  test('events: create, read, update, delete, validation and missing timeline', async () => {
    const t = await timeline({ icon: 'mail' });
    const created = await admin.post('/api/timeline-event', {
      name: 'Release',
      timeline_id: t.id,
      timestamp: '2024-01-15T10:30:00Z',
      timezone: 'UTC',
      time_matters: true,
      description: 'v1 shipped',
    });
    assert.equal(created.status, 200);
    const e = created.body;
    assert.equal(e.timeline_id, t.id);
    assert.equal(e.timestamp, '2024-01-15T10:30:00Z');
    assert.equal(e.time_matters, true);
    assert.equal(e.timezone, 'UTC');
    assert.equal(e.icon, 'mail', 'events take the icon of their timeline');
    assert.equal(e.archived, false);
    assert.equal(e.creator_id, 1);
    const got = (await admin.get(`/api/timeline-event/${e.id}`)).body;
    assert.equal(got.name, 'Release');
    const updated = (await admin.put(`/api/timeline-event/${e.id}`, { name: 'Release 1.0', icon: 'warning', timestamp: '2024-02-01' })).body;
    assert.equal(updated.name, 'Release 1.0');
    assert.equal(updated.icon, 'warning');
    assert.equal(updated.timestamp, '2024-02-01T00:00:00Z');
    assert.equal(updated.description, 'v1 shipped');

    const missing = await admin.post('/api/timeline-event', { name: 'x', timeline_id: 987654321, timestamp: '2024-01-01T00:00:00Z', timezone: 'UTC' });
    assert.equal(missing.status, 404);
    assert.equal(missing.text, 'Timeline with id 987654321 not found');
    const badDate = await admin.post('/api/timeline-event', { name: 'x', timeline_id: t.id, timestamp: 'soon', timezone: 'UTC' });
    assert.equal(badDate.status, 400);
    assert.ok(badDate.body.errors.timestamp);
    const noZone = await admin.post('/api/timeline-event', { name: 'x', timeline_id: t.id, timestamp: '2024-01-01' });
    assert.equal(noZone.status, 400);
    const badIcon = await admin.post('/api/timeline-event', { name: 'x', timeline_id: t.id, timestamp: '2024-01-01', timezone: 'UTC', icon: 'rocket' });
    assert.equal(badIcon.status, 400);
    // an event made from a question names a question that exists
    const event = { name: 'from a question', timeline_id: t.id, timestamp: '2024-01-01', timezone: 'UTC', source: 'question' };
    const noQuestion = await admin.post('/api/timeline-event', { ...event, question_id: 987654 });
    assert.equal(noQuestion.status, 404);
    assert.equal(noQuestion.text, 'Card 987654 does not exist.');
    const data = await registerDatabase(server(), 'Timeline DB');
    const question = (await admin.post('/api/card', { name: 'q', display: 'line', visualization_settings: {}, dataset_query: { database: data.databaseId, type: 'query', query: { 'source-table': data.tableId } } })).body;
    assert.equal((await admin.post('/api/timeline-event', { ...event, question_id: question.id })).status, 200);
    assert.equal((await admin.delete(`/api/timeline-event/${e.id}`)).status, 204);
    assert.equal((await admin.get(`/api/timeline-event/${e.id}`)).status, 404);
  });

  test('collection timelines with events; permissions follow the collection', async () => {
    const c = await createCollection(admin);
    const t = await timeline({ collection_id: c.id });
    const e = (await admin.post('/api/timeline-event', { name: 'x', timeline_id: t.id, timestamp: '2024-01-01', timezone: 'UTC' })).body;
    const tls = (await admin.get(`/api/collection/${c.id}/timelines`, { query: { include: 'events' } })).body;
    assert.deepEqual(tls.map((x: any) => x.id), [t.id]);
    assert.deepEqual(tls[0].events.map((x: any) => x.id), [e.id]);
    assert.deepEqual((await admin.get(`/api/timeline/collection/${c.id}`)).body.map((x: any) => x.id), [t.id]);
    const root = (await admin.get('/api/collection/root/timelines')).body;
    assert.ok(Array.isArray(root));
    assert.ok(!root.some((x: any) => x.id === t.id));
    const items = (await admin.get(`/api/collection/${c.id}/items`, { query: { models: 'timeline' } })).body;
    assert.deepEqual(items.data.map((i: any) => `${i.model}:${i.id}`), [`timeline:${t.id}`]);

    const { client } = await createUserClient(server(), admin);
    const graph = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [c.id]: 'read' } } });
    assert.equal((await client.get(`/api/timeline/${t.id}`)).status, 200);
    assert.equal((await client.put(`/api/timeline/${t.id}`, { name: 'mine' })).status, 403);
    assert.equal((await client.post('/api/timeline-event', { name: 'x', timeline_id: t.id, timestamp: '2024-01-01', timezone: 'UTC' })).status, 403);
    assert.equal((await client.post('/api/timeline', { name: 'x', collection_id: c.id })).status, 403);
    const latest = (await admin.get('/api/collection/graph')).body;
    await admin.put('/api/collection/graph', { revision: latest.revision, groups: { 1: { [c.id]: 'none' } } });
    assert.equal((await client.get(`/api/timeline/${t.id}`)).status, 403);
    assert.equal((await client.get(`/api/timeline-event/${e.id}`)).status, 403);
    assert.equal((await client.get(`/api/collection/${c.id}/timelines`)).status, 403);
    assert.ok(!(await client.get('/api/timeline')).body.some((x: any) => x.id === t.id));
  });
});
