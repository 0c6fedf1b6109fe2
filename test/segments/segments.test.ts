// Segments (/api/segment) against the Sample Database: CRUD and Metabase's shapes, definition validation, who may read
// and write them, `["segment", id]` filters in ad-hoc queries, saved cards and dashboards (counts computed here from
// the generated sample rows), the table metadata and search listings, and their revision history.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';
import { generateSample } from '../../src/sample/generate.js';

// PRODUCTS: ID, EAN, TITLE, CATEGORY, VENDOR, PRICE, RATING, CREATED_AT
// ORDERS: ID, USER_ID, PRODUCT_ID, SUBTOTAL, TAX, TOTAL, DISCOUNT, CREATED_AT, QUANTITY
const rows = generateSample();
const categoryOf = new Map(rows.PRODUCTS.map((p) => [p[0] as number, p[3] as string]));
const WIDGETS = rows.PRODUCTS.filter((p) => p[3] === 'Widget').length;
const CHEAP_WIDGETS = rows.PRODUCTS.filter((p) => p[3] === 'Widget' && (p[5] as number) < 40).length;
const WIDGET_ORDERS = rows.ORDERS.filter((o) => categoryOf.get(o[2] as number) === 'Widget').length;
const BIG_WIDGET_ORDERS = rows.ORDERS.filter((o) => categoryOf.get(o[2] as number) === 'Widget' && (o[5] as number) > 100).length;
const GIZMOS = rows.PRODUCTS.filter((p) => p[3] === 'Gizmo').length;

