// Dashboard history (revisions with Metabase's descriptions, revert restoring the layout and tabs), copies (shallow,
// and deep with cards duplicated and mappings and series rewired) and saving denormalized dashboards.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, createCollection, mbql, uniqueName, type DataFixture } from '../cards/fixtures.js';
import { asInput, createDashboard, getDashboard, newDashcard, putLayout, setAllUsersCollectionPerms } from './fixtures.js';

forEachAppDb('dashboard history and copies', (server) => {
  let admin: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
  });

  async function revisions(id: number) {
    const r = await admin.get(`/api/dashboard/${id}/revisions`);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  const layoutOf = (d: any) => ({
    tabs: d.tabs.map((t: any) => [t.id, t.name, t.position]),
    dashcards: d.dashcards
      .map((dc: any) => [dc.id, dc.card_id, dc.dashboard_tab_id, dc.row, dc.col, dc.size_x, dc.size_y, dc.series.map((s: any) => s.id), dc.parameter_mappings])
      .sort((a: any, b: any) => a[0] - b[0]),
  });

  test('revisions describe each change the way Metabase does, newest first', async () => {
    const [c1, c2, c3, c4] = await Promise.all([1, 2, 3, 4].map(() => createCard(admin, data)));
    const d = await createDashboard(admin, { name: 'Before' });
    await admin.put(`/api/dashboard/${d.id}`, { name: 'After' });
    const one = await putLayout(admin, d.id, [newDashcard(-1, c1.id)]);
    const three = await putLayout(admin, d.id, [asInput(one.dashcards[0]), newDashcard(-1, c2.id, { row: 4 }), newDashcard(-2, c3.id, { row: 8 })]);
    await putLayout(admin, d.id, three.dashcards.map((dc: any, i: number) => asInput(dc, { col: i + 1 })));
    const now = await getDashboard(admin, d.id);
    await putLayout(admin, d.id, now.dashcards.slice(0, 2).map((dc: any) => asInput(dc)));
    const two = await getDashboard(admin, d.id);
    await putLayout(admin, d.id, two.dashcards.map((dc: any, i: number) => asInput(dc, i === 0 ? { series: [{ id: c4.id }] } : {})));
    const withSeries = await getDashboard(admin, d.id);
    await putLayout(admin, d.id, withSeries.dashcards.map((dc: any) => asInput(dc, { dashboard_tab_id: -1 })), [{ id: -1, name: 'Tab' }]);
    await admin.put(`/api/dashboard/${d.id}`, { cache_ttl: 5 });
    await admin.put(`/api/dashboard/${d.id}`, { auto_apply_filters: false, description: 'Now described' });
    await admin.put(`/api/dashboard/${d.id}`, { name: 'After' }); // no change: no revision

    const list = await revisions(d.id);
    assert.deepEqual(
      list.map((r: any) => r.description),
      [
        'added a description and set auto apply filters to false.',
        'added a cache ttl.',
        'modified the cards and added a tab.',
        `added some series to card ${c1.id}.`,
        'removed a card.',
        'rearranged the cards.',
        'added 2 cards.',
        'added a card.',
        'renamed this Dashboard from "Before" to "After".',
        'created this.',
      ],
    );
    assert.equal(list[list.length - 1].is_creation, true);
    assert.ok(list[0].id > list[1].id);
    assert.equal(list[0].user.common_name, 'Ada Admin');
    assert.equal(list[0].has_multiple_changes, true);
    assert.deepEqual(list[1].diff, { before: null, after: { cache_ttl: 5 } });
    // the same list through /api/revision
    const viaRevision = (await admin.get('/api/revision', { query: { entity: 'dashboard', id: d.id } })).body;
    assert.deepEqual(viaRevision.map((r: any) => r.id), list.map((r: any) => r.id));
  });

  test('revert restores an earlier layout — dashcards, tabs, series and mappings — under the same ids', async () => {
    const [c1, c2, c3] = await Promise.all([1, 2, 3].map(() => createCard(admin, data)));
    const d = await createDashboard(admin, { name: 'Layout v1', parameters: [{ id: 'p', type: 'category', name: 'P', slug: 'p' }] });
    const mapping = { parameter_id: 'p', card_id: c1.id, target: ['dimension', ['field', 1, null]] };
    await putLayout(
      admin,
      d.id,
      [
        newDashcard(-1, c1.id, { dashboard_tab_id: -1, parameter_mappings: [mapping], series: [{ id: c3.id }] }),
        newDashcard(-2, c2.id, { dashboard_tab_id: -2, row: 4 }),
        newDashcard(-3, null, { dashboard_tab_id: -1, row: 8, visualization_settings: { text: 'note', virtual_card: { display: 'text' } } }),
      ],
      [{ id: -1, name: 'First' }, { id: -2, name: 'Second' }],
    );
    const v1 = await getDashboard(admin, d.id);
    const v1Revision = (await revisions(d.id))[0];

    // Change everything: rename, drop the second tab (and its card), move a card, add a tab and a card, drop series.
    const [first] = v1.tabs;
    const kept = v1.dashcards.filter((dc: any) => dc.dashboard_tab_id === first.id);
    await putLayout(
      admin,
      d.id,
      [...kept.map((dc: any) => asInput(dc, { row: dc.row + 10, series: [], parameter_mappings: [] })), newDashcard(-1, c3.id, { dashboard_tab_id: -9 })],
      [{ id: -9, name: 'Brand new' }, { id: first.id, name: 'First renamed' }],
      { name: 'Layout v2' },
    );
    const v2 = await getDashboard(admin, d.id);
    assert.notDeepEqual(layoutOf(v2), layoutOf(v1));

    const reverted = await admin.post(`/api/dashboard/${d.id}/revert`, { revision_id: v1Revision.id });
    assert.equal(reverted.status, 200, reverted.text);
    assert.equal(reverted.body.is_reversion, true);
    assert.equal(reverted.body.description, 'reverted to an earlier version.');
    const back = await getDashboard(admin, d.id);
    assert.equal(back.name, 'Layout v1');
    assert.deepEqual(layoutOf(back), layoutOf(v1));
    assert.equal(back.dashcards.find((dc: any) => dc.card_id === null).visualization_settings.text, 'note');

    // and forward again through /api/revision/revert
    const v2Revision = (await revisions(d.id)).find((r: any) => r.description.includes('renamed'));
    const forward = await admin.post('/api/revision/revert', { entity: 'dashboard', id: d.id, revision_id: v2Revision.id });
    assert.equal(forward.status, 200, forward.text);
    assert.deepEqual(layoutOf(await getDashboard(admin, d.id)), layoutOf(v2));
  });

  test('revert errors: unknown revision 404, another dashboard’s revision 404, read-only users 403', async () => {
    const d = await createDashboard(admin);
    const other = await createDashboard(admin);
    const otherRevision = (await revisions(other.id))[0];
    assert.equal((await admin.post(`/api/dashboard/${d.id}/revert`, { revision_id: 99999999 })).status, 404);
    assert.equal((await admin.post(`/api/dashboard/${d.id}/revert`, { revision_id: otherRevision.id })).status, 404);
    const missing = await admin.post(`/api/dashboard/${d.id}/revert`, {});
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors.revision_id, 'value must be an integer greater than zero.');
    const readOnly = await createCollection(admin);
    await setAllUsersCollectionPerms(admin, { [readOnly.id]: 'read' });
    const locked = await createDashboard(admin, { collection_id: readOnly.id });
    const { client: user } = await createUserClient(server(), admin);
    const rev = (await revisions(locked.id))[0];
    assert.equal((await user.get(`/api/dashboard/${locked.id}/revisions`)).status, 200);
    assert.equal((await user.post(`/api/dashboard/${locked.id}/revert`, { revision_id: rev.id })).status, 403);
  });

  test('shallow copy: same cards, own tabs and dashcards, name kept unless given', async () => {
    const [c1, c2] = await Promise.all([createCard(admin, data), createCard(admin, data)]);
    const target = await createCollection(admin);
    const d = await createDashboard(admin, { description: 'orig', parameters: [{ id: 'p', type: 'category', name: 'P', slug: 'p' }] });
    const mapping = { parameter_id: 'p', card_id: c1.id, target: ['dimension', ['field', 1, null]] };
    const source = await putLayout(
      admin,
      d.id,
      [newDashcard(-1, c1.id, { dashboard_tab_id: -1, parameter_mappings: [mapping], series: [{ id: c2.id }] }), newDashcard(-2, c2.id, { dashboard_tab_id: -2 })],
      [{ id: -1, name: 'One' }, { id: -2, name: 'Two' }],
    );
    const plain = await admin.post(`/api/dashboard/${d.id}/copy`, {});
    assert.equal(plain.status, 200, plain.text);
    assert.equal(plain.body.name, d.name);
    assert.equal(plain.body.description, 'orig');
    assert.equal(plain.body.collection_id, null);
    const copy = await admin.post(`/api/dashboard/${d.id}/copy`, { name: 'Copied', description: 'new', collection_id: target.id });
    assert.equal(copy.status, 200, copy.text);
    const got = await getDashboard(admin, copy.body.id);
    assert.equal(got.name, 'Copied');
    assert.equal(got.description, 'new');
    assert.equal(got.collection_id, target.id);
    assert.deepEqual(got.parameters, source.parameters);
    assert.deepEqual(got.tabs.map((t: any) => t.name), ['One', 'Two']);
    assert.ok(got.tabs.every((t: any) => !source.tabs.some((s: any) => s.id === t.id)), 'new tabs');
    assert.deepEqual(got.dashcards.map((dc: any) => dc.card_id).sort(), [c1.id, c2.id].sort(), 'same cards');
    assert.ok(got.dashcards.every((dc: any) => !source.dashcards.some((s: any) => s.id === dc.id)), 'new dashcards');
    const first = got.dashcards.find((dc: any) => dc.card_id === c1.id);
    assert.deepEqual(first.parameter_mappings, [mapping]);
    assert.deepEqual(first.series.map((s: any) => s.id), [c2.id]);
    assert.equal(first.dashboard_tab_id, got.tabs[0].id, 'dashcards follow their tabs');
    assert.equal((await revisions(copy.body.id))[0].is_creation, true);
    assert.equal((await admin.post('/api/dashboard/99999999/copy', {})).status, 404);
  });

  test('deep copy duplicates cards into the target collection and rewires mappings and series', async () => {
    const home = await createCollection(admin);
    const target = await createCollection(admin);
    const [c1, c2, model] = await Promise.all([
      createCard(admin, data, { collection_id: home.id, name: uniqueName('Main') }),
      createCard(admin, data, { collection_id: home.id, name: uniqueName('Overlay') }),
      createCard(admin, data, { collection_id: home.id, type: 'model', name: uniqueName('Model') }),
    ]);
    const d = await createDashboard(admin, { collection_id: home.id, parameters: [{ id: 'p', type: 'category', name: 'P', slug: 'p' }] });
    const question = await createCard(admin, data, { dashboard_id: d.id, name: uniqueName('Inner') });
    const inner = (await getDashboard(admin, d.id)).dashcards[0];
    const mapping = (cardId: number) => ({ parameter_id: 'p', card_id: cardId, target: ['dimension', ['field', 1, null]] });
    await putLayout(admin, d.id, [
      asInput(inner, { row: 20 }),
      newDashcard(-1, c1.id, { parameter_mappings: [mapping(c1.id)], series: [{ id: c2.id }] }),
      newDashcard(-2, model.id, { row: 4 }),
      newDashcard(-3, null, { row: 8, visualization_settings: { text: 'hi', virtual_card: { display: 'text' } } }),
    ]);
    const copy = await admin.post(`/api/dashboard/${d.id}/copy`, { is_deep_copy: true, collection_id: target.id, name: 'Deep' });
    assert.equal(copy.status, 200, copy.text);
    const got = await getDashboard(admin, copy.body.id);
    assert.equal(got.dashcards.length, 4);
    const main = got.dashcards.find((dc: any) => dc.card?.name === c1.name);
    assert.ok(main, 'the duplicate keeps the name in another collection');
    assert.notEqual(main.card_id, c1.id);
    assert.equal(main.card.collection_id, target.id);
    assert.deepEqual(main.parameter_mappings, [mapping(main.card_id)], 'mapping rewired to the duplicate');
    assert.equal(main.series.length, 1);
    assert.notEqual(main.series[0].id, c2.id, 'series rewired');
    assert.equal(main.series[0].name, c2.name);
    assert.equal(main.series[0].collection_id, target.id);
    assert.equal(got.dashcards.find((dc: any) => dc.row === 4).card_id, model.id, 'models stay shared');
    assert.equal(got.dashcards.find((dc: any) => dc.card_id === null).visualization_settings.text, 'hi');
    const innerCopy = got.dashcards.find((dc: any) => dc.row === 20);
    assert.notEqual(innerCopy.card_id, question.id);
    assert.equal(innerCopy.card.dashboard_id, copy.body.id, 'dashboard questions belong to the copy');
    // the originals are untouched
    const original = await getDashboard(admin, d.id);
    assert.equal(original.dashcards.find((dc: any) => dc.row === 0).card_id, c1.id);
    // copying within the same collection marks duplicates
    const same = await admin.post(`/api/dashboard/${d.id}/copy`, { is_deep_copy: true, collection_id: home.id });
    const sameGot = await getDashboard(admin, same.body.id);
    assert.ok(sameGot.dashcards.some((dc: any) => dc.card?.name === `${c1.name} - Duplicate`));
  });

  test('a shallow copy of a dashboard with dashboard questions is refused (400); a deep copy duplicates them', async () => {
    const name = uniqueName('With questions');
    const d = await createDashboard(admin, { name });
    const question = await createCard(admin, data, { dashboard_id: d.id, name: uniqueName('Inner') });
    const copies = async () => Number((await server().ctx.db.selectFrom('report_dashboard').select((eb) => eb.fn.countAll().as('n')).where('name', '=', name).executeTakeFirstOrThrow()).n);
    for (const body of [{}, { is_deep_copy: false }, { is_deep_copy: null }]) {
      const r = await admin.post(`/api/dashboard/${d.id}/copy`, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.text, 'You cannot do a shallow copy of this dashboard because it contains Dashboard Questions.');
    }
    assert.equal(await copies(), 1, 'no dashboard made');
    const deep = await admin.post(`/api/dashboard/${d.id}/copy`, { is_deep_copy: true });
    assert.equal(deep.status, 200, deep.text);
    const [inner] = (await getDashboard(admin, deep.body.id)).dashcards;
    assert.notEqual(inner.card_id, question.id);
    assert.equal(inner.card.dashboard_id, deep.body.id);
    assert.equal(inner.card.name, question.name);
    // a question in the Trash no longer counts (its dashcard is hidden): a shallow copy is made, without it
    assert.equal((await admin.put(`/api/card/${question.id}`, { archived: true })).status, 200);
    const shallow = await admin.post(`/api/dashboard/${d.id}/copy`, {});
    assert.equal(shallow.status, 200, shallow.text);
    assert.deepEqual((await getDashboard(admin, shallow.body.id)).dashcards, []);
    const deepAgain = await admin.post(`/api/dashboard/${d.id}/copy`, { is_deep_copy: true });
    assert.deepEqual((await getDashboard(admin, deepAgain.body.id)).dashcards, [], 'nor does a deep copy');
  });

  test('deep copy leaves out cards the caller cannot read and lists them as uncopied', async () => {
    const { client: user } = await createUserClient(server(), admin);
    const secret = await createCollection(admin);
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
    const hidden = await createCard(admin, data, { collection_id: secret.id });
    const visible = await createCard(admin, data);
    const d = await createDashboard(admin);
    await putLayout(admin, d.id, [newDashcard(-1, hidden.id), newDashcard(-2, visible.id, { row: 4 })]);
    const copy = await user.post(`/api/dashboard/${d.id}/copy`, { is_deep_copy: true });
    assert.equal(copy.status, 200, copy.text);
    assert.deepEqual(copy.body.uncopied, [{ id: hidden.id, name: hidden.name }]);
    const got = await getDashboard(user, copy.body.id);
    assert.equal(got.dashcards.length, 1);
    assert.equal(got.dashcards[0].card.name, `${visible.name} - Duplicate`, 'copied into the same (root) collection');
    assert.notEqual(got.dashcards[0].card_id, visible.id);
  });

  test('save stores a denormalized dashboard in a new collection of its own', async () => {
    const name = uniqueName('Generated');
    const body = {
      name,
      description: 'x-ray',
      parameters: [],
      tabs: [{ id: 1, name: 'Main' }],
      dashcards: [
        { id: 1, dashboard_tab_id: 1, row: 0, col: 0, size_x: 6, size_y: 4, card: { name: 'Generated card', display: 'table', dataset_query: mbql(data), visualization_settings: {} }, series: [], visualization_settings: {}, parameter_mappings: [] },
        { id: 2, dashboard_tab_id: 1, row: 4, col: 0, size_x: 6, size_y: 2, card: { dataset_query: {} }, visualization_settings: { text: 'intro', virtual_card: { display: 'text' } } },
      ],
    };
    const r = await admin.post('/api/dashboard/save', body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, name);
    assert.equal(r.body.collection_position, 1);
    assert.equal(r.body.collection.name, name);
    assert.equal(r.body.tabs[0].name, 'Main');
    const [cardDc, textDc] = r.body.dashcards;
    assert.equal(cardDc.card.name, 'Generated card');
    assert.equal(cardDc.card.collection_id, r.body.collection_id);
    assert.equal(textDc.card_id, null);
    const parent = (await admin.get(`/api/collection/${r.body.collection_id}`)).body;
    assert.equal(parent.description, 'Automatically generated cards.');
    assert.equal(parent.effective_ancestors.at(-1).name, 'Automatically generated dashboards');
    const again = await admin.post('/api/dashboard/save', body);
    assert.equal(again.body.collection.name, `${name} 2`);
    const into = await createCollection(admin);
    const placed = await admin.post(`/api/dashboard/save/collection/${into.id}`, body);
    assert.equal(placed.status, 200, placed.text);
    assert.equal(placed.body.collection.location, `/${into.id}/`);
    assert.equal((await admin.post('/api/dashboard/save/collection/99999999', body)).status, 404);
  });

  test('save refuses what it cannot save, before making anything: unknown cards 404, unreadable 403, bad queries 400, the Trash 400', async () => {
    const { client: user } = await createUserClient(server(), admin);
    const secret = await createCollection(admin);
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
    const hidden = await createCard(admin, data, { collection_id: secret.id });
    const visible = await createCard(admin, data);
    const name = uniqueName('Refused');
    const generatedName = uniqueName('Generated card');
    const dashcard = (extra: Record<string, unknown>, i = 1) => ({ id: i, row: 0, col: 0, size_x: 4, size_y: 4, visualization_settings: {}, parameter_mappings: [], ...extra });
    const generated = dashcard({ card: { name: generatedName, display: 'table', dataset_query: mbql(data) } });
    const save = (client: Client, dashcards: unknown[], path = '/api/dashboard/save') => client.post(path, { name, parameters: [{ id: 'p', type: 'category', name: 'P', slug: 'p' }], dashcards });

    const unknownCard = await save(admin, [generated, dashcard({ card: { id: 99999999, name: 'Gone', dataset_query: mbql(data) } }, 2)]);
    assert.equal(unknownCard.status, 404);
    assert.equal((await save(admin, [generated, dashcard({ card_id: 99999999 }, 2)])).status, 404);
    assert.equal((await save(admin, [generated, dashcard({ card: { id: visible.id } }, 2), dashcard({ card: {}, series: [{ id: 99999999 }] }, 3)])).status, 404);
    assert.equal((await save(user, [generated, dashcard({ card: { id: hidden.id, name: hidden.name } }, 2)])).status, 403);
    assert.equal((await save(user, [generated, dashcard({ card_id: visible.id, series: [{ id: hidden.id }] }, 2)])).status, 403);
    for (const query of [{ garbage: 1 }, { type: 'query', query: { 'source-table': data.tableId } }, { database: data.databaseId, type: 'native', native: {} }]) {
      const bad = await save(admin, [generated, dashcard({ card: { name: 'Bad', display: 'table', dataset_query: query } }, 2)]);
      assert.equal(bad.status, 400, JSON.stringify(query));
      assert.match(bad.text, /^Invalid dataset_query: /);
    }
    const missingDb = await save(admin, [generated, dashcard({ card: { name: 'Nowhere', dataset_query: { database: 987654, type: 'native', native: { query: 'select 1' } } } }, 2)]);
    assert.equal(missingDb.status, 404);
    const badMapping = await save(admin, [dashcard({ card: { name: 'Mapped', dataset_query: mbql(data) }, parameter_mappings: [{ parameter_id: 'p', target: ['dimension'] }] })]);
    assert.equal(badMapping.status, 400);
    assert.match(badMapping.text, /Invalid parameter mapping target/);
    const trashId = (await admin.get('/api/collection/trash')).body.id;
    const trash = await save(admin, [generated], `/api/dashboard/save/collection/${trashId}`);
    assert.equal(trash.status, 400);
    assert.equal(trash.text, 'You cannot modify the Trash Collection.');

    const db = server().ctx.db;
    assert.deepEqual(await db.selectFrom('collection').select('id').where('name', 'like', `${name}%`).execute(), [], 'no collection made');
    assert.deepEqual(await db.selectFrom('report_card').select('id').where('name', '=', generatedName).execute(), [], 'no card made');
    assert.deepEqual(await db.selectFrom('report_dashboard').select('id').where('name', '=', name).execute(), [], 'no dashboard made');
  });

  test('a save that fails after it started removes the collection and cards it made', async () => {
    const name = uniqueName('Half made');
    const generatedName = uniqueName('Made first');
    const body = {
      name,
      dashcards: [
        { id: 1, row: 0, col: 0, size_x: 4, size_y: 4, card: { name: generatedName, display: 'table', dataset_query: mbql(data) } },
        // a question on a saved question that doesn't exist: found only when the card is made
        { id: 2, row: 4, col: 0, size_x: 4, size_y: 4, card: { name: 'On nothing', display: 'table', dataset_query: { database: -1337, type: 'query', query: { 'source-table': 'card__99999999' } } } },
      ],
    };
    const into = await createCollection(admin);
    for (const path of ['/api/dashboard/save', `/api/dashboard/save/collection/${into.id}`]) {
      const r = await admin.post(path, body);
      assert.equal(r.status, 404, r.text);
      const db = server().ctx.db;
      assert.deepEqual(await db.selectFrom('collection').select('id').where('name', 'like', `${name}%`).execute(), [], 'the new collection is gone');
      assert.deepEqual(await db.selectFrom('report_card').select('id').where('name', '=', generatedName).execute(), [], 'the card made first is gone');
      assert.deepEqual(await db.selectFrom('report_dashboard').select('id').where('name', '=', name).execute(), []);
    }
    // the same dashboard without the bad card saves
    const ok = await admin.post('/api/dashboard/save', { ...body, dashcards: body.dashcards.slice(0, 1) });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.collection.name, name, 'the name was not taken by a leftover');
  });
});
