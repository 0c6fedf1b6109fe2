// Collection and search behaviours checked against Metabase's own code after an audit (issue 5):
// - `GET /api/collection/tree?collection-id=N`: the id is read only with `shallow=true` (then N's children — none
//   for an unknown N, still a 200); without `shallow` it is ignored and the whole tree comes back, as in Metabase.
// - `filter_items_in_personal_collection=only` finds the personal collections themselves too (Metabase's filter
//   keeps a collection row by its own personal_owner_id), `exclude` leaves them out.
// - `PUT /api/collection/graph`: entries for personal collections (and below) are ignored; the Administrators group
//   can't be given less than write (400 with Metabase's message) — `write` and `none` there change nothing.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createCollection } from '../cards/fixtures.js';

forEachAppDb('collections and search as Metabase answers them', (server) => {
  let admin: Client;

  before(async () => {
    admin = await setupAdmin(server());
  });

  test('tree: collection-id only matters with shallow, and an unknown one is no error', async () => {
    const parent = await createCollection(admin);
    await createCollection(admin, { parent_id: parent.id });
    const full = await admin.get('/api/collection/tree');
    const withId = await admin.get('/api/collection/tree', { query: { 'collection-id': 999999 } });
    assert.equal(withId.status, 200);
    assert.deepEqual(withId.body, full.body, 'without shallow the id is ignored');
    const shallowUnknown = await admin.get('/api/collection/tree', { query: { shallow: 'true', 'collection-id': 999999 } });
    assert.equal(shallowUnknown.status, 200);
    assert.deepEqual(shallowUnknown.body, []);
    assert.equal((await admin.get('/api/collection/tree', { query: { 'collection-id': 'abc' } })).status, 400);
  });

  test('search: "only" finds personal collections themselves and what is inside them; "exclude" leaves them out', async () => {
    const word = `Prs${Date.now()}`;
    const { client: owner } = await createUserClient(server(), admin, { last_name: word });
    const personalId = (await owner.get('/api/user/current')).body.personal_collection_id;
    const inside = (await owner.post('/api/collection', { name: `${word} notes`, parent_id: personalId })).body;
    const shared = await createCollection(admin, { name: `${word} shared` });
    const found = async (filter: string) =>
      (await admin.get('/api/search', { query: { q: word, models: 'collection', filter_items_in_personal_collection: filter } })).body.data.map((x: any) => x.id).sort();
    assert.deepEqual(await found('only'), [personalId, inside.id].sort());
    assert.deepEqual(await found('exclude'), [shared.id]);
    assert.deepEqual(await found('all'), [personalId, inside.id, shared.id].sort());
    // the owner's own view: "only-mine" has their personal collection, "exclude-others" keeps it too
    const mine = async (filter: string) =>
      (await owner.get('/api/search', { query: { q: word, models: 'collection', filter_items_in_personal_collection: filter } })).body.data.map((x: any) => x.id).sort();
    assert.deepEqual(await mine('only-mine'), [personalId, inside.id].sort());
    assert.deepEqual(await mine('exclude-others'), [personalId, inside.id, shared.id].sort());
  });

  test('collection graph: personal entries ignored, Administrators only ever write', async () => {
    const c = await createCollection(admin);
    const { client: someone } = await createUserClient(server(), admin);
    const personalId = (await someone.get('/api/user/current')).body.personal_collection_id;
    const graph = (await admin.get('/api/collection/graph')).body;

    const personal = await admin.put('/api/collection/graph', { revision: graph.revision, groups: { 1: { [personalId]: 'write' } } });
    assert.equal(personal.status, 200, personal.text);
    const after = (await admin.get('/api/collection/graph')).body;
    assert.equal(after.revision, graph.revision, 'nothing changed, no new revision');
    assert.equal(after.groups['1'][String(personalId)], undefined);

    const lowered = await admin.put('/api/collection/graph', { revision: after.revision, groups: { 2: { [c.id]: 'read' } } });
    assert.equal(lowered.status, 400);
    assert.equal(lowered.text, "You cannot create or revoke permissions for the 'Admin' group.");
    const rootLowered = await admin.put('/api/collection/graph', { revision: after.revision, groups: { 2: { root: 'read' } } });
    assert.equal(rootLowered.status, 400);
    // a refused request changes nothing, even the parts that were fine
    const mixed = await admin.put('/api/collection/graph', { revision: after.revision, groups: { 1: { [c.id]: 'read' }, 2: { [c.id]: 'read' } } });
    assert.equal(mixed.status, 400);
    assert.equal((await admin.get('/api/collection/graph')).body.groups['1'][String(c.id)], after.groups['1'][String(c.id)]);

    for (const perm of ['write', 'none']) {
      const response = await admin.put('/api/collection/graph', { revision: after.revision, groups: { 2: { [c.id]: perm, root: perm } } });
      assert.equal(response.status, 200, `${perm}: ${response.text}`);
    }
    const unknownGroup = await admin.put('/api/collection/graph', { revision: after.revision, groups: { 999999: { [c.id]: 'read' } } });
    assert.equal(unknownGroup.status, 200, unknownGroup.text);
    const final = (await admin.get('/api/collection/graph')).body;
    assert.equal(final.groups['2'][String(c.id)], 'write');
    assert.equal(final.groups['2'].root, 'write');
    assert.equal(final.groups['999999'], undefined);
  });
});