forEachAppDb('segments', (server) => {
  let admin: Client;
  let reader: Client;
  let blocked: Client;
  let sample: Sample;
  let products: number;
  let orders: number;
  let category: number;
  let price: number;
  let total: number;
  let productId: number;

  const widgetFilter = () => ['=', ['field', category, null], 'Widget'];
  const productsSegment = (fields: Record<string, unknown> = {}) => ({
    name: uniqueName('Widgets'),
    table_id: products,
    definition: { 'source-table': products, filter: widgetFilter() },
    ...fields,
  });
  async function createSegment(fields: Record<string, unknown> = {}) {
    const response = await admin.post('/api/segment', productsSegment(fields));
    assert.equal(response.status, 200, response.text);
    return response.body;
  }
  const count = (table: number, filter: unknown) => ({ database: sample.id, type: 'query', query: { 'source-table': table, aggregation: [['count']], filter } });
  async function countOf(client: Client, query: unknown): Promise<number> {
    const response = await client.post('/api/dataset', query);
    assert.equal(response.status, 202, response.text);
    assert.equal(response.body.status, 'completed', response.text);
    return response.body.data.rows[0][0];
  }

  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
    products = sample.table('PRODUCTS');
    orders = sample.table('ORDERS');
    category = sample.field('PRODUCTS', 'CATEGORY');
    price = sample.field('PRODUCTS', 'PRICE');
    total = sample.field('ORDERS', 'TOTAL');
    productId = sample.field('ORDERS', 'PRODUCT_ID');
    // a reader who may query the Sample Database, and a user who may query nothing
    const group = (await admin.post('/api/permissions/group', { name: uniqueName('Readers') })).body;
    const r = await createUserClient(server(), admin);
    reader = r.client;
    blocked = (await createUserClient(server(), admin)).client;
    await admin.post('/api/permissions/membership', { group_id: group.id, user_id: r.user.id });
    const { revision } = (await admin.get('/api/permissions/graph')).body;
    const put = await admin.put('/api/permissions/graph', {
      revision,
      groups: { 1: { [sample.id]: { 'create-queries': 'no' } }, [group.id]: { [sample.id]: { 'create-queries': 'query-builder' } } },
    });
    assert.equal(put.status, 200, put.text);
  });

  test('create, read, update and archive, in Metabase’s shapes', async () => {
    const name = uniqueName('Widgets');
    const created = await admin.post('/api/segment', { ...productsSegment({ name }), description: 'only widgets' });
    assert.equal(created.status, 200, created.text);
    const s = created.body;
    assert.equal(typeof s.id, 'number');
    assert.equal(s.name, name);
    assert.equal(s.description, 'only widgets');
    assert.equal(s.table_id, products);
    assert.deepEqual(s.definition, { 'source-table': products, filter: widgetFilter() });
    assert.equal(s.archived, false);
    assert.equal(s.caveats, null);
    assert.equal(s.points_of_interest, null);
    assert.equal(s.show_in_getting_started, false);
    assert.equal(s.creator_id, 1);
    assert.equal(s.creator.email, 'admin@example.com');
    assert.match(s.entity_id, /^[A-Za-z0-9_-]{21}$/);
    assert.ok(s.created_at && s.updated_at);
    assert.deepEqual((await admin.get(`/api/segment/${s.id}`)).body, s, 'GET answers what POST did');

    // the list: non-archived, with the table, the creator and the filter in words
    const listed = (await admin.get('/api/segment')).body.find((x: any) => x.id === s.id);
    assert.equal(listed.table.id, products);
    assert.equal(listed.table.name, 'PRODUCTS');
    assert.equal(listed.creator.email, 'admin@example.com');
    assert.equal(listed.definition_description, 'Filtered by Category is Widget');
    const names = (await admin.get('/api/segment')).body.map((x: any) => x.name.toLowerCase());
    assert.deepEqual(names, [...names].sort((a: string, b: string) => a.localeCompare(b)), 'sorted by name');

    // PUT needs a revision message
    const noMessage = await admin.put(`/api/segment/${s.id}`, { name: 'x' });
    assert.equal(noMessage.status, 400);
    assert.equal(noMessage.body.errors.revision_message, 'value must be a non-blank string.');
    const renamed = await admin.put(`/api/segment/${s.id}`, { name: `${name} v2`, caveats: 'careful', points_of_interest: 'cheap ones', show_in_getting_started: true, revision_message: 'rename' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.name, `${name} v2`);
    assert.equal(renamed.body.caveats, 'careful');
    assert.equal(renamed.body.points_of_interest, 'cheap ones');
    assert.equal(renamed.body.show_in_getting_started, true);
    assert.equal(renamed.body.description, 'only widgets', 'absent keys are kept');
    // null clears description/caveats/points_of_interest; a null name or definition changes nothing
    const cleared = (await admin.put(`/api/segment/${s.id}`, { description: null, name: null, definition: null, revision_message: 'clear' })).body;
    assert.equal(cleared.description, null);
    assert.equal(cleared.name, `${name} v2`);
    assert.deepEqual(cleared.definition, s.definition);
    const redefined = (await admin.put(`/api/segment/${s.id}`, { definition: { 'source-table': products, filter: ['=', ['field', category, null], 'Gizmo'] }, revision_message: 'gizmos' })).body;
    assert.deepEqual(redefined.definition.filter, ['=', ['field', category, null], 'Gizmo']);

    // DELETE archives (with a revision message, as Metabase requires)
    assert.equal((await admin.delete(`/api/segment/${s.id}`)).status, 400);
    assert.equal((await admin.delete(`/api/segment/${s.id}`, undefined, { query: { revision_message: 'gone' } })).status, 204);
    const archived = (await admin.get(`/api/segment/${s.id}`)).body;
    assert.equal(archived.archived, true);
    assert.ok(!(await admin.get('/api/segment')).body.some((x: any) => x.id === s.id), 'archived segments are not listed');
    const restored = (await admin.put(`/api/segment/${s.id}`, { archived: false, revision_message: 'back' })).body;
    assert.equal(restored.archived, false);

    assert.equal((await admin.get('/api/segment/987654')).status, 404);
    assert.equal((await admin.put('/api/segment/987654', { name: 'x', revision_message: 'm' })).status, 404);
    assert.equal((await admin.delete('/api/segment/987654', undefined, { query: { revision_message: 'm' } })).status, 404);
  });

  test('definitions: the table comes from the definition, other query forms are accepted, and everything is checked', async () => {
    // no table_id: the definition's source-table (Metabase 0.58+)
    const derived = await admin.post('/api/segment', { name: uniqueName('Derived'), definition: { 'source-table': products, filter: widgetFilter() } });
    assert.equal(derived.status, 200, derived.text);
    assert.equal(derived.body.table_id, products);
    // a whole legacy query, legacy spellings: stored as the canonical fragment
    const whole = await admin.post('/api/segment', {
      name: uniqueName('Whole'),
      definition: { database: sample.id, type: 'query', query: { source_table: products, filter: ['=', ['field-id', category], 'Widget'] } },
    });
    assert.equal(whole.status, 200, whole.text);
    assert.deepEqual(whole.body.definition, { 'source-table': products, filter: widgetFilter() });
    // an MBQL 5 query, as newer clients send it
    const pmbql = await admin.post('/api/segment', {
      name: uniqueName('Five'),
      definition: {
        'lib/type': 'mbql/query',
        database: sample.id,
        stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': products, filters: [['=', { 'lib/uuid': 'a' }, ['field', { 'lib/uuid': 'b' }, category], 'Widget']] }],
      },
    });
    assert.equal(pmbql.status, 200, pmbql.text);
    assert.equal(pmbql.body.table_id, products);
    assert.deepEqual(pmbql.body.definition.filter.slice(0, 1).concat(pmbql.body.definition.filter.slice(2)), ['=', 'Widget']);
    assert.equal(pmbql.body.definition.filter[1][1], category);

    const post = (body: Record<string, unknown>) => admin.post('/api/segment', { name: uniqueName('Bad'), ...body });
    const missingName = await admin.post('/api/segment', { definition: { 'source-table': products, filter: widgetFilter() } });
    assert.equal(missingName.status, 400);
    assert.ok(missingName.body.errors.name);
    assert.equal((await post({ name: '  ', definition: { 'source-table': products, filter: widgetFilter() } })).status, 400);
    const noDefinition = await post({ table_id: products });
    assert.equal(noDefinition.status, 400);
    assert.equal(noDefinition.body.errors.definition, 'Value must be a map.');
    assert.equal((await post({ definition: [1, 2] })).status, 400);
    const noTable = await post({ definition: { filter: widgetFilter() } });
    assert.equal(noTable.status, 400);
    assert.equal(noTable.text, 'Segment definition must specify a source table.');
    const cardSource = await post({ definition: { 'source-table': 'card__1', filter: widgetFilter() } });
    assert.equal(cardSource.text, 'Segment definition must specify a source table.');
    // table_id fills in a missing source-table, and must agree with one that is there
    const filled = await post({ table_id: products, definition: { filter: widgetFilter() } });
    assert.equal(filled.status, 200, filled.text);
    assert.equal(filled.body.definition['source-table'], products);
    const mismatch = await post({ table_id: orders, definition: { 'source-table': products, filter: widgetFilter() } });
    assert.equal(mismatch.status, 400);
    assert.match(mismatch.body.errors.definition, /source-table/);
    const unknownTable = await post({ table_id: 987654, definition: { filter: widgetFilter() } });
    assert.equal(unknownTable.status, 400);
    assert.equal(unknownTable.body.errors.table_id, 'Table 987654 does not exist.');
    const noFilter = await post({ definition: { 'source-table': products } });
    assert.equal(noFilter.status, 400);
    assert.equal(noFilter.body.errors.definition, 'A segment needs a filter.');
    const badClause = await post({ definition: { 'source-table': products, filter: ['frobnicate', ['field', category, null]] } });
    assert.equal(badClause.status, 400);
    assert.match(badClause.body.errors.definition, /unknown clause "frobnicate"/);
    const badArity = await post({ definition: { 'source-table': products, filter: ['between', ['field', price, null], 1] } });
    assert.equal(badArity.status, 400);
    assert.match(badArity.body.errors.definition, /between/);
    const otherTable = await post({ definition: { 'source-table': products, filter: ['>', ['field', total, null], 10] } });
    assert.equal(otherTable.status, 400);
    assert.match(otherTable.body.errors.definition, /not a field of table/);
    const noField = await post({ definition: { 'source-table': products, filter: ['>', ['field', 987654, null], 10] } });
    assert.equal(noField.status, 400);
    assert.match(noField.body.errors.definition, /Field 987654 does not exist/);
    const noSegment = await post({ definition: { 'source-table': products, filter: ['segment', 987654] } });
    assert.equal(noSegment.status, 400);
    assert.match(noSegment.body.errors.definition, /Segment 987654 does not exist/);
    const withJoin = await post({ definition: { 'source-table': products, filter: widgetFilter(), joins: [{ 'source-table': orders, alias: 'O', condition: ['=', 1, 1] }] } });
    assert.equal(withJoin.status, 400);

    // segments may use segments of the same table, but never themselves
    const a = await createSegment();
    const b = await createSegment({ definition: { 'source-table': products, filter: ['and', ['segment', a.id], ['<', ['field', price, null], 40]] } });
    const cycle = await admin.put(`/api/segment/${a.id}`, { definition: { 'source-table': products, filter: ['segment', b.id] }, revision_message: 'loop' });
    assert.equal(cycle.status, 400);
    assert.match(cycle.body.errors.definition, /cannot use itself/);
    const self = await admin.put(`/api/segment/${a.id}`, { definition: { 'source-table': products, filter: ['segment', a.id] }, revision_message: 'loop' });
    assert.equal(self.status, 400);
    const ordersSegment = await admin.post('/api/segment', { name: uniqueName('Big'), definition: { 'source-table': orders, filter: ['>', ['field', total, null], 100] } });
    const crossTable = await post({ definition: { 'source-table': products, filter: ['segment', ordersSegment.body.id] } });
    assert.equal(crossTable.status, 400);
    assert.match(crossTable.body.errors.definition, /another table/);
    assert.equal((await admin.get(`/api/segment/${a.id}`)).body.definition.filter[0], '=', 'refused edits change nothing');
  });

  test('who may read and write: admins write, readers of the table read, others get 403', async () => {
    const s = await createSegment();
    // writes are for admins
    assert.equal((await reader.post('/api/segment', productsSegment())).status, 403);
    assert.equal((await reader.put(`/api/segment/${s.id}`, { name: 'x', revision_message: 'm' })).status, 403);
    assert.equal((await reader.delete(`/api/segment/${s.id}`, undefined, { query: { revision_message: 'm' } })).status, 403);
    assert.equal((await reader.post(`/api/segment/${s.id}/revert`, { revision_id: 1 })).status, 403);
    assert.equal((await admin.get(`/api/segment/${s.id}`)).body.name, s.name);
    // reads follow query access to the table
    assert.equal((await reader.get(`/api/segment/${s.id}`)).status, 200);
    assert.ok((await reader.get('/api/segment')).body.some((x: any) => x.id === s.id));
    assert.equal((await reader.get(`/api/segment/${s.id}/revisions`)).status, 200);
    const denied = await blocked.get(`/api/segment/${s.id}`);
    assert.equal(denied.status, 403);
    assert.equal(denied.text, "You don't have permissions to do that.");
    assert.deepEqual((await blocked.get('/api/segment')).body, []);
    assert.equal((await blocked.get(`/api/segment/${s.id}/revisions`)).status, 403);
    assert.equal((await blocked.get('/api/revision', { query: { entity: 'segment', id: s.id } })).status, 403);
    // and the segment is no way around data permissions
    const run = await blocked.post('/api/dataset', count(products, ['segment', s.id]));
    assert.ok(run.status === 403 || (run.status === 202 && run.body.error_type === 'missing-required-permissions'), run.text);
    assert.equal(await countOf(reader, count(products, ['segment', s.id])), WIDGETS);
  });

  test('segment filters in ad-hoc queries, saved cards and dashboards', async () => {
    const widgets = await createSegment();
    assert.equal(await countOf(admin, count(products, ['segment', widgets.id])), WIDGETS);
    assert.equal(await countOf(admin, count(products, ['and', ['segment', widgets.id], ['<', ['field', price, null], 40]])), CHEAP_WIDGETS);
    assert.equal(await countOf(admin, count(products, ['not', ['segment', widgets.id]])), rows.PRODUCTS.length - WIDGETS);
    // MBQL 5 input refers to segments the same way
    const five = await admin.post('/api/dataset', {
      'lib/type': 'mbql/query',
      database: sample.id,
      stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': products, aggregation: [['count', { 'lib/uuid': 'c' }]], filters: [['segment', { 'lib/uuid': 'd' }, widgets.id]] }],
    });
    assert.equal(five.body.status, 'completed', five.text);
    assert.equal(five.body.data.rows[0][0], WIDGETS);

    // a segment reaching another table through a foreign key, and one built on it
    const widgetOrders = (
      await admin.post('/api/segment', { name: uniqueName('Widget orders'), definition: { 'source-table': orders, filter: ['=', ['field', category, { 'source-field': productId }], 'Widget'] } })
    ).body;
    assert.equal(await countOf(admin, count(orders, ['segment', widgetOrders.id])), WIDGET_ORDERS);
    const bigWidgetOrders = (
      await admin.post('/api/segment', { name: uniqueName('Big widget orders'), definition: { 'source-table': orders, filter: ['and', ['segment', widgetOrders.id], ['>', ['field', total, null], 100]] } })
    ).body;
    assert.equal(await countOf(admin, count(orders, ['segment', bigWidgetOrders.id])), BIG_WIDGET_ORDERS);
    const list = (await admin.get('/api/segment')).body;
    assert.equal(list.find((x: any) => x.id === widgetOrders.id).definition_description, 'Filtered by Product → Category is Widget');
    assert.equal(list.find((x: any) => x.id === bigWidgetOrders.id).definition_description, `Filtered by ${widgetOrders.name} and Total is greater than 100`);
    // the SQL shown for a query with a segment is the inlined filter
    const native = await admin.post('/api/dataset/native', count(products, ['segment', widgets.id]));
    assert.equal(native.status, 200, native.text);
    assert.match(native.body.query, /Widget/);
    const missing = await admin.post('/api/dataset', count(products, ['segment', 987654]));
    assert.equal(missing.body.status, 'failed');
    assert.match(missing.body.error, /Segment 987654 does not exist/);

    // a saved question: the segment is read when the card runs (edits show, archiving doesn't break it)
    const card = (
      await admin.post('/api/card', { name: uniqueName('Widget count'), display: 'scalar', visualization_settings: {}, dataset_query: count(products, ['segment', widgets.id]) })
    ).body;
    const runCard = async (client: Client) => {
      const response = await client.post(`/api/card/${card.id}/query`);
      assert.equal(response.status, 202, response.text);
      assert.equal(response.body.status, 'completed', response.text);
      return response.body.data.rows[0][0];
    };
    assert.equal(await runCard(admin), WIDGETS);
    assert.equal(await runCard(reader), WIDGETS);
    assert.equal((await admin.get('/api/card', { query: { f: 'using_segment', model_id: widgets.id } })).body.some((c: any) => c.id === card.id), true);

    // on a dashboard
    const dashboard = (await admin.post('/api/dashboard', { name: uniqueName('Segments') })).body;
    const layout = (
      await admin.put(`/api/dashboard/${dashboard.id}`, { dashcards: [{ id: -1, card_id: card.id, row: 0, col: 0, size_x: 4, size_y: 4, visualization_settings: {}, series: [], parameter_mappings: [] }] })
    ).body;
    const dashcardRun = await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${layout.dashcards[0].id}/card/${card.id}/query`, {});
    assert.equal(dashcardRun.status, 202, dashcardRun.text);
    assert.equal(dashcardRun.body.data.rows[0][0], WIDGETS);

    await admin.put(`/api/segment/${widgets.id}`, { definition: { 'source-table': products, filter: ['=', ['field', category, null], 'Gizmo'] }, revision_message: 'gizmos now' });
    assert.equal(await runCard(admin), GIZMOS, 'the card follows the segment');
    await admin.delete(`/api/segment/${widgets.id}`, undefined, { query: { revision_message: 'retire' } });
    assert.equal(await runCard(admin), GIZMOS, 'an archived segment still applies where it is used');
  });

  test('table metadata, database usage and search list segments', async () => {
    const word = `seg${Date.now()}`;
    const live = await createSegment({ name: `${word} live`, description: 'the live one' });
    const gone = await createSegment({ name: `${word} gone` });
    await admin.delete(`/api/segment/${gone.id}`, undefined, { query: { revision_message: 'gone' } });

    const metadata = (await admin.get(`/api/table/${products}/query_metadata`)).body;
    const ids = metadata.segments.map((x: any) => x.id);
    assert.ok(ids.includes(live.id));
    assert.ok(!ids.includes(gone.id), 'archived segments are left out');
    const listed = metadata.segments.find((x: any) => x.id === live.id);
    assert.deepEqual(listed.definition, live.definition);
    assert.equal(listed.table_id, products);
    assert.ok((await reader.get(`/api/table/${products}/query_metadata`)).body.segments.some((x: any) => x.id === live.id));
    assert.deepEqual((await admin.get(`/api/table/${orders}/query_metadata`)).body.segments.filter((x: any) => x.name.startsWith(word)), []);
    const db = (await admin.get(`/api/database/${sample.id}/metadata`)).body;
    assert.ok(db.tables.find((t: any) => t.id === products).segments.some((x: any) => x.id === live.id));
    assert.ok((await admin.get(`/api/table/${products}/related`)).body.segments.some((x: any) => x.id === live.id));
    assert.ok((await admin.get(`/api/database/${sample.id}/usage_info`)).body.segment >= 1);

    const search = async (client: Client, query: Record<string, string> = {}) => (await client.get('/api/search', { query: { q: word, ...query } })).body;
    const found = await search(admin, { models: 'segment' });
    assert.deepEqual(found.data.map((x: any) => x.id), [live.id]);
    const hit = found.data[0];
    assert.equal(hit.model, 'segment');
    assert.equal(hit.name, `${word} live`);
    assert.equal(hit.description, 'the live one');
    assert.equal(hit.table_id, products);
    assert.equal(hit.table_name, 'PRODUCTS');
    assert.equal(hit.database_id, sample.id);
    assert.deepEqual(hit.collection, { id: null, name: null, authority_level: null, type: null });
    assert.deepEqual(found.available_models, ['segment']);
    assert.ok((await search(admin)).data.some((x: any) => x.model === 'segment' && x.id === live.id), 'searched by default');
    assert.ok((await search(reader)).data.some((x: any) => x.model === 'segment'), 'readers of the table find it');
    assert.deepEqual((await search(blocked)).data.filter((x: any) => x.model === 'segment'), [], 'others do not');
    assert.deepEqual((await search(admin, { models: 'segment', archived: 'true' })).data.map((x: any) => x.id), [gone.id]);
    assert.deepEqual((await search(reader, { models: 'segment', archived: 'true' })).data, []);
    assert.deepEqual((await search(admin, { models: 'segment', table_db_id: String(sample.id + 1000) })).data, []);
    assert.deepEqual((await search(admin, { models: 'segment', filter_items_in_personal_collection: 'only' })).data, [], 'segments live in no collection');
    assert.deepEqual((await search(admin, { models: 'segment', created_by: '1' })).data, [], 'as in Metabase, segments have no creator filter');
  });

  test('revisions: every save, with messages, Metabase’s descriptions and diffs, and revert', async () => {
    const first = uniqueName('First');
    const s = await createSegment({ name: first });
    await admin.put(`/api/segment/${s.id}`, { name: `${first} renamed`, revision_message: 'a better name' });
    await admin.put(`/api/segment/${s.id}`, { definition: { 'source-table': products, filter: ['=', ['field', category, null], 'Gizmo'] }, revision_message: 'gizmos' });
    await admin.delete(`/api/segment/${s.id}`, undefined, { query: { revision_message: 'retired' } });

    const revisions = (await admin.get(`/api/segment/${s.id}/revisions`)).body;
    assert.deepEqual(
      revisions.map((r: any) => [r.description, r.message, r.is_creation]),
      [
        ['trashed this Segment.', 'retired', false],
        // Metabase names no change of a definition (its message says what changed)
        ['created a revision with no change.', 'gizmos', false],
        [`renamed this Segment from "${first}" to "${first} renamed".`, 'a better name', false],
        ['created this.', null, true],
      ],
    );
    assert.deepEqual(revisions[2].diff, { name: { before: first, after: `${first} renamed` } });
    assert.deepEqual(revisions[1].diff, {
      definition: { before: { 'source-table': products, filter: widgetFilter() }, after: { 'source-table': products, filter: ['=', ['field', category, null], 'Gizmo'] } },
    });
    assert.deepEqual(revisions[3].diff, { name: { after: first }, description: { after: null }, definition: { after: { 'source-table': products, filter: widgetFilter() } } });
    assert.equal(revisions[0].user.common_name, 'Ada Admin');
    assert.deepEqual((await admin.get('/api/revision', { query: { entity: 'segment', id: s.id } })).body, revisions);
    assert.deepEqual((await admin.get(`/api/revision/segment/${s.id}`)).body, revisions);

    // a PUT that changes nothing records nothing
    await admin.put(`/api/segment/${s.id}`, { archived: true, revision_message: 'again' });
    assert.equal((await admin.get(`/api/segment/${s.id}/revisions`)).body.length, 4);

    const reverted = await admin.post(`/api/segment/${s.id}/revert`, { revision_id: revisions[3].id });
    assert.equal(reverted.status, 200, reverted.text);
    assert.equal(reverted.body.is_reversion, true);
    assert.equal(reverted.body.description, 'reverted to an earlier version.');
    const back = (await admin.get(`/api/segment/${s.id}`)).body;
    assert.equal(back.name, first);
    assert.equal(back.archived, false);
    assert.deepEqual(back.definition, { 'source-table': products, filter: widgetFilter() });
    assert.equal(await countOf(admin, count(products, ['segment', s.id])), WIDGETS);
    const viaRevisionApi = await admin.post('/api/revision/revert', { entity: 'segment', id: s.id, revision_id: revisions[0].id });
    assert.equal(viaRevisionApi.status, 200, viaRevisionApi.text);
    assert.equal((await admin.get(`/api/segment/${s.id}`)).body.archived, true);
    assert.equal((await admin.post(`/api/segment/${s.id}/revert`, { revision_id: 987654 })).status, 404);
    assert.equal((await reader.post('/api/revision/revert', { entity: 'segment', id: s.id, revision_id: revisions[3].id })).status, 403);
  });
});
