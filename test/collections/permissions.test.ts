// The collection permissions graph, and what users with read-only, no and curate access on nested collections see
// and may do in lists, items, the tree, search, and card reads and writes.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, uniqueName, mbql, type DataFixture } from '../cards/fixtures.js';

forEachAppDb('collection permissions', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });

  test('graph: fresh install gives All Users curate access to the root; admins everything', async () => {
    const graph = (await admin.get('/api/collection/graph')).body;
    assert.equal(typeof graph.revision, 'number');
    assert.equal(graph.groups['1'].root, 'write');
    assert.equal(graph.groups['2'].root, 'write');
    const snippets = (await admin.get('/api/collection/graph', { query: { namespace: 'snippets' } })).body;
    assert.equal(snippets.groups['1'].root, 'write');
  });

  test('graph: new collections inherit their parent permissions and bump the revision', async () => {
    const before = (await admin.get('/api/collection/graph')).body;
    const c = await createCollection(admin);
    const after = (await admin.get('/api/collection/graph')).body;
    assert.ok(after.revision > before.revision);
    assert.equal(after.groups['1'][String(c.id)], 'write');
    assert.equal(after.groups['2'][String(c.id)], 'write');
    const me = (await admin.get('/api/user/current')).body;
    assert.equal(after.groups['1'][String(me.personal_collection_id)], undefined, 'personal collections are never in the graph');
  });

  test('graph: PUT applies the parts sent, 409 on a stale revision, force and skip-graph', async () => {
    const group = (await admin.post('/api/permissions/group', { name: uniqueName('Analysts') })).body;
    const c = await createCollection(admin);
    const current = (await admin.get('/api/collection/graph')).body;
    assert.equal(current.groups[String(group.id)], undefined, 'a new group has no permissions');
    const put = await admin.put('/api/collection/graph', { revision: current.revision, groups: { [group.id]: { [c.id]: 'read' } } });
    assert.equal(put.status, 200);
    assert.equal(put.body.revision, current.revision + 1);
    assert.equal(put.body.groups[String(group.id)][String(c.id)], 'read');
    assert.equal(put.body.groups['1'].root, 'write', 'groups not sent are unchanged');

    const stale = await admin.put('/api/collection/graph', { revision: current.revision, groups: { [group.id]: { [c.id]: 'write' } } });
    assert.equal(stale.status, 409);
    assert.equal(stale.text, 'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.');
    const noRevision = await admin.put('/api/collection/graph', { groups: { [group.id]: { [c.id]: 'write' } } });
    assert.equal(noRevision.status, 409);

    // force, as Metabase takes it: in the body (reference §9.2) — a stale revision is then overwritten
    const forced = await admin.put('/api/collection/graph', { revision: current.revision, force: true, groups: { [group.id]: { [c.id]: 'write' } } });
    assert.equal(forced.status, 200);
    assert.equal(forced.body.groups[String(group.id)][String(c.id)], 'write');
    assert.equal((await admin.put('/api/collection/graph', { force: 'yes', groups: {} })).status, 400);
    // (also accepted as a query parameter)
    const forcedByQuery = await admin.put('/api/collection/graph', { groups: { [group.id]: { [c.id]: 'read' } } }, { query: { force: 'true' } });
    assert.equal(forcedByQuery.status, 200);
    assert.equal(forcedByQuery.body.groups[String(group.id)][String(c.id)], 'read');

    const latest = (await admin.get('/api/collection/graph')).body;
    const skipped = await admin.put(
      '/api/collection/graph',
      { revision: latest.revision, groups: { [group.id]: { [c.id]: 'none' } } },
      { query: { 'skip-graph': 'true' } },
    );
    assert.equal(skipped.status, 200);
    assert.deepEqual(Object.keys(skipped.body), ['revision']);
    assert.equal(skipped.body.revision, latest.revision + 1);
    const final = (await admin.get('/api/collection/graph')).body;
    assert.equal(final.groups[String(group.id)]?.[String(c.id)], undefined, '"none" is left out of the graph');

    const invalid = await admin.put('/api/collection/graph', { revision: final.revision, groups: { [group.id]: { [c.id]: 'owner' } } });
    assert.equal(invalid.status, 400);
    const missingGroups = await admin.put('/api/collection/graph', { revision: final.revision });
    assert.equal(missingGroups.status, 400);
    assert.equal(missingGroups.body.errors.groups, 'Value must be a map.');
  });

  test('graph endpoints are for admins only', async () => {
    const { client } = await createUserClient(server(), admin);
    assert.equal((await client.get('/api/collection/graph')).status, 403);
    assert.equal((await client.put('/api/collection/graph', { revision: 1, groups: {} })).status, 403);
    assert.equal((await server().anon.get('/api/collection/graph')).status, 401);
  });

  test('nested access: read-only, no access and curate see exactly what they should', async () => {
    // A (read) ⊃ B (none) ⊃ X (read); A ⊃ C (write); D (none) at the root; the root itself: none.
    const A = await createCollection(admin, { name: uniqueName('Perm A') });
    const B = await createCollection(admin, { name: uniqueName('Perm B'), parent_id: A.id });
    const X = await createCollection(admin, { name: uniqueName('Perm X'), parent_id: B.id });
    const C = await createCollection(admin, { name: uniqueName('Perm C'), parent_id: A.id });
    const D = await createCollection(admin, { name: uniqueName('Perm D') });
    const tag = uniqueName('zebra');
    const inA = await createCard(admin, data, { collection_id: A.id, name: `${tag} in A` });
    const inB = await createCard(admin, data, { collection_id: B.id, name: `${tag} in B` });
    const inX = await createCard(admin, data, { collection_id: X.id, name: `${tag} in X` });
    const inC = await createCard(admin, data, { collection_id: C.id, name: `${tag} in C` });
    const inD = await createCard(admin, data, { collection_id: D.id, name: `${tag} in D` });
    const inRoot = await createCard(admin, data, { name: `${tag} in root` });

    const group = (await admin.post('/api/permissions/group', { name: uniqueName('Perm group') })).body;
    const { client: user, user: record } = await createUserClient(server(), admin);
    await admin.post('/api/permissions/membership', { group_id: group.id, user_id: record.id });

    const graph = (await admin.get('/api/collection/graph')).body;
    const allUsers: Record<string, string> = { root: 'none' };
    for (const id of Object.keys(graph.groups['1'])) allUsers[id] = 'none';
    const put = await admin.put('/api/collection/graph', {
      revision: graph.revision,
      groups: { 1: allUsers, [group.id]: { root: 'none', [A.id]: 'read', [B.id]: 'none', [X.id]: 'read', [C.id]: 'write', [D.id]: 'none' } },
    });
    assert.equal(put.status, 200);

    // single reads
    assert.equal((await user.get(`/api/collection/${A.id}`)).status, 200);
    assert.equal((await user.get(`/api/collection/${A.id}`)).body.can_write, false);
    assert.equal((await user.get(`/api/collection/${B.id}`)).status, 403);
    assert.equal((await user.get(`/api/collection/${D.id}`)).status, 403);
    assert.equal((await user.get(`/api/collection/${C.id}`)).body.can_write, true);
    const xDetail = (await user.get(`/api/collection/${X.id}`)).body;
    assert.equal(xDetail.effective_location, `/${A.id}/`, 'the unreadable parent is skipped');
    assert.deepEqual(xDetail.effective_ancestors.map((a: any) => a.id), [A.id], 'no root: it is not readable');
    assert.equal((await user.get('/api/collection/root')).status, 403);

    // list and tree
    const list = (await user.get('/api/collection')).body.map((c: any) => c.id);
    assert.ok(!list.includes('root'));
    for (const id of [A.id, X.id, C.id]) assert.ok(list.includes(id));
    for (const id of [B.id, D.id]) assert.ok(!list.includes(id));
    const tree = (await user.get('/api/collection/tree')).body;
    const nodeA = tree.find((n: any) => n.id === A.id);
    assert.ok(nodeA);
    assert.deepEqual(nodeA.children.map((n: any) => n.id).sort(), [C.id, X.id].sort());
    assert.ok(!tree.some((n: any) => n.id === D.id || n.id === B.id));

    // items
    const rootItems = (await user.get('/api/collection/root/items')).body;
    assert.deepEqual(rootItems.models, ['collection']);
    assert.deepEqual(rootItems.data.map((i: any) => i.id), [A.id]);
    const aItems = (await user.get(`/api/collection/${A.id}/items`)).body;
    const aKeys = aItems.data.map((i: any) => `${i.model}:${i.id}`).sort();
    assert.deepEqual(aKeys, [`card:${inA.id}`, `collection:${C.id}`, `collection:${X.id}`].sort());
    assert.equal(aItems.data.find((i: any) => i.id === inA.id).can_write, false);
    assert.equal((await user.get(`/api/collection/${B.id}/items`)).status, 403);

    // cards: read
    assert.equal((await user.get(`/api/card/${inA.id}`)).status, 200);
    assert.equal((await user.get(`/api/card/${inA.id}`)).body.can_write, false);
    assert.equal((await user.get(`/api/card/${inB.id}`)).status, 403);
    assert.equal((await user.get(`/api/card/${inD.id}`)).status, 403);
    assert.equal((await user.get(`/api/card/${inRoot.id}`)).status, 403);
    assert.equal((await user.get(`/api/card/${inX.id}`)).status, 200);
    const cardIds = (await user.get('/api/card')).body.map((c: any) => c.id);
    assert.deepEqual(
      [inA.id, inB.id, inX.id, inC.id, inD.id, inRoot.id].filter((id) => cardIds.includes(id)).sort(),
      [inA.id, inX.id, inC.id].sort(),
    );

    // cards: write
    assert.equal((await user.put(`/api/card/${inA.id}`, { name: 'nope' })).status, 403);
    assert.equal((await user.put(`/api/card/${inC.id}`, { description: 'curated' })).status, 200);
    assert.equal((await user.post('/api/card', { name: 'new', display: 'table', visualization_settings: {}, dataset_query: mbql(data), collection_id: A.id })).status, 403);
    assert.equal((await user.post('/api/card', { name: 'new', display: 'table', visualization_settings: {}, dataset_query: mbql(data) })).status, 403, 'no root write');
    const created = await user.post('/api/card', { name: 'new in C', display: 'table', visualization_settings: {}, dataset_query: mbql(data), collection_id: C.id });
    assert.equal(created.status, 200);
    assert.equal((await user.put(`/api/card/${inC.id}`, { collection_id: A.id })).status, 403, 'cannot move into a read-only collection');
    assert.equal((await user.delete(`/api/card/${inA.id}`)).status, 403);
    assert.equal((await user.post(`/api/card/${inB.id}/copy`)).status, 403);
    assert.equal((await user.post('/api/card/collections', { card_ids: [inC.id], collection_id: A.id })).status, 403);

    // collections: write
    assert.equal((await user.post('/api/collection', { name: 'in A', parent_id: A.id })).status, 403);
    const sub = await user.post('/api/collection', { name: 'in C', parent_id: C.id });
    assert.equal(sub.status, 200);
    assert.equal((await user.put(`/api/collection/${A.id}`, { name: 'renamed' })).status, 403);
    assert.equal((await user.put(`/api/collection/${C.id}`, { parent_id: D.id })).status, 403, 'cannot move into a collection without curate');

    // search
    const found = (await user.get('/api/search', { query: { q: tag } })).body;
    const foundIds = found.data.filter((r: any) => r.model === 'card').map((r: any) => r.id).sort();
    assert.deepEqual(foundIds, [inA.id, inX.id, inC.id].sort());
    const adminFound = (await admin.get('/api/search', { query: { q: tag, models: 'card' } })).body;
    assert.equal(adminFound.total, 6);

    // revisions follow card permissions
    assert.equal((await user.get('/api/revision', { query: { entity: 'card', id: inB.id } })).status, 403);
    assert.equal((await user.get('/api/revision', { query: { entity: 'card', id: inA.id } })).status, 200);
  });
});
