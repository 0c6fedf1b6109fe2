import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, uniqueName } from '../cards/fixtures.js';

forEachAppDb('native query snippets', (server) => {
  let admin: Client;
  let databaseId: number;
  const name = () => uniqueName('snippet').replace(/\s/g, '_');

  before(async () => {
    admin = await setupAdmin(server());
    // snippets are for users who may write SQL somewhere: a database everyone may query (the default)
    databaseId = (await registerDatabase(server())).databaseId;
  });

  test('create, read, update, list sorted by name with creator, archive', async () => {
    const created = await admin.post('/api/native-query-snippet', { name: name(), content: "CATEGORY = 'Widget'", description: 'widgets only' });
    assert.equal(created.status, 200);
    const s = created.body;
    assert.equal(typeof s.id, 'number');
    assert.equal(s.content, "CATEGORY = 'Widget'");
    assert.equal(s.description, 'widgets only');
    assert.equal(s.collection_id, null);
    assert.equal(s.archived, false);
    assert.equal(s.creator_id, 1);
    assert.equal(s.creator.email, 'admin@example.com');
    assert.match(s.entity_id, /^[A-Za-z0-9_-]{21}$/);
    assert.deepEqual((await admin.get(`/api/native-query-snippet/${s.id}`)).body, s);
    const updated = (await admin.put(`/api/native-query-snippet/${s.id}`, { content: "CATEGORY = 'Gadget'" })).body;
    assert.equal(updated.content, "CATEGORY = 'Gadget'");
    assert.equal(updated.description, 'widgets only');
    await admin.post('/api/native-query-snippet', { name: 'aaa first', content: '1 = 1' });
    const list = (await admin.get('/api/native-query-snippet')).body;
    const names = list.map((x: any) => x.name.toLowerCase());
    assert.deepEqual(names, [...names].sort((a: string, b: string) => a.localeCompare(b)));
    assert.ok(list[0].creator);
    await admin.put(`/api/native-query-snippet/${s.id}`, { archived: true });
    assert.ok(!(await admin.get('/api/native-query-snippet')).body.some((x: any) => x.id === s.id));
    assert.ok((await admin.get('/api/native-query-snippet', { query: { archived: 'true' } })).body.some((x: any) => x.id === s.id));
    assert.equal((await admin.get('/api/native-query-snippet/987654')).status, 404);
  });

  test('name rules and uniqueness', async () => {
    const brace = await admin.post('/api/native-query-snippet', { name: 'bad}name', content: '1 = 1' });
    assert.equal(brace.status, 400);
    assert.equal(brace.body.errors.name, "snippet names cannot include '}' or start with spaces");
    const space = await admin.post('/api/native-query-snippet', { name: ' spaced', content: '1 = 1' });
    assert.equal(space.status, 400);
    const noContent = await admin.post('/api/native-query-snippet', { name: name() });
    assert.equal(noContent.status, 400);
    assert.ok(noContent.body.errors.content);
    const taken = name();
    await admin.post('/api/native-query-snippet', { name: taken, content: '1 = 1' });
    const duplicate = await admin.post('/api/native-query-snippet', { name: taken, content: '2 = 2' });
    assert.equal(duplicate.status, 400);
    assert.equal(duplicate.text, 'A snippet with that name already exists. Please pick a different name.');
    const other = (await admin.post('/api/native-query-snippet', { name: name(), content: '1 = 1' })).body;
    const rename = await admin.put(`/api/native-query-snippet/${other.id}`, { name: taken });
    assert.equal(rename.status, 400);
    const badRename = await admin.put(`/api/native-query-snippet/${other.id}`, { name: 'x}' });
    assert.equal(badRename.status, 400);
  });

  test('snippet folders: items, permissions of the snippets namespace', async () => {
    const folder = (await admin.post('/api/collection', { name: uniqueName('Folder'), namespace: 'snippets' })).body;
    const inFolder = (await admin.post('/api/native-query-snippet', { name: name(), content: '1 = 1', collection_id: folder.id })).body;
    assert.equal(inFolder.collection_id, folder.id);
    const items = (await admin.get(`/api/collection/${folder.id}/items`)).body;
    assert.deepEqual(items.models, ['collection', 'snippet']);
    assert.deepEqual(items.data.map((i: any) => `${i.model}:${i.id}`), [`snippet:${inFolder.id}`]);
    assert.equal('limit' in items, false, 'snippet folders are not paged');
    const rootItems = (await admin.get('/api/collection/root/items', { query: { namespace: 'snippets' } })).body;
    assert.ok(rootItems.data.some((i: any) => i.model === 'collection' && i.id === folder.id), 'folders at the top');
    // as in Metabase, the snippets namespace is never paged and its envelope has no limit/offset
    const paged = (await admin.get('/api/collection/root/items', { query: { namespace: 'snippets', limit: 1, offset: 0 } })).body;
    assert.equal(paged.data.length, rootItems.data.length);
    assert.equal(paged.total, rootItems.total);
    assert.deepEqual(Object.keys(paged).sort(), ['data', 'models', 'total']);
    const normal = (await admin.post('/api/collection', { name: uniqueName('Normal') })).body;
    const wrong = await admin.post('/api/native-query-snippet', { name: name(), content: '1', collection_id: normal.id });
    assert.equal(wrong.status, 400);

    const { client } = await createUserClient(server(), admin);
    assert.equal((await client.get(`/api/native-query-snippet/${inFolder.id}`)).status, 200, 'All Users curate snippet folders by default');
    const graph = (await admin.get('/api/collection/graph', { query: { namespace: 'snippets' } })).body;
    assert.equal(graph.groups['1'][String(folder.id)], 'write');
    const put = await admin.put('/api/collection/graph', { namespace: 'snippets', revision: graph.revision, groups: { 1: { [folder.id]: 'none' } } });
    assert.equal(put.status, 200);
    assert.equal((await client.get(`/api/native-query-snippet/${inFolder.id}`)).status, 403);
    assert.ok(!(await client.get('/api/native-query-snippet')).body.some((x: any) => x.id === inFolder.id));
    assert.equal((await client.put(`/api/native-query-snippet/${inFolder.id}`, { content: 'x' })).status, 403);
    const archivedFolder = await admin.put(`/api/collection/${folder.id}`, { archived: true });
    assert.equal(archivedFolder.status, 200);
    assert.equal((await admin.get(`/api/native-query-snippet/${inFolder.id}`)).body.archived, true, 'archived with its folder');
  });
  test('without native SQL anywhere a user sees no snippet: not in search, folder or root items, nor bookmarks', async () => {
    const word = `leaky${Date.now()}`;
    const folder = (await admin.post('/api/collection', { name: uniqueName('Secrets'), namespace: 'snippets' })).body;
    const top = (await admin.post('/api/native-query-snippet', { name: name(), content: `select ${word}` })).body;
    const inside = (await admin.post('/api/native-query-snippet', { name: name(), content: `select ${word}`, collection_id: folder.id })).body;
    const { client } = await createUserClient(server(), admin);
    const searchSnippets = async () =>
      (await client.get('/api/search', { query: { models: 'snippet', q: word, search_native_query: 'true' } })).body.data.map((x: any) => x.id).sort();
    const snippetItems = async (path: string, query: Record<string, string> = {}) =>
      (await client.get(path, { query })).body.data.filter((x: any) => x.model === 'snippet').map((x: any) => x.id);

    // while the user may write SQL, everything shows
    assert.deepEqual(await searchSnippets(), [top.id, inside.id].sort());
    assert.ok((await snippetItems('/api/collection/root/items', { namespace: 'snippets' })).includes(top.id), 'root items');
    assert.deepEqual(await snippetItems(`/api/collection/${folder.id}/items`), [inside.id]);
    assert.equal((await client.post(`/api/bookmark/snippet/${top.id}`)).status, 200);

    const graph = (await admin.get('/api/permissions/graph')).body;
    const restrict = await admin.put('/api/permissions/graph', { revision: graph.revision, groups: { 1: { [databaseId]: { 'create-queries': 'query-builder' } } } });
    assert.equal(restrict.status, 200, restrict.text);
    try {
      assert.equal((await client.get(`/api/native-query-snippet/${top.id}`)).status, 403);
      assert.deepEqual(await searchSnippets(), []);
      assert.deepEqual(await snippetItems('/api/collection/root/items', { namespace: 'snippets' }), []);
      assert.deepEqual(await snippetItems(`/api/collection/${folder.id}/items`), []);
      assert.equal((await client.post(`/api/bookmark/snippet/${inside.id}`)).status, 403);
      assert.ok(!(await client.get('/api/bookmark')).body.some((b: any) => b.type === 'snippet'), 'an older snippet bookmark is hidden');
      // admins are unaffected
      assert.ok((await admin.get(`/api/collection/${folder.id}/items`)).body.data.some((x: any) => x.id === inside.id), 'admins see it');
    } finally {
      const now = (await admin.get('/api/permissions/graph')).body;
      await admin.put('/api/permissions/graph', { revision: now.revision, groups: { 1: { [databaseId]: { 'create-queries': 'query-builder-and-native' } } } });
    }
    assert.ok((await client.get('/api/bookmark')).body.some((b: any) => b.type === 'snippet' && b.item_id === top.id), 'back with native access');
  });
});
