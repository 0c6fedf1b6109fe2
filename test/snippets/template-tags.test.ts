// Snippets carry the template tags of their content (`template_tags`, Metabase 0.57+; @metabase/cli 0.3.1 requires
// the key), and a native query that inlines a snippet has the snippet's tags: a `{{var}}` inside it is a variable of
// the query, and a snippet inlined by another is found by the id it was saved with.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { appDbEnv, forEachAppDb, setupAdmin, startServer, ADMIN } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

forEachAppDb('snippet template tags', (server) => {
  let admin: Client;
  let sample: Sample;
  const name = () => uniqueName('snip').replace(/\s/g, '_');

  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
  });

  async function snippet(content: string, snippetName = name()) {
    const response = await admin.post('/api/native-query-snippet', { name: snippetName, content });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  function run(sql: string, tags: Record<string, unknown>, parameters: unknown[] = []) {
    return admin.post('/api/dataset', { database: sample.id, type: 'native', native: { query: sql, 'template-tags': tags }, parameters });
  }

  const snippetTag = (s: { id: number; name: string }) => ({
    [`snippet: ${s.name}`]: { id: `tag-${s.id}`, name: `snippet: ${s.name}`, 'display-name': s.name, type: 'snippet', 'snippet-name': s.name, 'snippet-id': s.id },
  });

  test('every snippet response has template_tags: {} without tags, the tags of its content otherwise', async () => {
    const plain = await snippet('CATEGORY IS NOT NULL');
    assert.deepEqual(plain.template_tags, {});
    assert.deepEqual((await admin.get(`/api/native-query-snippet/${plain.id}`)).body.template_tags, {});

    const other = await snippet('PRICE > 10');
    const tagged = await snippet(`ID = {{id}} [[AND CATEGORY = {{ category }}]] AND {{snippet: ${other.name}}} AND {{#12-orders}} AND {{not a tag}}`);
    const tags = tagged.template_tags;
    assert.deepEqual(Object.keys(tags).sort(), ['#12-orders', 'category', 'id', `snippet: ${other.name}`].sort());
    assert.match(tags.id.id, UUID);
    assert.deepEqual({ ...tags.id, id: undefined }, { id: undefined, name: 'id', 'display-name': 'ID', type: 'text' });
    assert.equal(tags.category['display-name'], 'Category');
    assert.equal(tags[`snippet: ${other.name}`].type, 'snippet');
    assert.equal(tags[`snippet: ${other.name}`]['snippet-name'], other.name);
    assert.equal(tags[`snippet: ${other.name}`]['snippet-id'], other.id);
    assert.equal(tags['#12-orders'].type, 'card');
    assert.equal(tags['#12-orders']['card-id'], 12);

    // the same in GET, the list and PUT; a tag that stays keeps its id, a new one gets its own
    assert.deepEqual((await admin.get(`/api/native-query-snippet/${tagged.id}`)).body.template_tags, tags);
    const listed = (await admin.get('/api/native-query-snippet')).body.find((x: any) => x.id === tagged.id);
    assert.deepEqual(listed.template_tags, tags);
    const updated = (await admin.put(`/api/native-query-snippet/${tagged.id}`, { content: 'ID = {{id}} AND VENDOR = {{vendor}}' })).body;
    assert.deepEqual(Object.keys(updated.template_tags).sort(), ['id', 'vendor']);
    assert.equal(updated.template_tags.id.id, tags.id.id);
    assert.match(updated.template_tags.vendor.id, UUID);
    const renamed = (await admin.put(`/api/native-query-snippet/${tagged.id}`, { name: `${tagged.name}_2` })).body;
    assert.deepEqual(renamed.template_tags, updated.template_tags);
  });

  test("a snippet's variable is a variable of the query that inlines it: by name or by the tag's id, with its label", async () => {
    const byId = await snippet('ID = {{product}}');
    const sql = `SELECT ID, CATEGORY FROM PRODUCTS WHERE {{snippet: ${byId.name}}}`;
    const tagId = byId.template_tags.product.id;

    const byName = await run(sql, snippetTag(byId), [{ type: 'category', target: ['variable', ['template-tag', 'product']], value: '3' }]);
    assert.equal(byName.status, 202, byName.text);
    assert.deepEqual(byName.body.data.rows.map((r: unknown[]) => r[0]), [3]);

    const byTagId = await run(sql, snippetTag(byId), [{ type: 'category', target: ['variable', ['template-tag', { id: tagId }]], value: '5' }]);
    assert.equal(byTagId.status, 202, byTagId.text);
    assert.deepEqual(byTagId.body.data.rows.map((r: unknown[]) => r[0]), [5]);

    const missing = await run(sql, snippetTag(byId));
    assert.equal(missing.body.status, 'failed');
    assert.equal(missing.body.error, "You'll need to pick a value for 'Product' before this query can run.");

    // the query's own declaration of the tag wins over the snippet's
    const declared = await run(sql, { ...snippetTag(byId), product: { id: 'mine', name: 'product', 'display-name': 'Which product', type: 'number', required: true } });
    assert.equal(declared.body.error, "You'll need to pick a value for 'Which product' before this query can run.");
  });

  test('a snippet inlined by another is found by the id it was saved with, also after a rename', async () => {
    const inner = await snippet("CATEGORY = 'Widget'");
    const outer = await snippet(`{{snippet: ${inner.name}}} AND PRICE > 0`);
    assert.equal(outer.template_tags[`snippet: ${inner.name}`]['snippet-id'], inner.id);
    const sql = `SELECT COUNT(*) FROM PRODUCTS WHERE {{snippet: ${outer.name}}}`;
    const before = await run(sql, snippetTag(outer));
    assert.equal(before.status, 202, before.text);
    const widgets = before.body.data.rows[0][0];
    assert.ok(widgets > 0);

    assert.equal((await admin.put(`/api/native-query-snippet/${inner.id}`, { name: `${inner.name}_renamed` })).status, 200);
    const after = await run(sql, snippetTag(outer));
    assert.equal(after.body.status, 'completed', after.text);
    assert.equal(after.body.data.rows[0][0], widgets);
  });
});

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`snippets saved before template tags get theirs when the ${kind} app DB is upgraded`, async () => {
    const appDb = await appDbEnv(kind);
    try {
      const first = await startServer(kind, {}, appDb.env);
      let inner: any;
      let outer: any;
      try {
        const admin = await setupAdmin(first);
        inner = (await admin.post('/api/native-query-snippet', { name: 'inner', content: '1 = 1' })).body;
        outer = (await admin.post('/api/native-query-snippet', { name: 'outer', content: 'X = {{x}} AND {{snippet: inner}}' })).body;
        // back to the app DB of a release without the column
        const db = first.ctx.db as any;
        await db.schema.alterTable('native_query_snippet').dropColumn('template_tags').execute();
        await db.deleteFrom('quarry_migration').where('name', '=', '0100_snippet_template_tags').execute();
      } finally {
        await first.server.close();
      }

      const second = await startServer(kind, {}, appDb.env);
      try {
        const client = second.anon.withSession((await second.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password })).body.id);
        const tags = (await client.get(`/api/native-query-snippet/${outer.id}`)).body.template_tags;
        assert.deepEqual(Object.keys(tags).sort(), ['snippet: inner', 'x']);
        assert.equal(tags['snippet: inner']['snippet-id'], inner.id);
        assert.deepEqual((await client.get(`/api/native-query-snippet/${inner.id}`)).body.template_tags, {});
      } finally {
        await second.server.close();
      }
    } finally {
      await appDb.cleanup();
    }
  });
}
