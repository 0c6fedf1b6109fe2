// X-rays of the Sample Database on a real server: every table's dashboard has cards whose queries run through
// POST /api/dataset and return rows, filters wired to them, a related block; cells, comparisons, ad-hoc queries,
// forced templates, query_metadata, candidates; the 400/403/404 answers; and a saved X-ray that opens and runs.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createUserClient, forEachAppDb } from '../helpers/server.js';
import { fieldOf, tableOf } from '../databases/helpers.js';
import { callers, ok, type Callers } from '../endpoints/helpers.js';
import type { Client } from '../helpers/client.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const X = '/api/automagic-dashboards';

const queryCards = (d: any) => d.dashcards.filter((dc: any) => dc.card);

/** Runs every card of an X-ray through POST /api/dataset; returns the row counts. */
async function runCards(client: Client, dashboard: any): Promise<number[]> {
  const counts: number[] = [];
  for (const card of queryCards(dashboard).flatMap((dc: any) => [dc.card, ...(dc.series ?? [])])) {
    const dc = { card };
    const r = await client.post('/api/dataset', dc.card.dataset_query);
    assert.ok(r.status === 202 || r.status === 200, `${dc.card.name}: ${r.status} ${r.text}`);
    assert.equal(r.body.status, 'completed', `${dc.card.name}: ${JSON.stringify(r.body.error ?? r.body).slice(0, 400)} ${JSON.stringify(dc.card.dataset_query)}`);
    counts.push(r.body.data.rows.length);
  }
  return counts;
}

