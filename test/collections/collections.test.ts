import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, uniqueName, type DataFixture } from '../cards/fixtures.js';

forEachAppDb('collections', (server) => {
  let admin: Client;
  let data: DataFixture;
  let me: any;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
    me = (await admin.get('/api/user/current')).body;
  });

  test('create: top-level and nested collections have Metabase location paths and details', async () => {
    const a = await createCollection(admin, { description: 'top level' });
    assert.equal(a.location, '/');
    assert.equal(a.parent_id, null);
    assert.equal(a.archived, false);
    assert.equal(a.personal_owner_id, null);
    assert.equal(a.description, 'top level');
    assert.match(a.entity_id, /^[A-Za-z0-9_-]{21}$/);
    assert.equal(a.can_write, true);
    const b = await createCollection(admin, { parent_id: a.id });
    const c = await createCollection(admin, { parent_id: b.id });
    assert.equal(b.location, `/${a.id}/`);
    assert.equal(c.location, `/${a.id}/${b.id}/`);
    const got = (await admin.get(`/api/collection/${c.id}`)).body;
    assert.equal(got.parent_id, b.id);
    assert.equal(got.effective_location, `/${a.id}/${b.id}/`);
    assert.deepEqual(
      got.effective_ancestors.map((x: any) => x.id),
      ['root', a.id, b.id],
    );
    assert.equal(got.effective_ancestors[0].name, 'Our analytics');
    assert.equal(got.effective_ancestors[0]['metabase.models.collection.root/is-root?'], true);
    assert.equal(got.slug, got.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, ''));
  });

  test('create: validation errors, missing parent, trash as parent, namespace mismatch', async () => {
    const noName = await admin.post('/api/collection', {});
    assert.equal(noName.status, 400);
    assert.equal(noName.body.errors.name, 'value must be a non-blank string.');
    const blankDescription = await admin.post('/api/collection', { name: 'x', description: '' });
    assert.equal(blankDescription.status, 400);
    assert.equal(blankDescription.body.errors.description, 'nullable value must be a non-blank string.');
    const badLevel = await admin.post('/api/collection', { name: 'x', authority_level: 'gold' });
    assert.equal(badLevel.status, 400);
    const missingParent = await admin.post('/api/collection', { name: 'x', parent_id: 999999 });
    assert.equal(missingParent.status, 404);
    const trash = (await admin.get('/api/collection/trash')).body;
    const inTrash = await admin.post('/api/collection', { name: 'x', parent_id: trash.id });
    assert.equal(inTrash.status, 400);
    assert.equal(inTrash.text, 'You cannot modify the Trash Collection.');
    const folder = await createCollection(admin, { namespace: 'snippets' });
    const mismatch = await admin.post('/api/collection', { name: 'x', parent_id: folder.id });
    assert.equal(mismatch.status, 400);
    assert.ok(mismatch.body.errors.namespace);
  });

  test('get: 404 for a missing collection, 404 for a non-numeric id', async () => {
    assert.equal((await admin.get('/api/collection/999999')).status, 404);
    const bad = await admin.get('/api/collection/abc');
    assert.equal(bad.status, 404);
    assert.equal(bad.text, 'API endpoint does not exist.');
  });

  test('list: root first, sorted by name, archived and personal-only filters, namespaces kept apart', async () => {
    const z = await createCollection(admin, { name: uniqueName('zz list') });
    const folder = await createCollection(admin, { namespace: 'snippets' });
    const list = (await admin.get('/api/collection')).body;
    assert.equal(list[0].id, 'root');
    assert.equal(list[0].name, 'Our analytics');
    assert.equal(list[0].can_write, true);
    assert.ok(list.some((c: any) => c.id === z.id && c.can_write === true && c.is_personal === false));
    assert.ok(list.some((c: any) => c.id === me.personal_collection_id && c.is_personal === true));
    assert.ok(!list.some((c: any) => c.id === folder.id), 'snippet folders are not in the default namespace');
    assert.ok(!list.some((c: any) => c.type === 'trash'));
    const names = list.slice(1).filter((c: any) => !c.authority_level).map((c: any) => c.name.toLowerCase());
    assert.deepEqual(names, [...names].sort((a: string, b: string) => a.localeCompare(b)));
    const snippets = (await admin.get('/api/collection', { query: { namespace: 'snippets' } })).body;
    assert.equal(snippets[0].name, 'Top folder');
    assert.ok(snippets.some((c: any) => c.id === folder.id && c.namespace === 'snippets'));
    const personal = (await admin.get('/api/collection', { query: { 'personal-only': 'true' } })).body;
    assert.ok(personal.length >= 1);
    assert.ok(personal.every((c: any) => c.personal_owner_id !== null));
    const bad = await admin.get('/api/collection', { query: { archived: 'maybe' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors.archived, "nullable value must be a valid boolean string ('true' or 'false').");
  });

  test('root and trash pseudo-collections', async () => {
    const root = (await admin.get('/api/collection/root')).body;
    assert.equal(root.id, 'root');
    assert.equal(root.name, 'Our analytics');
    assert.equal(root.can_write, true);
    assert.deepEqual(root.effective_ancestors, []);
    const snippetRoot = (await admin.get('/api/collection/root', { query: { namespace: 'snippets' } })).body;
    assert.equal(snippetRoot.name, 'Top folder');
    const trash = (await admin.get('/api/collection/trash')).body;
    assert.equal(trash.type, 'trash');
    assert.equal(trash.name, 'Trash');
    assert.equal(trash.can_write, false);
    const renameTrash = await admin.put(`/api/collection/${trash.id}`, { name: 'Bin' });
    assert.equal(renameTrash.status, 400);
    assert.equal(renameTrash.text, 'You cannot modify the Trash Collection.');
  });

  test('update: rename, describe, move under another collection and back to the root', async () => {
    const a = await createCollection(admin);
    const b = await createCollection(admin);
    const child = await createCollection(admin, { parent_id: b.id });
    const renamed = await admin.put(`/api/collection/${a.id}`, { name: 'Renamed Thing', description: 'now described' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed Thing');
    assert.equal(renamed.body.slug, 'renamed_thing');
    assert.equal(renamed.body.description, 'now described');
    const moved = await admin.put(`/api/collection/${b.id}`, { parent_id: a.id });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.location, `/${a.id}/`);
    assert.equal((await admin.get(`/api/collection/${child.id}`)).body.location, `/${a.id}/${b.id}/`, 'descendants move too');
    const intoItself = await admin.put(`/api/collection/${a.id}`, { parent_id: child.id });
    assert.equal(intoItself.status, 400);
    const back = await admin.put(`/api/collection/${b.id}`, { parent_id: null });
    assert.equal(back.body.location, '/');
    assert.equal((await admin.get(`/api/collection/${child.id}`)).body.location, `/${b.id}/`);
  });

  test('personal collections: cannot be moved, archived or made official; others see 403', async () => {
    const pid = me.personal_collection_id;
    const move = await admin.put(`/api/collection/${pid}`, { parent_id: (await createCollection(admin)).id });
    assert.equal(move.status, 400);
    assert.equal(move.body.errors.location, 'You are not allowed to move a Personal Collection.');
    const archive = await admin.put(`/api/collection/${pid}`, { archived: true });
    assert.equal(archive.status, 400);
    assert.equal(archive.body.errors.archived, 'You cannot archive a Personal Collection.');
    const official = await admin.put(`/api/collection/${pid}`, { authority_level: 'official' });
    assert.equal(official.status, 400);
    const { client: other } = await createUserClient(server(), admin);
    assert.equal((await other.get(`/api/collection/${pid}`)).status, 403);
    const rename = await other.put(`/api/collection/${pid}`, { name: 'mine now' });
    assert.equal(rename.status, 403);
    assert.equal(rename.text, "You don't have permissions to do that.");
    // a user's own personal collection is theirs to curate
    const own = (await other.get('/api/user/current')).body.personal_collection_id;
    const sub = await other.post('/api/collection', { name: 'My sub', parent_id: own });
    assert.equal(sub.status, 200);
    assert.equal(sub.body.is_personal, true);
    // admins see every personal collection unless they ask not to
    const all = (await admin.get('/api/collection')).body;
    assert.ok(all.some((c: any) => c.id === own));
    const excluded = (await admin.get('/api/collection', { query: { 'exclude-other-user-collections': 'true' } })).body;
    assert.ok(!excluded.some((c: any) => c.id === own || c.id === sub.body.id));
  });

  test('official collections: admins only, listed first in items', async () => {
    const parent = await createCollection(admin);
    await createCollection(admin, { parent_id: parent.id, name: 'aaa plain' });
    const official = await createCollection(admin, { parent_id: parent.id, name: 'zzz official', authority_level: 'official' });
    assert.equal(official.authority_level, 'official');
    const items = (await admin.get(`/api/collection/${parent.id}/items`)).body;
    assert.equal(items.data[0].id, official.id);
    const plain = (await admin.get(`/api/collection/${parent.id}/items`, { query: { official_collections_first: 'false' } })).body;
    assert.equal(plain.data[plain.data.length - 1].id, official.id);
    const { client } = await createUserClient(server(), admin);
    const attempt = await client.post('/api/collection', { name: 'x', authority_level: 'official' });
    assert.equal(attempt.status, 403);
  });

  test('archive with children and contents, trash listing, restore', async () => {
    const parent = await createCollection(admin);
    const child = await createCollection(admin, { parent_id: parent.id });
    const card = await createCard(admin, data, { collection_id: child.id });
    const loose = await createCard(admin, data, { collection_id: parent.id });
    await admin.put(`/api/card/${loose.id}`, { archived: true });

    const archived = await admin.put(`/api/collection/${parent.id}`, { archived: true });
    assert.equal(archived.status, 200);
    assert.equal(archived.body.archived, true);
    assert.equal(archived.body.archived_directly, true);
    assert.equal(archived.body.can_restore, true);
    const childNow = (await admin.get(`/api/collection/${child.id}`)).body;
    assert.equal(childNow.archived, true);
    assert.equal(childNow.archived_directly, false);
    assert.equal(childNow.can_restore, false);
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.archived, true);

    const trash = (await admin.get('/api/collection/trash')).body;
    const trashItems = (await admin.get(`/api/collection/${trash.id}/items`)).body;
    const keys = trashItems.data.map((i: any) => `${i.model}:${i.id}`);
    assert.ok(keys.includes(`collection:${parent.id}`));
    assert.ok(keys.includes(`card:${loose.id}`));
    assert.ok(!keys.includes(`collection:${child.id}`), 'only things archived directly are at the top of the trash');
    assert.ok(!keys.includes(`card:${card.id}`));
    const inside = (await admin.get(`/api/collection/${parent.id}/items`)).body;
    assert.ok(inside.data.some((i: any) => i.id === child.id && i.model === 'collection'));
    const list = (await admin.get('/api/collection', { query: { archived: 'true' } })).body;
    assert.ok(list.some((c: any) => c.id === parent.id));
    assert.ok(!(await admin.get('/api/collection')).body.some((c: any) => c.id === parent.id));

    const restored = await admin.put(`/api/collection/${parent.id}`, { archived: false });
    assert.equal(restored.status, 200);
    assert.equal(restored.body.archived, false);
    assert.equal((await admin.get(`/api/collection/${child.id}`)).body.archived, false);
    assert.equal((await admin.get(`/api/card/${card.id}`)).body.archived, false);
    assert.equal((await admin.get(`/api/card/${loose.id}`)).body.archived, true, 'the card trashed on its own stays trashed');
  });

  test('restoring into an archived parent is refused; restoring to a new parent moves it', async () => {
    const parent = await createCollection(admin);
    const child = await createCollection(admin, { parent_id: parent.id });
    await admin.put(`/api/collection/${child.id}`, { archived: true });
    await admin.put(`/api/collection/${parent.id}`, { archived: true });
    const detail = (await admin.get(`/api/collection/${child.id}`)).body;
    assert.equal(detail.can_restore, false);
    assert.equal((await admin.put(`/api/collection/${child.id}`, { archived: false })).status, 400);
    const target = await createCollection(admin);
    const moved = await admin.put(`/api/collection/${child.id}`, { archived: false, parent_id: target.id });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.location, `/${target.id}/`);
    assert.equal(moved.body.archived, false);
  });

  test('items: envelope, models filter, name sort, pinned state, paging, model sort', async () => {
    const c = await createCollection(admin);
    const sub = await createCollection(admin, { parent_id: c.id, name: 'm-sub' });
    const b = await createCard(admin, data, { collection_id: c.id, name: 'b-card' });
    await createCard(admin, data, { collection_id: c.id, name: 'a-card' });
    await createCard(admin, data, { collection_id: c.id, name: 'c-card', collection_position: 1 });
    const model = await createCard(admin, data, { collection_id: c.id, name: 'd-model', type: 'model' });
    const metric = await createCard(admin, data, { collection_id: c.id, name: 'e-metric', type: 'metric', display: 'scalar', dataset_query: { database: data.databaseId, type: 'query', query: { 'source-table': data.tableId, aggregation: [['count']] } } });

    const all = (await admin.get(`/api/collection/${c.id}/items`)).body;
    assert.deepEqual(Object.keys(all).sort(), ['data', 'limit', 'models', 'offset', 'total']);
    assert.equal(all.total, 6);
    assert.equal(all.limit, null);
    assert.deepEqual(all.models, ['card', 'collection', 'dashboard', 'dataset', 'metric', 'pulse', 'timeline']);
    assert.deepEqual(all.data.map((i: any) => i.name), ['a-card', 'b-card', 'c-card', 'd-model', 'e-metric', 'm-sub']);
    assert.equal(all.data.find((i: any) => i.id === model.id).model, 'dataset');
    assert.equal(all.data.find((i: any) => i.id === metric.id).model, 'metric');
    const cardItem = all.data.find((i: any) => i.id === b.id);
    assert.equal(cardItem.model, 'card');
    assert.equal(cardItem.display, 'table');
    assert.equal(cardItem.collection_id, c.id);
    assert.equal(cardItem.can_write, true);
    assert.equal(cardItem.fully_parameterized, true);
    assert.equal(cardItem.database_id, data.databaseId);
    assert.equal(cardItem['last-edit-info'].email, 'admin@example.com');
    const subItem = all.data.find((i: any) => i.id === sub.id);
    assert.equal(subItem.model, 'collection');
    assert.equal(subItem.location, `/${c.id}/`);

    const cards = (await admin.get(`/api/collection/${c.id}/items`, { query: { models: 'card' } })).body;
    assert.deepEqual(cards.models, ['card']);
    assert.deepEqual(cards.data.map((i: any) => i.name), ['a-card', 'b-card', 'c-card']);
    const two = (await admin.get(`/api/collection/${c.id}/items`, { query: { models: ['dataset', 'metric'] } })).body;
    assert.deepEqual(two.models, ['dataset', 'metric']);
    assert.equal(two.total, 2);
    const none = (await admin.get(`/api/collection/${c.id}/items`, { query: { models: 'no_models' } })).body;
    assert.deepEqual(none, { total: 0, data: [], limit: null, offset: null, models: [] });
    const desc = (await admin.get(`/api/collection/${c.id}/items`, { query: { models: 'card', sort_column: 'name', sort_direction: 'desc' } })).body;
    assert.deepEqual(desc.data.map((i: any) => i.name), ['c-card', 'b-card', 'a-card']);
    const pinned = (await admin.get(`/api/collection/${c.id}/items`, { query: { pinned_state: 'is_pinned' } })).body;
    assert.deepEqual(pinned.data.map((i: any) => i.name), ['c-card']);
    const unpinned = (await admin.get(`/api/collection/${c.id}/items`, { query: { pinned_state: 'is_not_pinned' } })).body;
    assert.equal(unpinned.total, 5);
    const page = (await admin.get(`/api/collection/${c.id}/items`, { query: { limit: 2, offset: 1 } })).body;
    assert.equal(page.total, 6);
    assert.equal(page.limit, 2);
    assert.equal(page.offset, 1);
    assert.deepEqual(page.data.map((i: any) => i.name), ['b-card', 'c-card']);
    const byModel = (await admin.get(`/api/collection/${c.id}/items`, { query: { sort_column: 'model' } })).body;
    assert.deepEqual(byModel.data.map((i: any) => i.model), ['dataset', 'metric', 'card', 'card', 'card', 'collection']);
    const byEdit = (await admin.get(`/api/collection/${c.id}/items`, { query: { models: 'card', sort_column: 'last_edited_at', sort_direction: 'desc' } })).body;
    assert.deepEqual(byEdit.data.map((i: any) => i.name), ['c-card', 'a-card', 'b-card']);
    const withAdhoc = (await admin.get(`/api/collection/${c.id}/items`, { query: { models: 'card', include_can_run_adhoc_query: 'true' } })).body;
    assert.ok(withAdhoc.data.every((i: any) => i.can_run_adhoc_query === true));
    assert.ok(cards.data.every((i: any) => !('can_run_adhoc_query' in i)));
    const badModel = await admin.get(`/api/collection/${c.id}/items`, { query: { models: 'planet' } });
    assert.equal(badModel.status, 400);
    const badSort = await admin.get(`/api/collection/${c.id}/items`, { query: { sort_column: 'size' } });
    assert.equal(badSort.status, 400);
  });

  test('root items leave personal collections out and include root cards', async () => {
    const card = await createCard(admin, data, { name: uniqueName('Root card') });
    const top = await createCollection(admin);
    const items = (await admin.get('/api/collection/root/items')).body;
    const keys = items.data.map((i: any) => `${i.model}:${i.id}`);
    assert.ok(keys.includes(`card:${card.id}`));
    assert.ok(keys.includes(`collection:${top.id}`));
    assert.ok(!keys.includes(`collection:${me.personal_collection_id}`));
    assert.equal(items.data.find((i: any) => i.id === card.id).collection_id, null);
  });

  test('tree: nesting with here and below', async () => {
    const parent = await createCollection(admin);
    const child = await createCollection(admin, { parent_id: parent.id });
    const grandchild = await createCollection(admin, { parent_id: child.id });
    await createCard(admin, data, { collection_id: child.id });
    await createCard(admin, data, { collection_id: grandchild.id, type: 'model' });
    const tree = (await admin.get('/api/collection/tree')).body;
    const node = tree.find((n: any) => n.id === parent.id);
    assert.ok(node);
    assert.deepEqual(node.here, []);
    assert.deepEqual(node.below, ['card', 'dataset']);
    const kid = node.children.find((n: any) => n.id === child.id);
    assert.deepEqual(kid.here, ['card']);
    assert.deepEqual(kid.below, ['dataset']);
    assert.deepEqual(kid.children[0].here, ['dataset']);
    const shallow = (await admin.get('/api/collection/tree', { query: { shallow: 'true', 'collection-id': parent.id } })).body;
    assert.deepEqual(shallow.map((n: any) => n.id), [child.id]);
    assert.equal(shallow[0].children, true);
    const personalHidden = (await admin.get('/api/collection/tree', { query: { 'exclude-other-user-collections': 'true' } })).body;
    assert.ok(personalHidden.some((n: any) => n.id === me.personal_collection_id));
    await admin.put(`/api/collection/${child.id}`, { archived: true });
    const afterArchive = (await admin.get('/api/collection/tree', { query: { 'exclude-archived': 'true' } })).body;
    assert.deepEqual(afterArchive.find((n: any) => n.id === parent.id).children, []);
  });

  test('the Trash: in the tree unless exclude-archived, in the list only with archived=true (Metabase)', async () => {
    const isTrash = (n: any) => n.type === 'trash';
    const tree = (await admin.get('/api/collection/tree')).body;
    assert.equal(tree.filter(isTrash).length, 1);
    assert.equal(tree.find(isTrash).name, 'Trash');
    const trashes = async (path: string, query: Record<string, string> = {}) => (await admin.get(path, { query })).body.filter(isTrash).length;
    assert.equal(await trashes('/api/collection/tree', { 'exclude-archived': 'true' }), 0, 'exclude-archived leaves the Trash out');
    assert.equal(await trashes('/api/collection/tree', { shallow: 'true' }), 1, 'shallow tree');
    assert.equal(await trashes('/api/collection/tree', { shallow: 'true', 'exclude-archived': 'true' }), 0, 'shallow, exclude-archived');
    assert.equal(await trashes('/api/collection'), 0, 'the list leaves it out');
    const archived = (await admin.get('/api/collection', { query: { archived: 'true' } })).body;
    assert.equal(archived.filter(isTrash).length, 1, 'archived=true lists it');
    assert.equal(archived.filter((c: any) => !isTrash(c) && c.archived !== true).length, 0, 'and only archived collections');
  });

  test('views of collection items show up in recents', async () => {
    const c = await createCollection(admin);
    await admin.get(`/api/collection/${c.id}/items`);
    const recents = (await admin.get('/api/activity/recents', { query: { context: 'views' } })).body.recents;
    const hit = recents.find((r: any) => r.model === 'collection' && r.id === c.id);
    assert.ok(hit);
    assert.equal(hit.parent_collection.id, 'root');
  });
});
