// Dashboards: create/read/update/archive/delete/list, the full replacement of dashcards and tabs on PUT (creates,
// updates, deletes and reorders in one call; duplicate ids rejected; nothing half-applied), virtual and series
// dashcards, the deprecated PUT …/cards, collection permissions, and the small endpoints.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, uniqueName, type DataFixture } from '../cards/fixtures.js';
import { asInput, createDashboard, getDashboard, newDashcard, putLayout, setAllUsersCollectionPerms } from './fixtures.js';

forEachAppDb('dashboards', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });

  // ----- create / read ----------------------------------------------------------------------------------------------

  test('create returns the full dashboard; GET has the same shape', async () => {
    const name = uniqueName('Sales');
    const parameters = [{ id: 'p1', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string' }];
    const created = await createDashboard(admin, { name, description: 'about', parameters, cache_ttl: 60 });
    assert.equal(typeof created.id, 'number');
    assert.equal(created.name, name);
    assert.equal(created.description, 'about');
    assert.deepEqual(created.parameters, parameters);
    assert.equal(created.cache_ttl, 60);
    assert.equal(created.collection_id, null);
    assert.equal(created.collection.id, 'root');
    assert.equal(created.archived, false);
    assert.equal(created.width, 'fixed');
    assert.equal(created.auto_apply_filters, true);
    assert.equal(created.can_write, true);
    assert.match(created.entity_id, /^[A-Za-z0-9_-]{21}$/);
    assert.deepEqual(created.dashcards, []);
    assert.deepEqual(created.tabs, []);
    assert.deepEqual(created.param_fields, {});
    assert.deepEqual(created.last_used_param_values, {});
    assert.equal(created['last-edit-info'].email, 'admin@example.com');
    const got = await getDashboard(admin, created.id);
    assert.deepEqual(Object.keys(got).sort(), Object.keys(created).sort());
    assert.equal(got.view_count, 0, 'the view counts after the response');
    assert.equal((await getDashboard(admin, created.id)).view_count, 1);
  });

  test('create validates its body in Metabase shape', async () => {
    const r = await admin.post('/api/dashboard', { description: 'x', parameters: [{ id: 'a' }] });
    assert.equal(r.status, 400);
    assert.equal(r.body.errors.name, 'value must be a non-blank string.');
    assert.match(r.body.errors.parameters, /parameter must be a map with :id and :type keys/);
    assert.deepEqual(r.body['specific-errors'].name, ['missing required key, received: nil']);
    assert.equal((await admin.post('/api/dashboard', { name: 'x', collection_id: 999999 })).status, 404);
    assert.equal((await admin.get('/api/dashboard/999999')).status, 404);
    assert.equal((await admin.get('/api/dashboard/abc')).text, 'API endpoint does not exist.');
  });

  test('PUT changes fields with Metabase null rules and records last-edit-info', async () => {
    const d = await createDashboard(admin, { description: 'keep?', cache_ttl: 10 });
    const r = await admin.put(`/api/dashboard/${d.id}`, { name: null, description: null, width: 'full', auto_apply_filters: false, cache_ttl: null, caveats: 'c' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, d.name, 'null name is ignored');
    assert.equal(r.body.description, null, 'null description clears it');
    assert.equal(r.body.width, 'full');
    assert.equal(r.body.auto_apply_filters, false);
    assert.equal(r.body.cache_ttl, null);
    assert.equal(r.body.caveats, 'c');
    const bad = await admin.put(`/api/dashboard/${d.id}`, { width: 'huge' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors.width, 'enum of fixed, full');
  });

  // ----- PUT: full replacement of dashcards and tabs ----------------------------------------------------------------

  test('negative ids create dashcards; listed ones update; omitted ones are deleted — in one call', async () => {
    const [c1, c2, c3] = await Promise.all([createCard(admin, data), createCard(admin, data), createCard(admin, data)]);
    const d = await createDashboard(admin);
    const first = await putLayout(admin, d.id, [newDashcard(-1, c1.id, { row: 0, col: 0 }), newDashcard(-2, c2.id, { row: 0, col: 6 })]);
    assert.equal(first.dashcards.length, 2);
    assert.ok(first.dashcards.every((dc: any) => dc.id > 0 && dc.dashboard_id === d.id));
    assert.equal(first.dashcards[0].card.id, c1.id);
    assert.equal(first.dashcards[0].card.name, c1.name);
    const [a, b] = first.dashcards;
    // move a, drop b, add a new one for c3
    const second = await putLayout(admin, d.id, [asInput(a, { row: 4, col: 2, size_x: 8 }), newDashcard(-1, c3.id, { row: 0 })]);
    const ids = second.dashcards.map((dc: any) => dc.id);
    assert.ok(ids.includes(a.id), 'kept');
    assert.ok(!ids.includes(b.id), 'omitted → deleted');
    const moved = second.dashcards.find((dc: any) => dc.id === a.id);
    assert.deepEqual([moved.row, moved.col, moved.size_x, moved.size_y], [4, 2, 8, 4]);
    assert.equal(second.dashcards.find((dc: any) => dc.id !== a.id).card_id, c3.id);
    // an unknown positive id creates too
    const third = await putLayout(admin, d.id, [...second.dashcards.map((dc: any) => asInput(dc)), newDashcard(987654, c1.id, { row: 9 })]);
    assert.equal(third.dashcards.length, 3);
    assert.ok(!third.dashcards.some((dc: any) => dc.id === 987654));
    // an empty list deletes every dashcard
    assert.deepEqual((await putLayout(admin, d.id, [])).dashcards, []);
  });

  test('tabs: created from temporary ids, ordered by position, renamed, deleted with their dashcards', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin);
    const one = await putLayout(
      admin,
      d.id,
      [newDashcard(-1, card.id, { dashboard_tab_id: -1 }), newDashcard(-2, card.id, { dashboard_tab_id: -2 }), newDashcard(-3, card.id, { dashboard_tab_id: -2, row: 4 })],
      [{ id: -1, name: 'Overview' }, { id: -2, name: 'Details' }],
    );
    assert.deepEqual(one.tabs.map((t: any) => [t.name, t.position]), [['Overview', 0], ['Details', 1]]);
    const [overview, details] = one.tabs;
    assert.ok(overview.id > 0 && overview.dashboard_id === d.id);
    assert.deepEqual(one.dashcards.map((dc: any) => dc.dashboard_tab_id).sort(), [overview.id, details.id, details.id].sort());
    // reorder and rename
    const two = await putLayout(admin, d.id, one.dashcards.map((dc: any) => asInput(dc)), [{ id: details.id, name: 'More' }, { id: overview.id, name: 'Overview' }]);
    assert.deepEqual(two.tabs.map((t: any) => [t.id, t.name, t.position]), [[details.id, 'More', 0], [overview.id, 'Overview', 1]]);
    // drop a tab: its dashcards go with it, even if listed
    const keep = two.dashcards.find((dc: any) => dc.dashboard_tab_id === overview.id);
    const three = await putLayout(admin, d.id, [asInput(keep)], [{ id: overview.id, name: 'Overview' }]);
    assert.deepEqual(three.tabs.map((t: any) => t.id), [overview.id]);
    assert.deepEqual(three.dashcards.map((dc: any) => dc.id), [keep.id]);
    // with tabs, every dashcard needs one
    const missing = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, card.id)], tabs: [{ id: overview.id, name: 'Overview' }] });
    assert.equal(missing.status, 400);
    assert.equal(missing.text, 'This dashboard has tab, makes sure every card has a tab');
    // a tab of another dashboard is not this dashboard's
    const stray = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, card.id, { dashboard_tab_id: 99999 })] });
    assert.equal(stray.status, 400);
  });

  test('adding the first tab without dashcards puts the existing cards on it', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin);
    await putLayout(admin, d.id, [newDashcard(-1, card.id)]);
    const r = await admin.put(`/api/dashboard/${d.id}`, { tabs: [{ id: -1, name: 'Only' }] });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.tabs.length, 1);
    assert.equal(r.body.dashcards[0].dashboard_tab_id, r.body.tabs[0].id);
  });

  test('ids must be unique: 400 and nothing changes', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin);
    const before = await putLayout(admin, d.id, [newDashcard(-1, card.id)]);
    const dup = await admin.put(`/api/dashboard/${d.id}`, { name: 'renamed', dashcards: [newDashcard(-1, card.id), newDashcard(-1, card.id)] });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.errors.dashcards, 'nullable value must be seq of maps in which ids are unique');
    const dupTabs = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [], tabs: [{ id: -1, name: 'a' }, { id: -1, name: 'b' }] });
    assert.equal(dupTabs.status, 400);
    assert.equal(dupTabs.body.errors.tabs, 'nullable value must be seq of maps in which ids are unique');
    const badSize = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, card.id, { size_x: 0 })] });
    assert.equal(badSize.status, 400);
    assert.ok(badSize.body['specific-errors'].dashcards.some((m: string) => m.includes('received: 0')));
    const after = await getDashboard(admin, d.id);
    assert.equal(after.name, d.name);
    assert.deepEqual(after.dashcards.map((dc: any) => dc.id), before.dashcards.map((dc: any) => dc.id));
  });

  test('an error half way leaves everything as it was (one transaction)', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin);
    const one = await putLayout(admin, d.id, [newDashcard(-1, card.id), newDashcard(-2, card.id, { row: 5 })], [{ id: -1, name: 'A' }].slice(0, 0));
    // tabs get created and a dashcard deleted before the bad tab reference is found
    const r = await admin.put(`/api/dashboard/${d.id}`, {
      name: 'should not stick',
      tabs: [{ id: -1, name: 'New tab' }],
      dashcards: [asInput(one.dashcards[0], { dashboard_tab_id: -1 }), newDashcard(-5, card.id, { dashboard_tab_id: -7 })],
    });
    assert.equal(r.status, 400);
    const after = await getDashboard(admin, d.id);
    assert.equal(after.name, d.name);
    assert.deepEqual(after.tabs, []);
    assert.deepEqual(after.dashcards.map((dc: any) => [dc.id, dc.dashboard_tab_id]).sort(), one.dashcards.map((dc: any) => [dc.id, null]).sort());
    // a missing card after valid changes: 404, nothing applied
    const missing = await admin.put(`/api/dashboard/${d.id}`, { description: 'nope', dashcards: [newDashcard(-1, 9999999)] });
    assert.equal(missing.status, 404);
    assert.equal((await getDashboard(admin, d.id)).dashcards.length, 2);
  });

  test('virtual dashcards (text, heading, link) have no card; link entities are hydrated', async () => {
    const card = await createCard(admin, data);
    const other = await createDashboard(admin, { name: 'Linked target' });
    const d = await createDashboard(admin);
    const text = { text: '# Hello', virtual_card: { name: null, display: 'text', visualization_settings: {}, dataset_query: {}, archived: false } };
    const heading = { text: 'Section', virtual_card: { name: null, display: 'heading', visualization_settings: {}, dataset_query: {}, archived: false } };
    const link = (entity: unknown) => ({ link: { entity }, virtual_card: { name: null, display: 'link', visualization_settings: {}, dataset_query: {}, archived: false } });
    const got = await putLayout(admin, d.id, [
      newDashcard(-1, null, { visualization_settings: text }),
      newDashcard(-2, null, { row: 2, visualization_settings: heading }),
      newDashcard(-3, null, { row: 4, visualization_settings: link({ id: card.id, model: 'card' }) }),
      newDashcard(-4, null, { row: 6, visualization_settings: link({ id: other.id, model: 'dashboard' }) }),
      newDashcard(-5, null, { row: 8, visualization_settings: { link: { url: 'https://example.com' }, virtual_card: { display: 'link' } } }),
    ]);
    const [t, h, lc, ld, lu] = got.dashcards;
    assert.equal(t.card_id, null);
    assert.equal(t.card, null);
    assert.equal(t.visualization_settings.text, '# Hello');
    assert.equal(h.visualization_settings.virtual_card.display, 'heading');
    assert.equal(lc.visualization_settings.link.entity.name, card.name);
    assert.equal(lc.visualization_settings.link.entity.model, 'card');
    assert.equal(ld.visualization_settings.link.entity.name, 'Linked target');
    assert.equal(lu.visualization_settings.link.url, 'https://example.com');
  });

  test('series: cards overlaid on a dashcard, in order; changed and cleared by PUT', async () => {
    const [main, s1, s2] = await Promise.all([createCard(admin, data, { display: 'line' }), createCard(admin, data), createCard(admin, data)]);
    const d = await createDashboard(admin);
    const one = await putLayout(admin, d.id, [newDashcard(-1, main.id, { series: [{ id: s2.id }, { id: s1.id }] })]);
    assert.deepEqual(one.dashcards[0].series.map((s: any) => s.id), [s2.id, s1.id]);
    assert.equal(one.dashcards[0].series[0].name, s2.name);
    const two = await putLayout(admin, d.id, [asInput(one.dashcards[0], { series: [{ id: s1.id }] })]);
    assert.deepEqual(two.dashcards[0].series.map((s: any) => s.id), [s1.id]);
    assert.equal(two.dashcards[0].id, one.dashcards[0].id);
    const three = await putLayout(admin, d.id, [asInput(two.dashcards[0], { series: [] })]);
    assert.deepEqual(three.dashcards[0].series, []);
    const missing = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [asInput(three.dashcards[0], { series: [{ id: 99999999 }] })] });
    assert.equal(missing.status, 404);
  });

  test('series ids must be positive; archived cards and other dashboards’ questions cannot be overlaid', async () => {
    const [main, overlay, archived] = await Promise.all([createCard(admin, data), createCard(admin, data), createCard(admin, data)]);
    assert.equal((await admin.put(`/api/card/${archived.id}`, { archived: true })).status, 200);
    const home = await createDashboard(admin);
    const question = await createCard(admin, data, { dashboard_id: home.id });
    const d = await createDashboard(admin);
    for (const id of [-3, 0]) {
      const r = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, main.id, { series: [{ id }] })] });
      assert.equal(r.status, 400, `series id ${id}`);
      assert.ok(JSON.stringify(r.body['specific-errors']).includes('greater than zero'), r.text);
    }
    const withArchived = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, main.id, { series: [{ id: overlay.id }, { id: archived.id }] })] });
    assert.equal(withArchived.status, 404);
    assert.equal(withArchived.body.error_code, 'archived');
    const withQuestion = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, main.id, { series: [{ id: question.id }] })] });
    assert.equal(withQuestion.status, 400);
    assert.deepEqual((await getDashboard(admin, d.id)).dashcards, [], 'nothing applied');
    // a series card archived after it was added doesn't block later edits of its dashcard
    const placed = await putLayout(admin, d.id, [newDashcard(-1, main.id, { series: [{ id: overlay.id }] })]);
    assert.equal((await admin.put(`/api/card/${overlay.id}`, { archived: true })).status, 200);
    await putLayout(admin, d.id, [asInput(placed.dashcards[0], { col: 2, series: [{ id: overlay.id }] })]);
  });

  test('filter mappings need a usable target: 400 with a clear message, nothing applied; valid forms are kept', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin, { parameters: [{ id: 'p1', type: 'category', name: 'C', slug: 'c' }] });
    const mapping = (target: unknown) => ({ parameter_id: 'p1', card_id: card.id, target });
    const malformed = [
      'x',
      null,
      ['dimension'],
      { a: 1 },
      ['dimension', ['template-tag', null]],
      ['dimension', ['field', { a: 1 }, null]],
      ['dimension', ['field', 1, null], 'options'],
      ['variable', ['field', 1, null]],
      ['text-tag'],
      ['filter', ['field', 1, null]],
    ];
    for (const target of malformed) {
      const r = await admin.put(`/api/dashboard/${d.id}`, { name: 'not applied', dashcards: [newDashcard(-1, card.id, { parameter_mappings: [mapping(target)] })] });
      assert.equal(r.status, 400, JSON.stringify(target));
      assert.match(r.text, /^Parameter "p1": Invalid parameter mapping target .*: a target is \["dimension"/, r.text);
    }
    const unchanged = await getDashboard(admin, d.id);
    assert.equal(unchanged.name, d.name);
    assert.deepEqual(unchanged.dashcards, []);
    const valid = [
      ['dimension', ['field', 1, null]],
      ['dimension', ['field', 1, { 'base-type': 'type/Integer' }], { 'stage-number': 0 }],
      ['dimension', ['field', 'TOTAL', { 'base-type': 'type/Float' }]],
      ['dimension', ['expression', 'Profit']],
      ['dimension', ['template-tag', 'category']],
      ['dimension', ['template-tag', { id: 'a1b2' }]],
      ['variable', ['template-tag', 'category']],
    ];
    const got = await putLayout(admin, d.id, [
      newDashcard(-1, card.id, { parameter_mappings: valid.map(mapping) }),
      newDashcard(-2, null, { row: 4, visualization_settings: { text: 'Hi {{c}}', virtual_card: { display: 'text' } }, parameter_mappings: [{ parameter_id: 'p1', target: ['text-tag', 'c'] }] }),
    ]);
    assert.deepEqual(got.dashcards.find((dc: any) => dc.card_id === card.id).parameter_mappings, valid.map(mapping));
    // a mapping stored before the check (sent back as it is) doesn't block other edits; changing it does
    const dc = got.dashcards.find((x: any) => x.card_id === card.id);
    const legacy = [mapping(['dimension', ['field', { a: 1 }, null]])];
    await server().ctx.db.updateTable('report_dashboardcard').set({ parameter_mappings: JSON.stringify(legacy) }).where('id', '=', dc.id).execute();
    await putLayout(admin, d.id, [asInput(dc, { parameter_mappings: legacy, col: 3 })]);
    const changed = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [asInput(dc, { parameter_mappings: [...legacy, mapping('y')] })] });
    assert.equal(changed.status, 400);
  });

  test('a filter mapping needs data permissions on the card’s table: 403 with Metabase’s message', async () => {
    const restricted = await registerDatabase(server(), 'Restricted DB');
    const { revision } = (await admin.get('/api/permissions/graph')).body;
    const graph = await admin.put('/api/permissions/graph', { revision, groups: { 1: { [restricted.databaseId]: { 'create-queries': 'no' } } } }, { query: { 'skip-graph': 'true' } });
    assert.equal(graph.status, 200, graph.text);
    const card = await createCard(admin, restricted);
    const { client: user } = await createUserClient(server(), admin);
    const d = await createDashboard(user, { parameters: [{ id: 'p1', type: 'category', name: 'C', slug: 'c' }] });
    const placed = await putLayout(user, d.id, [newDashcard(-1, card.id)]);
    const mapping = { parameter_id: 'p1', card_id: card.id, target: ['dimension', ['field', 1, null]] };
    const refused = await user.put(`/api/dashboard/${d.id}`, { dashcards: [asInput(placed.dashcards[0], { parameter_mappings: [mapping] })] });
    assert.equal(refused.status, 403);
    assert.equal(refused.text, 'You must have data permissions to add a parameter referencing the Table "ORDERS".');
    assert.deepEqual((await getDashboard(user, d.id)).dashcards[0].parameter_mappings, []);
    // an admin may wire it; the user may then move the card without touching the mapping
    await putLayout(admin, d.id, [asInput(placed.dashcards[0], { parameter_mappings: [mapping] })]);
    const moved = await putLayout(user, d.id, [asInput((await getDashboard(user, d.id)).dashcards[0], { col: 6 })]);
    assert.deepEqual(moved.dashcards[0].parameter_mappings, [mapping]);
  });

  test('dashcards keep parameter_mappings, visualization_settings and inline_parameters', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin, { parameters: [{ id: 'p1', type: 'category', name: 'C', slug: 'c' }] });
    const mapping = { parameter_id: 'p1', card_id: card.id, target: ['dimension', ['field', 1, null]] };
    const got = await putLayout(admin, d.id, [newDashcard(-1, card.id, { parameter_mappings: [mapping], visualization_settings: { 'card.title': 'T' }, inline_parameters: ['p1'] })]);
    const dc = got.dashcards[0];
    assert.deepEqual(dc.parameter_mappings, [mapping]);
    assert.deepEqual(dc.visualization_settings, { 'card.title': 'T' });
    assert.deepEqual(dc.inline_parameters, ['p1']);
    for (const key of ['id', 'entity_id', 'dashboard_id', 'dashboard_tab_id', 'card_id', 'card', 'action_id', 'row', 'col', 'size_x', 'size_y', 'series', 'collection_authority_level', 'created_at', 'updated_at']) {
      assert.ok(key in dc, key);
    }
    const badMapping = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, card.id, { parameter_mappings: [{ target: [] }] })] });
    assert.equal(badMapping.status, 400);
    const unknownCard = await admin.put(`/api/dashboard/${d.id}`, {
      dashcards: [newDashcard(-1, null, { parameter_mappings: [{ parameter_id: 'p1', card_id: 99999999, target: ['dimension', ['field', 1, null]] }] })],
    });
    assert.equal(unknownCard.status, 404);
    assert.equal(unknownCard.text, 'Card 99999999 does not exist or does not have a valid query.');
  });

  test('archived and other dashboards’ question cards cannot be added', async () => {
    const archived = await createCard(admin, data);
    await admin.put(`/api/card/${archived.id}`, { archived: true });
    const d = await createDashboard(admin);
    const r = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, archived.id)] });
    assert.equal(r.status, 404);
    assert.equal(r.body.error_code, 'archived');
    const home = await createDashboard(admin);
    const question = await createCard(admin, data, { dashboard_id: home.id });
    const other = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [newDashcard(-1, question.id)] });
    assert.equal(other.status, 400);
    const atHome = (await getDashboard(admin, home.id)).dashcards;
    assert.equal(atHome.length, 1, 'a dashboard question sits on its dashboard');
    assert.equal(atHome[0].card_id, question.id);
  });

  test('a dashcard whose card is archived is hidden, survives layout edits, and comes back with its card', async () => {
    const [kept, archived] = await Promise.all([createCard(admin, data), createCard(admin, data)]);
    const d = await createDashboard(admin);
    const layout = await putLayout(admin, d.id, [newDashcard(-1, kept.id), newDashcard(-2, archived.id, { row: 4 })]);
    const hiddenId = layout.dashcards.find((dc: any) => dc.card_id === archived.id).id;
    assert.equal((await admin.put(`/api/card/${archived.id}`, { archived: true })).status, 200);
    const hidden = await getDashboard(admin, d.id);
    assert.deepEqual(hidden.dashcards.map((dc: any) => dc.card_id), [kept.id]);
    // a save that lists what it sees doesn't delete what it can't see
    await putLayout(admin, d.id, hidden.dashcards.map((dc: any) => asInput(dc, { col: 3 })));
    assert.equal((await admin.post(`/api/dashboard/${d.id}/dashcard/${hiddenId}/card/${archived.id}/query`, {})).status, 404);
    assert.equal((await admin.put(`/api/card/${archived.id}`, { archived: false })).status, 200);
    const back = await getDashboard(admin, d.id);
    assert.deepEqual(back.dashcards.map((dc: any) => dc.id).sort(), layout.dashcards.map((dc: any) => dc.id).sort());
  });

  test('the deprecated PUT /api/dashboard/:id/cards answers {cards, tabs}', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin);
    const r = await admin.put(`/api/dashboard/${d.id}/cards`, { cards: [newDashcard(-1, card.id, { dashboard_tab_id: -1 })], tabs: [{ id: -1, name: 'T' }] });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.cards.length, 1);
    assert.equal(r.body.tabs.length, 1);
    assert.equal(r.body.cards[0].dashboard_tab_id, r.body.tabs[0].id);
    const dup = await admin.put(`/api/dashboard/${d.id}/cards`, { cards: [newDashcard(1, card.id), newDashcard(1, card.id)] });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.errors.cards, 'value must be seq of maps in which ids are unique');
    const none = await admin.put(`/api/dashboard/${d.id}/cards`, {});
    assert.equal(none.status, 400);
  });

  // ----- archive, delete, list ---------------------------------------------------------------------------------------

  test('archive and unarchive with PUT; archived dashboards refuse layout changes; dashboard questions follow', async () => {
    const collection = await createCollection(admin);
    const d = await createDashboard(admin, { collection_id: collection.id });
    const question = await createCard(admin, data, { dashboard_id: d.id });
    const archived = (await admin.put(`/api/dashboard/${d.id}`, { archived: true })).body;
    assert.equal(archived.archived, true);
    assert.equal(archived.archived_directly, true);
    assert.equal(archived.can_restore, true);
    assert.equal(archived.can_delete, true);
    assert.equal((await admin.get(`/api/card/${question.id}`)).body.archived, true, 'its question went to the trash with it');
    const layout = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [] });
    assert.equal(layout.status, 404);
    assert.equal(layout.body.message, 'The object has been archived.');
    assert.ok((await admin.get('/api/dashboard', { query: { f: 'archived' } })).body.some((x: any) => x.id === d.id));
    assert.ok(!(await admin.get('/api/dashboard')).body.some((x: any) => x.id === d.id));
    const back = (await admin.put(`/api/dashboard/${d.id}`, { archived: false })).body;
    assert.equal(back.archived, false);
    assert.equal((await admin.get(`/api/card/${question.id}`)).body.archived, false);
    // moving the dashboard moves its questions
    const elsewhere = await createCollection(admin);
    await admin.put(`/api/dashboard/${d.id}`, { collection_id: elsewhere.id });
    assert.equal((await admin.get(`/api/card/${question.id}`)).body.collection_id, elsewhere.id);
  });

  test('DELETE is a hard delete (204) and takes its dashboard questions along', async () => {
    const d = await createDashboard(admin);
    const question = await createCard(admin, data, { dashboard_id: d.id });
    const r = await admin.delete(`/api/dashboard/${d.id}`);
    assert.equal(r.status, 204);
    assert.equal((await admin.get(`/api/dashboard/${d.id}`)).status, 404);
    assert.equal((await admin.get(`/api/card/${question.id}`)).status, 404);
    assert.equal((await admin.delete(`/api/dashboard/${d.id}`)).status, 404);
  });

  test('GET /api/dashboard lists with f=all|mine|archived, with creator and last-edit-info', async () => {
    const { client: user } = await createUserClient(server(), admin);
    const mine = await createDashboard(user, { name: uniqueName('aaa mine') });
    const theirs = await createDashboard(admin, { name: uniqueName('AAA admin') });
    const all = (await user.get('/api/dashboard')).body;
    assert.ok(all.some((x: any) => x.id === mine.id) && all.some((x: any) => x.id === theirs.id));
    const names = all.map((x: any) => x.name.toLowerCase());
    assert.deepEqual(names, [...names].sort(), 'sorted by lower-case name');
    const entry = all.find((x: any) => x.id === mine.id);
    assert.equal(entry.creator.id, mine.creator_id);
    assert.ok(entry['last-edit-info']);
    const onlyMine = (await user.get('/api/dashboard', { query: { f: 'mine' } })).body;
    assert.deepEqual(onlyMine.map((x: any) => x.id), [mine.id]);
    assert.equal((await user.get('/api/dashboard', { query: { f: 'nope' } })).status, 400);
  });

  test('GET /api/dashboard?f=archived lists the archived dashboards the caller can read, and only those', async () => {
    const { client: user } = await createUserClient(server(), admin);
    const secret = await createCollection(admin);
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
    const [mine, theirs, hidden, live] = [
      await createDashboard(user, { name: uniqueName('zz archived mine') }),
      await createDashboard(admin, { name: uniqueName('ZZ archived admin') }),
      await createDashboard(admin, { name: uniqueName('zz archived hidden'), collection_id: secret.id }),
      await createDashboard(user, { name: uniqueName('zz live') }),
    ];
    for (const d of [mine, theirs, hidden]) assert.equal((await admin.put(`/api/dashboard/${d.id}`, { archived: true })).status, 200);
    const listed = (await user.get('/api/dashboard', { query: { f: 'archived' } })).body;
    const ids = listed.map((x: any) => x.id);
    assert.ok(ids.includes(mine.id) && ids.includes(theirs.id));
    assert.ok(!ids.includes(hidden.id), 'not in a collection the caller cannot read');
    assert.ok(!ids.includes(live.id), 'only archived dashboards');
    assert.ok(listed.every((x: any) => x.archived === true));
    const names = listed.map((x: any) => x.name.toLowerCase());
    assert.deepEqual(names, [...names].sort(), 'sorted by lower-case name');
    const entry = listed.find((x: any) => x.id === theirs.id);
    assert.equal(entry.creator.id, theirs.creator_id);
    assert.ok(entry['last-edit-info']);
    assert.ok((await admin.get('/api/dashboard', { query: { f: 'archived' } })).body.some((x: any) => x.id === hidden.id), 'admins see all');
    const all = (await user.get('/api/dashboard', { query: { f: 'all' } })).body.map((x: any) => x.id);
    assert.ok(all.includes(live.id) && !all.includes(mine.id), 'f=all leaves archived dashboards out');
  });

  // ----- permissions ----------------------------------------------------------------------------------------------------

  test('collection permissions apply to dashboards like to cards', async () => {
    const { client: user } = await createUserClient(server(), admin);
    const secret = await createCollection(admin);
    const readable = await createCollection(admin);
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none', [readable.id]: 'read' });

    const hidden = await createDashboard(admin, { collection_id: secret.id });
    const readOnly = await createDashboard(admin, { collection_id: readable.id });
    assert.equal((await user.get(`/api/dashboard/${hidden.id}`)).status, 403);
    assert.equal((await user.get(`/api/dashboard/${hidden.id}`)).text, "You don't have permissions to do that.");
    const seen = await user.get(`/api/dashboard/${readOnly.id}`);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.can_write, false);
    assert.equal((await user.put(`/api/dashboard/${readOnly.id}`, { name: 'x' })).status, 403);
    assert.equal((await user.delete(`/api/dashboard/${readOnly.id}`)).status, 403);
    assert.equal((await user.post('/api/dashboard', { name: 'x', collection_id: readable.id })).status, 403);
    assert.equal((await user.post(`/api/dashboard/${readOnly.id}/copy`, { collection_id: readable.id })).status, 403);
    assert.equal((await user.post(`/api/dashboard/${hidden.id}/copy`, {})).status, 403);
    const list = (await user.get('/api/dashboard')).body;
    assert.ok(!list.some((x: any) => x.id === hidden.id));
    assert.ok(list.some((x: any) => x.id === readOnly.id));
    assert.equal((await user.get(`/api/dashboard/${hidden.id}/revisions`)).status, 403);
    // cards the user can't read show as {id} only
    const secretCard = await createCard(admin, data, { collection_id: secret.id });
    const mixed = await createDashboard(admin, { collection_id: readable.id });
    await putLayout(admin, mixed.id, [newDashcard(-1, secretCard.id)]);
    const view = (await user.get(`/api/dashboard/${mixed.id}`)).body;
    assert.deepEqual(view.dashcards[0].card, { id: secretCard.id });
    // moving into a collection the user can't write
    const own = await createDashboard(user);
    assert.equal((await user.put(`/api/dashboard/${own.id}`, { collection_id: readable.id })).status, 403);
  });

  // ----- smaller endpoints ------------------------------------------------------------------------------------------

  test('items lists the dashboard questions like collection items', async () => {
    const d = await createDashboard(admin);
    const q = await createCard(admin, data, { dashboard_id: d.id, name: uniqueName('Inner') });
    const r = await admin.get(`/api/dashboard/${d.id}/items`);
    assert.equal(r.status, 200);
    assert.equal(r.body.total, 1);
    assert.equal(r.body.data[0].id, q.id);
    assert.equal(r.body.data[0].model, 'card');
    assert.equal(r.body.data[0].dashboard_id, d.id);
    assert.deepEqual(r.body.models, ['card']);
  });

  test('related suggests other questions on the same tables', async () => {
    const [onIt, other] = await Promise.all([createCard(admin, data), createCard(admin, data)]);
    const d = await createDashboard(admin);
    await putLayout(admin, d.id, [newDashcard(-1, onIt.id)]);
    const r = await admin.get(`/api/dashboard/${d.id}/related`);
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body.cards));
    assert.ok(!r.body.cards.some((c: any) => c.id === onIt.id));
    assert.ok(r.body.cards.length <= 5);
    void other;
  });

  test('embeddable and public lists are for admins, behind their settings', async () => {
    const { client: user } = await createUserClient(server(), admin);
    assert.equal((await user.get('/api/dashboard/embeddable')).status, 403);
    assert.equal((await user.get('/api/dashboard/public')).status, 403);
    const d = await createDashboard(admin);
    const refused = await admin.put(`/api/dashboard/${d.id}`, { enable_embedding: true });
    assert.equal(refused.status, 400);
    assert.equal(refused.text, 'Embedding is not enabled.');
    assert.equal((await admin.get('/api/dashboard/embeddable')).status, 400);
    assert.equal((await admin.put('/api/setting/enable-embedding-static', { value: true })).status, 204);
    assert.equal((await user.put(`/api/dashboard/${d.id}`, { enable_embedding: true })).status, 403);
    const on = await admin.put(`/api/dashboard/${d.id}`, { enable_embedding: true, embedding_params: { category: 'enabled' } });
    assert.equal(on.status, 200, on.text);
    assert.deepEqual(on.body.embedding_params, { category: 'enabled' });
    assert.equal((await admin.put(`/api/dashboard/${d.id}`, { embedding_params: { category: 'sideways' } })).status, 400);
    const listed = (await admin.get('/api/dashboard/embeddable')).body;
    assert.deepEqual(listed.find((x: any) => x.id === d.id), { name: d.name, id: d.id });
    const pub = await admin.get('/api/dashboard/public');
    assert.equal(pub.status, 200);
    assert.ok(Array.isArray(pub.body));
  });

  test('unknown dashboards are 404 everywhere; no session is 401', async () => {
    const missing = 98765432;
    for (const path of ['', '/items', '/related', '/query_metadata', '/revisions', '/params/p/values', '/params/p/search/x']) {
      const r = await admin.get(`/api/dashboard/${missing}${path}`);
      assert.equal(r.status, 404, path);
      assert.equal(r.text, 'Not found.', path);
    }
    assert.equal((await admin.put(`/api/dashboard/${missing}`, { name: 'x' })).status, 404);
    assert.equal((await admin.put(`/api/dashboard/${missing}/cards`, { cards: [] })).status, 404);
    assert.equal((await admin.post(`/api/dashboard/${missing}/revert`, { revision_id: 1 })).status, 404);
    assert.equal((await admin.post(`/api/dashboard/${missing}/dashcard/1/card/1/query`, {})).status, 404);
    assert.equal((await admin.post(`/api/dashboard/pivot/${missing}/dashcard/1/card/1/query`, {})).status, 404);
    const anon = server().anon;
    assert.equal((await anon.get('/api/dashboard')).status, 401);
    assert.equal((await anon.get('/api/dashboard/1')).text, 'Unauthenticated');
    assert.equal((await anon.post('/api/dashboard', { name: 'x' })).status, 401);
  });

  test('dashcard actions: no action on the dashcard → 404, as Metabase answers', async () => {
    const card = await createCard(admin, data);
    const d = await createDashboard(admin);
    const dc = (await putLayout(admin, d.id, [newDashcard(-1, card.id)])).dashcards[0];
    const get = await admin.get(`/api/dashboard/${d.id}/dashcard/${dc.id}/execute`, { query: { parameters: '{}' } });
    assert.equal(get.status, 404);
    assert.equal(get.text, 'Not found.');
    const post = await admin.post(`/api/dashboard/${d.id}/dashcard/${dc.id}/execute`, { parameters: {} });
    assert.equal(post.status, 404);
    assert.equal((await admin.get(`/api/dashboard/${d.id}/dashcard/${dc.id}/execute`)).status, 400, 'parameters is required');
    assert.equal((await admin.post(`/api/dashboard/999999/dashcard/${dc.id}/execute`, {})).status, 404);
  });
});