function checkShape(d: any) {
  for (const key of ['name', 'transient_name', 'description', 'parameters', 'dashcards', 'related', 'more', 'transient_filters', 'param_fields', 'auto_apply_filters']) assert.ok(key in d, `missing ${key}`);
  assert.ok(d.name && typeof d.name === 'string');
  const headings = d.dashcards.filter((dc: any) => dc.card === null);
  assert.ok(headings.length > 0, 'sections have headings');
  for (const h of headings) assert.match(h.visualization_settings.text, /^#{1,2} /);
  for (const dc of queryCards(d)) {
    assert.equal(dc.card_id, dc.card.id);
    assert.equal(dc.card.dataset_query.type, 'query');
    assert.ok(dc.size_x > 0 && dc.col + dc.size_x <= 24, 'fits the 24-column grid');
    for (const m of dc.parameter_mappings) {
      assert.ok(d.parameters.some((p: any) => p.id === m.parameter_id));
      assert.equal(m.card_id, dc.card.id);
      assert.equal(m.target[0], 'dimension');
    }
  }
}

forEachAppDb('x-rays', (server) => {
  let c: Callers;
  let t: (name: string) => number;
  let f: (table: string, name: string) => number;

  before(async () => {
    c = await callers(server());
    t = (name) => tableOf(c.sample.metadata, name).id;
    f = (table, name) => fieldOf(c.sample.metadata, table, name).id;
  });

  test('each Sample Database table: a dashboard of runnable cards, filters wired to them, related links', async () => {
    for (const table of ['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS']) {
      const d = ok(await c.user.get(`${X}/table/${t(table)}`), table);
      checkShape(d);
      assert.equal(d.name, `A look at ${tableOf(c.sample.metadata, table).display_name}`);
      const cards = queryCards(d);
      assert.ok(cards.length >= 3 && cards.length <= 15, `${table}: ${cards.length} cards`);
      assert.ok(cards.every((dc: any) => dc.card.can_run_adhoc_query === true));
      const counts = await runCards(c.user, d);
      assert.ok(counts.every((n) => n > 0), `${table}: every card returns rows (${counts})`);
      assert.ok(d.parameters.length > 0 && d.parameters.length <= 4, `${table} has filters`);
      assert.ok(Object.keys(d.related).length > 0, `${table} has related links`);
    }
  });

  test('ORDERS reads like a transactions table: natural titles, a date filter, sales over time', async () => {
    const d = ok(await c.user.get(`${X}/table/${t('ORDERS')}`), 'orders');
    const titles = queryCards(d).map((dc: any) => dc.card.name);
    assert.ok(titles.includes('Total Orders'), titles.join(' | '));
    assert.ok(titles.some((s: string) => /^Sales per (month|year|day)$/.test(s)), titles.join(' | '));
    assert.ok(titles.some((s: string) => s.startsWith('Sales per Product → Category')), titles.join(' | '));
    const date = d.parameters.find((p: any) => p.type === 'date/all-options');
    assert.ok(date, 'a date filter');
    assert.equal(date.sectionId, 'date');
    // a filter value narrows what its cards return
    const total = queryCards(d).find((dc: any) => dc.card.name === 'Total Orders');
    const mapping = total.parameter_mappings.find((m: any) => m.parameter_id === date.id);
    const all = ok(await c.user.post('/api/dataset', total.card.dataset_query), 'all');
    const some = ok(
      await c.user.post('/api/dataset', { ...total.card.dataset_query, parameters: [{ id: date.id, type: date.type, target: mapping.target, value: '2024-01-01~2024-06-30' }] }),
      'filtered',
    );
    assert.ok(some.data.rows[0][0] < all.data.rows[0][0], 'the date filter narrows the count');
    assert.ok(d.description.length > 0);
    const people = ok(await c.user.get(`${X}/table/${t('PEOPLE')}`), 'people');
    assert.ok(!people.parameters.some((p: any) => p.name === 'Birth Date'), 'a birthday is no time axis');
    assert.ok(people.parameters.some((p: any) => p.name === 'State' && p.sectionId === 'location'));
  });

  test('show caps the cards; headings do not count; more points at show=all', async () => {
    const one = ok(await c.user.get(`${X}/table/${t('ORDERS')}`, { query: { show: 1 } }), 'show=1');
    assert.equal(queryCards(one).length, 1);
    assert.equal(one.dashcards.length, 2);
    assert.equal(one.more, `/auto/dashboard/table/${t('ORDERS')}#show=all`);
    const all = ok(await c.user.get(`${X}/table/${t('ORDERS')}`, { query: { show: 'all' } }), 'show=all');
    assert.ok(queryCards(all).length > 15);
    assert.equal(all.more, null);
    const bad = await c.user.get(`${X}/table/${t('ORDERS')}`, { query: { show: 'many' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors.show, 'invalid show value');
  });

  test('fields, segments, questions, models and ad-hoc queries', async () => {
    const total = ok(await c.user.get(`${X}/field/${f('ORDERS', 'TOTAL')}`), 'field');
    checkShape(total);
    assert.equal(total.name, 'A look at the Total field');
    assert.ok(queryCards(total).some((dc: any) => dc.card.name === 'How Total is distributed'));
    assert.ok((await runCards(c.user, total)).every((n) => n > 0));
    assert.deepEqual(total.related['zoom-out'].map((l: any) => l.url), [`/auto/dashboard/table/${t('ORDERS')}`]);
    const created = ok(await c.user.get(`${X}/field/${f('PEOPLE', 'CREATED_AT')}`), 'date field');
    assert.ok((await runCards(c.user, created)).every((n) => n > 0));
    const source = ok(await c.user.get(`${X}/field/${f('PEOPLE', 'SOURCE')}`), 'category field');
    assert.ok((await runCards(c.user, source)).every((n) => n > 0));

    const total100 = ['>', ['field', f('ORDERS', 'TOTAL'), null], 100];
    const segment = ok(await c.admin.post('/api/segment', { name: 'Big orders', table_id: t('ORDERS'), definition: { 'source-table': t('ORDERS'), filter: total100 } }), 'segment');
    const seg = ok(await c.user.get(`${X}/segment/${segment.id}`), 'segment x-ray');
    checkShape(seg);
    assert.equal(seg.name, 'A look at Orders in the Big orders segment');
    assert.deepEqual(seg.transient_filters, ['segment', segment.id]);
    assert.ok(queryCards(seg).every((dc: any) => JSON.stringify(dc.card.dataset_query.query.filter).includes('"segment"')));
    assert.ok((await runCards(c.user, seg)).every((n) => n > 0));
    const orders = ok(await c.user.get(`${X}/table/${t('ORDERS')}`), 'orders again');
    assert.ok(orders.related.compare.some((l: any) => l.url === `/auto/dashboard/table/${t('ORDERS')}/compare/segment/${segment.id}`));

    const query = { database: c.sample.id, type: 'query', query: { 'source-table': t('ORDERS'), filter: total100 } };
    const question = ok(await c.admin.post('/api/card', { name: 'Big orders list', display: 'table', visualization_settings: {}, dataset_query: query }), 'question');
    const q = ok(await c.user.get(`${X}/question/${question.id}`), 'question x-ray');
    assert.equal(q.name, 'A look at "Big orders list"');
    assert.ok((await runCards(c.user, q)).every((n) => n > 0));
    assert.equal(ok(await c.user.get(`${X}/table/card__${question.id}`), 'card__ id').name, q.name);

    const aggregated = { database: c.sample.id, type: 'query', query: { 'source-table': t('ORDERS'), aggregation: [['sum', ['field', f('ORDERS', 'TOTAL'), null]]], breakout: [['field', f('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]] } };
    const adhoc = ok(await c.user.get(`${X}/adhoc/${b64(aggregated)}`), 'aggregated adhoc');
    assert.match(adhoc.name, /^A closer look at Sum of Total by Created At/);
    assert.ok(queryCards(adhoc).length > 0 && queryCards(adhoc).length <= 30);
    assert.ok((await runCards(c.user, adhoc)).every((n) => n > 0));
    const saved = ok(await c.admin.post('/api/card', { name: 'Revenue by month', display: 'line', visualization_settings: {}, dataset_query: aggregated }), 'aggregated question');
    const sq = ok(await c.user.get(`${X}/question/${saved.id}`), 'aggregated question x-ray');
    assert.equal(sq.name, 'A closer look at "Revenue by month"');
    assert.ok((await runCards(c.user, sq)).every((n) => n > 0));
    const march = ['=', ['field', f('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }], '2024-03-01T00:00:00Z'];
    const drill = ok(await c.user.get(`${X}/question/${saved.id}/cell/${b64(march)}`), 'drill into a point');
    assert.equal(drill.name, 'A closer look at sum of Total where Created At is in March 2024');
    const vsAll = ok(await c.user.get(`${X}/question/${saved.id}/cell/${b64(march)}/compare/adhoc/${b64({ database: c.sample.id, type: 'query', query: { 'source-table': t('ORDERS') } })}`), 'cell vs adhoc');
    assert.match(vsAll.name, /^Comparison of /);
    assert.ok((await runCards(c.user, vsAll)).length > 0);
    const tableLike = ok(await c.user.get(`${X}/adhoc/${b64url(query)}`), 'table-like adhoc (url-safe alphabet)');
    assert.ok((await runCards(c.user, tableLike)).every((n) => n > 0));

    const model = ok(await c.admin.post('/api/card', { name: 'Product catalog', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: c.sample.id, type: 'query', query: { 'source-table': t('PRODUCTS') } } }), 'model');
    ok(await c.admin.post(`/api/card/${model.id}/query`, {}), 'run the model once');
    const m = ok(await c.user.get(`${X}/model/${model.id}`), 'model x-ray');
    assert.equal(m.name, 'A look at "Product catalog"');
    assert.ok(queryCards(m).length > 0);
    assert.ok(queryCards(m).every((dc: any) => dc.card.dataset_query.query['source-table'] === `card__${model.id}`));
    assert.ok((await runCards(c.user, m)).every((n) => n > 0));
    assert.equal((await c.user.get(`${X}/model/${question.id}`)).status, 404, 'a question is not a model');
  });

  test('cells, comparisons and forced templates', async () => {
    const widget = ['=', ['field', f('PRODUCTS', 'CATEGORY'), null], 'Widget'];
    const cell = ok(await c.user.get(`${X}/table/${t('PRODUCTS')}/cell/${b64url(widget)}`), 'cell');
    assert.equal(cell.name, 'A closer look at Products where Category is Widget');
    assert.deepEqual(cell.transient_filters, widget);
    assert.ok(cell.param_fields[String(f('PRODUCTS', 'CATEGORY'))]);
    assert.ok(!cell.parameters.some((p: any) => p.name === 'Category'), 'no filter on the fixed field');
    assert.ok(queryCards(cell).every((dc: any) => !JSON.stringify(dc.card.dataset_query.query.breakout ?? []).includes(`${f('PRODUCTS', 'CATEGORY')},`)));
    assert.ok((await runCards(c.user, cell)).every((n) => n > 0));
    const back = cell.related.compare.find((l: any) => l.title === 'Compare with entire dataset');
    assert.equal(back.url, `/auto/dashboard/table/${t('PRODUCTS')}/cell/${b64url(widget)}/compare/table/${t('PRODUCTS')}`);

    const cmp = ok(await c.user.get(back.url.replace('/auto/dashboard', X)), 'cell vs table');
    assert.equal(cmp.name, 'Comparison of Products where Category is Widget and All Products');
    assert.deepEqual(cmp.parameters, []);
    const pairs = queryCards(cmp);
    assert.ok(pairs.some((dc: any) => dc.col === 12 && !JSON.stringify(dc.card.dataset_query.query.filter ?? null).includes('Widget')), 'side by side');
    const overlaid = pairs.find((dc: any) => dc.series.length === 1);
    assert.ok(overlaid && overlaid.size_x === 24, 'line charts draw the other side as a second series');
    assert.ok(!JSON.stringify(overlaid.series[0].dataset_query.query.filter ?? null).includes('Widget'));
    assert.ok((await runCards(c.user, cmp)).every((n) => n > 0));
    const savedCmp = ok(await c.user.post('/api/dashboard/save', cmp), 'save a comparison');
    const openedCmp = ok(await c.user.get(`/api/dashboard/${savedCmp.id}`), 'open it');
    assert.ok(openedCmp.dashcards.some((dc: any) => dc.series.length === 1), 'the series was saved too');

    const july = ['=', ['field', f('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }], '2024-07-01T00:00:00Z'];
    const monthCell = ok(await c.user.get(`${X}/table/${t('ORDERS')}/cell/${b64(july)}`), 'month cell');
    assert.equal(monthCell.name, 'A closer look at Orders where Created At is in July 2024');

    const segment = ok(await c.admin.post('/api/segment', { name: 'Gizmos', table_id: t('PRODUCTS'), definition: { 'source-table': t('PRODUCTS'), filter: ['=', ['field', f('PRODUCTS', 'CATEGORY'), null], 'Gizmo'] } }), 'segment');
    const gizmos = ok(await c.user.get(`${X}/segment/${segment.id}`), 'segment of one category');
    assert.ok(!queryCards(gizmos).some((dc: any) => dc.card.name === 'Products per Category'), 'no breakout on the field the segment fixes');
    assert.ok(!gizmos.parameters.some((p: any) => p.name === 'Category'));
    const segVsTable = ok(await c.user.get(`${X}/segment/${segment.id}/compare/table/${t('PRODUCTS')}`), 'segment vs table');
    assert.equal(segVsTable.name, 'Comparison of Gizmos segment and All Products');
    const tableVsSeg = ok(await c.user.get(`${X}/table/${t('PRODUCTS')}/compare/segment/${segment.id}`), 'table vs segment');
    assert.equal(tableVsSeg.name, 'Comparison of Products and Gizmos segment');
    const other = await c.user.get(`${X}/table/${t('PRODUCTS')}/compare/table/${t('ORDERS')}`);
    assert.equal(other.status, 400, 'comparing different tables');

    const rule = ok(await c.user.get(`${X}/table/${t('ORDERS')}/rule/TransactionTable/Seasonality`), 'forced template');
    assert.ok(queryCards(rule).length > 0);
    assert.ok(queryCards(rule).every((dc: any) => / by (day of the week|hour of the day|month of the year|quarter of the year)$/.test(dc.card.name)));
    assert.ok((await runCards(c.user, rule)).every((n) => n > 0));
    const orders = ok(await c.user.get(`${X}/table/${t('ORDERS')}`), 'orders');
    assert.ok(orders.related['zoom-in'].some((l: any) => l.url.startsWith(`/auto/dashboard/table/${t('ORDERS')}/rule/TransactionTable/`)));
    const cellRule = ok(await c.user.get(`${X}/table/${t('PRODUCTS')}/cell/${b64(widget)}/rule/GenericTable/Distributions`), 'cell + rule');
    assert.ok(queryCards(cellRule).length > 0);
    const all = ok(await c.user.get(`${X}/table/${t('PRODUCTS')}/cell/${b64(widget)}/rule/GenericTable/Distributions/compare/table/${t('PRODUCTS')}`), 'all combined');
    assert.match(all.name, /^Comparison of /);
  });

  test('query_metadata lists the tables and fields of the cards', async () => {
    const md = ok(await c.user.get(`${X}/table/${t('ORDERS')}/query_metadata`), 'query_metadata');
    const tables = md.tables.map((x: any) => x.id);
    assert.ok(tables.includes(t('ORDERS')));
    assert.ok(tables.includes(t('PRODUCTS')), 'tables reached through foreign keys too');
    assert.deepEqual(tables, [...tables].sort((a: number, b: number) => a - b));
    assert.ok(md.databases.some((db: any) => db.id === c.sample.id));
  });

  test('candidates: tables worth an X-ray, per schema, best first', async () => {
    const list = ok(await c.user.get(`${X}/database/${c.sample.id}/candidates`), 'candidates');
    assert.ok(Array.isArray(list) && list.length >= 1);
    const [schema] = list;
    assert.equal(schema.id, `${c.sample.id}/${schema.schema ?? ''}`);
    assert.ok(schema.tables.length > 0 && schema.tables.length <= 10);
    for (const entry of schema.tables) {
      assert.match(entry.url, /^\/auto\/dashboard\/table\/\d+$/);
      assert.ok(entry.title && typeof entry.score === 'number' && typeof entry.description === 'string');
      assert.ok('num-fields' in entry.table && 'list-like?' in entry.table);
      assert.ok(entry['dashboard-template-name']);
    }
    const scores = schema.tables.map((e: any) => e.score);
    assert.deepEqual(scores, [...scores].sort((a: number, b: number) => b - a));
    assert.equal(schema.tables.find((e: any) => e.title === 'Orders')['dashboard-template-name'], 'TransactionTable');
    assert.equal((await c.nodata.get(`${X}/database/${c.sample.id}/candidates`)).status, 403);
    assert.equal((await c.user.get(`${X}/database/999999/candidates`)).status, 404);
  });

  test('bad requests, missing things and permissions', async () => {
    const entity = await c.user.get(`${X}/planet/1`);
    assert.equal(entity.status, 400);
    assert.equal(entity.body.errors.entity, 'Invalid entity type');
    const comparison = await c.user.get(`${X}/table/${t('PRODUCTS')}/compare/question/1`);
    assert.equal(comparison.status, 400);
    assert.match(comparison.body.errors['comparison-entity'], /^Invalid comparison entity type/);
    const cell = await c.user.get(`${X}/table/${t('PRODUCTS')}/cell/not-json!`);
    assert.equal(cell.status, 400);
    assert.match(JSON.stringify(cell.body), /base64 encoded JSON/);
    assert.equal((await c.user.get(`${X}/table/${t('PRODUCTS')}/rule/Nope/Seasonality`)).status, 400);
    assert.equal((await c.user.get(`${X}/table/${t('PRODUCTS')}/rule/GenericTable/Nope`)).status, 400);
    assert.equal((await c.user.get(`${X}/adhoc/${b64({ database: c.sample.id, type: 'query', query: { 'source-table': t('ORDERS'), aggregation: [['bogus']] } })}`)).status, 400);
    for (const path of ['table/999999', 'field/999999', 'segment/999999', 'question/999999', 'model/999999', 'table/abc', 'transform/x']) {
      const r = await c.user.get(`${X}/${path}`);
      assert.equal(r.status, 404, path);
      assert.equal(r.text, 'Not found.');
    }
    for (const path of [`table/${t('ORDERS')}`, `field/${f('ORDERS', 'TOTAL')}`, `adhoc/${b64({ database: c.sample.id, type: 'query', query: { 'source-table': t('ORDERS') } })}`]) {
      const r = await c.nodata.get(`${X}/${path}`);
      assert.equal(r.status, 403, path);
      assert.equal(r.text, "You don't have permissions to do that.");
    }
    assert.equal((await c.user.get(`${X}/model_index/999999/primary_key/1`)).status, 404);
    // odd cells are refused or read as conditions that match nothing, never a 500
    for (const odd of [['=', ['field', 99999999999, null], 'x'], ['and'], ['=', 'x'], ['segment', 'abc'], ['=', ['field', -3, null], 1], { not: 'a clause' }, 'text', ['bogus-op', ['field', f('PRODUCTS', 'CATEGORY'), null]]]) {
      const r = await c.user.get(`${X}/table/${t('PRODUCTS')}/cell/${b64(odd)}`);
      assert.ok(r.status === 400 || r.status === 200, `${JSON.stringify(odd)}: ${r.status} ${r.text}`);
      const cmp = await c.user.get(`${X}/table/${t('PRODUCTS')}/cell/${b64(odd)}/compare/table/${t('PRODUCTS')}`);
      assert.ok(cmp.status === 400 || cmp.status === 200, `${JSON.stringify(odd)} compared: ${cmp.status} ${cmp.text}`);
    }
  });

  test('a user who may query ORDERS only: nothing of the tables it links to, and every card runs', async () => {
    const group = ok(await c.admin.post('/api/permissions/group', { name: `Orders only ${Date.now()}` }), 'group');
    const { client, user } = await createUserClient(server(), c.admin);
    ok(await c.admin.post('/api/permissions/membership', { group_id: group.id, user_id: user.id }), 'membership');
    const { revision } = ok(await c.admin.get('/api/permissions/graph'), 'graph');
    ok(await c.admin.put('/api/permissions/graph', { revision, groups: { [group.id]: { [c.sample.id]: { 'create-queries': { '': { [t('ORDERS')]: 'query-builder' } } } } } }), 'graph');
    const d = ok(await client.get(`${X}/table/${t('ORDERS')}`), 'orders');
    assert.ok(queryCards(d).length > 0);
    const text = JSON.stringify(d);
    assert.ok(!text.includes('source-field'), 'no field reached through a key into an unreadable table');
    assert.ok(!JSON.stringify(d.related).includes(`/table/${t('PEOPLE')}`) && !JSON.stringify(d.related).includes(`/table/${t('PRODUCTS')}`));
    assert.ok(queryCards(d).every((dc: any) => dc.card.can_run_adhoc_query === true));
    assert.ok((await runCards(client, d)).every((n) => n > 0));
    assert.equal((await client.get(`${X}/table/${t('PRODUCTS')}`)).status, 403);
    const candidates = ok(await client.get(`${X}/database/${c.sample.id}/candidates`), 'candidates');
    assert.deepEqual(candidates.flatMap((s: any) => s.tables.map((e: any) => e.title)), ['Orders']);
    assert.equal((await c.user.get(`${X}/database/0/candidates`)).status, 400);
  });

  test('a saved X-ray is a regular dashboard whose cards run', async () => {
    const d = ok(await c.user.get(`${X}/table/${t('PEOPLE')}`), 'people');
    const saved = ok(await c.user.post('/api/dashboard/save', d), 'save');
    assert.equal(saved.name, d.name);
    const opened = ok(await c.user.get(`/api/dashboard/${saved.id}`), 'open');
    const cards = opened.dashcards.filter((dc: any) => dc.card_id);
    assert.equal(cards.length, queryCards(d).length);
    assert.equal(opened.parameters.length, d.parameters.length);
    for (const dc of cards) {
      const run = await c.user.post(`/api/dashboard/${saved.id}/dashcard/${dc.id}/card/${dc.card_id}/query`, {});
      assert.ok(run.status === 202 || run.status === 200, `${dc.card.name}: ${run.status}`);
      assert.equal(run.body.status, 'completed', dc.card.name);
    }
    const withFilter = cards.find((dc: any) => dc.card.display === 'scalar' && dc.parameter_mappings.length);
    assert.ok(withFilter, 'filters stayed wired');
    const source = opened.parameters.find((p: any) => p.name === 'Source');
    const mapping = withFilter.parameter_mappings.find((m: any) => m.parameter_id === source.id);
    const path = `/api/dashboard/${saved.id}/dashcard/${withFilter.id}/card/${withFilter.card_id}/query`;
    const all = ok(await c.user.post(path, {}), 'unfiltered');
    const some = ok(await c.user.post(path, { parameters: [{ id: source.id, type: source.type, target: mapping.target, value: ['Google'] }] }), 'filtered');
    assert.ok(some.data.rows[0][0] < all.data.rows[0][0], 'the saved filter narrows the card');
  });
});
