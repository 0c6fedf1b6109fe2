// Fields unfolded from a PostgreSQL jsonb column (nfc_path) in queries: a nested field compiles to the JSON path
// extraction of its column cast to the field's type, in every clause — fields, filters (=, >, contains, is-null),
// breakouts with temporal bucketing, order-by, aggregations, nested stages and joins, native field filters,
// dashboard parameters and their values (chain filters) and parameter values. The SQL shown by /api/dataset/native
// runs and answers the same; an engine without nested-field-columns fails with unsupported-feature.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { waitForSync } from '../databases/helpers.js';
import { installSample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';
import { prepareQuery } from '../../src/query/index.js';
import { createDashboard, newDashcard, putLayout } from '../dashboards/fixtures.js';

/** A key that needs escaping in a PostgreSQL array literal and in an SQL string. */
const ODD = "it's {x,y}";
/** Keys whose field names are longer than PostgreSQL's 63-byte identifiers, alike in their first 63 bytes. */
const LONG = 'a_rather_long_key_name_that_pushes_the_column_alias_past_the_limit';

const DOCS: Array<[number, unknown]> = [
  [1, { user: { name: 'Ada', age: 36, admin: true }, amount: 12.5, at: '2024-01-15T10:00:00Z', tags: { plan: 'pro' }, [ODD]: 'a', [`${LONG}_one`]: 1, [`${LONG}_two`]: 2 }],
  [2, { user: { name: 'Grace', age: 45, admin: false }, amount: 7.25, at: '2024-01-20T08:30:00Z', tags: { plan: 'free' }, [ODD]: 'b' }],
  [3, { user: { name: 'Linus', age: 28, admin: false }, amount: 100, at: '2024-02-03T12:00:00Z', tags: { plan: 'pro' }, [ODD]: 'a' }],
  [4, { user: { name: 'Barbara' }, amount: 3.75, at: '2024-03-01T00:00:00Z' }],
  [5, { user: { name: 'Ken', age: 61, admin: true }, amount: null, at: '2024-03-31T23:59:59Z', tags: { plan: 'pro' } }],
  [6, null],
];

forEachAppDb('nested JSON fields in queries (PostgreSQL)', (server) => {
  let admin: Client;
  let warehouse: { name: string; drop(): Promise<void> };
  let db: number;
  let events: number;
  let others: number;
  const f: Record<string, number> = {};

  const field = (key: string, opts: Record<string, unknown> | null = null) => ['field', f[key], opts];
  const mbql = (inner: Record<string, unknown>) => ({ database: db, type: 'query', query: { 'source-table': events, ...inner } });

  async function run(query: unknown, parameters?: unknown[]): Promise<any> {
    const r = await admin.post('/api/dataset', parameters ? { ...(query as object), parameters } : query);
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.status, 'completed', `${r.body.error}\n${r.body.native_form?.query ?? ''}`);
    return r.body;
  }
  const rows = async (query: unknown, parameters?: unknown[]) => (await run(query, parameters)).data.rows;
  const ids = async (filter: unknown) => (await rows(mbql({ fields: [field('id')], filter, 'order-by': [['asc', field('id')]] }))).map((r: unknown[]) => r[0]);

  before(async () => {
    admin = await setupAdmin(server());
    warehouse = await createPgDatabase('quarry_json');
    const c = new pg.Client({ ...PG, database: warehouse.name });
    await c.connect();
    try {
      await c.query('CREATE TABLE events (id integer PRIMARY KEY, doc jsonb, note text)');
      for (const [id, doc] of DOCS) await c.query('INSERT INTO events VALUES ($1, $2, $3)', [id, doc === null ? null : JSON.stringify(doc), `note ${id}`]);
      await c.query('CREATE TABLE others (id integer PRIMARY KEY, event_id integer, extra json)');
      await c.query(`INSERT INTO others VALUES (1, 1, '{"k": "one"}'), (2, 3, '{"k": "three"}'), (3, 5, '{}')`);
    } finally {
      await c.end();
    }
    const created = await admin.post('/api/database', { engine: 'postgres', name: 'Json', details: { host: PG.host, port: PG.port, dbname: warehouse.name, user: PG.user, ...(PG.password ? { password: PG.password } : {}) } });
    assert.equal(created.status, 200, created.text);
    db = created.body.id;
    await waitForSync(admin, db);
    const metadata = (await admin.get(`/api/database/${db}/metadata`)).body;
    const table = (name: string) => metadata.tables.find((t: any) => t.name === name);
    events = table('events').id;
    others = table('others').id;
    for (const t of [table('events'), table('others')]) {
      for (const x of t.fields) f[`${t.name === 'others' ? 'others.' : ''}${x.nfc_path ? x.nfc_path.join('.') : x.name}`] = x.id;
    }
  });

  // After the server's own `after` has closed it (and its pools): drop the warehouse.
  after(async () => {
    await warehouse?.drop();
  });

  test('sync unfolded the jsonb column into typed nested fields', async () => {
    const fields = (await admin.get(`/api/table/${events}/query_metadata`)).body.fields;
    const byPath = Object.fromEntries(fields.filter((x: any) => x.nfc_path).map((x: any) => [x.nfc_path.join('.'), [x.name, x.display_name, x.base_type]]));
    assert.deepEqual(byPath, {
      'doc.user.name': ['doc → user → name', 'Doc → User → Name', 'type/Text'],
      'doc.user.age': ['doc → user → age', 'Doc → User → Age', 'type/BigInteger'],
      'doc.user.admin': ['doc → user → admin', 'Doc → User → Admin', 'type/Boolean'],
      'doc.amount': ['doc → amount', 'Doc → Amount', 'type/Float'],
      'doc.at': ['doc → at', 'Doc → At', 'type/DateTime'],
      'doc.tags.plan': ['doc → tags → plan', 'Doc → Tags → Plan', 'type/Text'],
      [`doc.${ODD}`]: [`doc → ${ODD}`, "Doc → It's {x,y}", 'type/Text'],
      [`doc.${LONG}_one`]: [`doc → ${LONG}_one`, 'Doc → A Rather Long Key Name That Pushes The Column Alias Past The Limit One', 'type/BigInteger'],
      [`doc.${LONG}_two`]: [`doc → ${LONG}_two`, 'Doc → A Rather Long Key Name That Pushes The Column Alias Past The Limit Two', 'type/BigInteger'],
    });
  });

  test('selecting nested fields: values cast to their types, Metabase names and display names', async () => {
    const body = await run(mbql({
      fields: [field('id'), field('doc.user.name'), field('doc.user.age'), field('doc.user.admin'), field('doc.amount'), field('doc.at'), field('doc.tags.plan'), field(`doc.${ODD}`)],
      'order-by': [['asc', field('id')]],
    }));
    assert.deepEqual(body.data.rows, [
      [1, 'Ada', 36, true, 12.5, '2024-01-15T10:00:00Z', 'pro', 'a'],
      [2, 'Grace', 45, false, 7.25, '2024-01-20T08:30:00Z', 'free', 'b'],
      [3, 'Linus', 28, false, 100, '2024-02-03T12:00:00Z', 'pro', 'a'],
      [4, 'Barbara', null, null, 3.75, '2024-03-01T00:00:00Z', null, null],
      [5, 'Ken', 61, true, null, '2024-03-31T23:59:59Z', 'pro', null],
      [6, null, null, null, null, null, null, null],
    ]);
    const cols = body.data.cols;
    assert.deepEqual(cols.map((c: any) => c.name), ['id', 'doc → user → name', 'doc → user → age', 'doc → user → admin', 'doc → amount', 'doc → at', 'doc → tags → plan', `doc → ${ODD}`]);
    assert.deepEqual(cols.slice(1, 7).map((c: any) => c.display_name), ['Doc → User → Name', 'Doc → User → Age', 'Doc → User → Admin', 'Doc → Amount', 'Doc → At', 'Doc → Tags → Plan']);
    assert.deepEqual(cols.slice(1, 7).map((c: any) => c.base_type), ['type/Text', 'type/BigInteger', 'type/Boolean', 'type/Float', 'type/DateTime', 'type/Text']);
    assert.deepEqual(cols[2].nfc_path, ['doc', 'user', 'age']);
    assert.deepEqual(cols[2].field_ref, ['field', f['doc.user.age'], null]);
    assert.equal(cols[2].id, f['doc.user.age']);
    assert.equal(cols[5].unit, 'default');
    // The SQL that runs binds the path as one text[] value (once, however often the column appears) …
    const prepared = await prepareQuery(server().ctx, { query: mbql({ aggregation: [['count']], breakout: [field(`doc.${ODD}`)] }), caller: null, skipPermissionCheck: true, context: 'ad-hoc' });
    const x = '("public"."events"."doc" #>> $1::text[])';
    assert.equal(prepared.sql, `SELECT ${x} AS "doc → it's {x,y}", COUNT(*) AS "count" FROM "public"."events" GROUP BY ${x} ORDER BY ${x} ASC NULLS FIRST LIMIT 10000`);
    assert.deepEqual(prepared.params, [[ODD]]);
    // … and the SQL shown writes it as an escaped literal.
    assert.match(body.data.native_form.query, /CAST\(\("public"\."events"\."doc" #>> ARRAY\['user', 'age'\]::text\[\]\) AS BIGINT\) AS "doc → user → age"/);
  });

  test('the table’s default fields include its nested fields', async () => {
    const body = await run(mbql({ 'order-by': [['asc', field('id')]], limit: 1 }));
    const row = Object.fromEntries(body.data.cols.map((c: any, i: number) => [c.name, body.data.rows[0][i]]));
    assert.equal(row.id, 1);
    assert.equal(row['doc → user → name'], 'Ada');
    assert.equal(row['doc → amount'], 12.5);
    assert.equal(row.note, 'note 1');
  });

  test('filters on nested fields: =, >, contains, is-null, boolean, between, temporal', async () => {
    assert.deepEqual(await ids(['=', field('doc.user.name'), 'Grace', 'Ken']), [2, 5]);
    assert.deepEqual(await ids(['>', field('doc.user.age'), 40]), [2, 5]);
    assert.deepEqual(await ids(['contains', field('doc.tags.plan'), 'PR', { 'case-sensitive': false }]), [1, 3, 5]);
    assert.deepEqual(await ids(['contains', field('doc.tags.plan'), 'PR']), []);
    assert.deepEqual(await ids(['is-null', field('doc.user.age')]), [4, 6]);
    assert.deepEqual(await ids(['not-null', field('doc.amount')]), [1, 2, 3, 4]);
    assert.deepEqual(await ids(['=', field('doc.user.admin'), true]), [1, 5]);
    assert.deepEqual(await ids(['between', field('doc.amount'), 5, 20]), [1, 2]);
    assert.deepEqual(await ids(['=', field(`doc.${ODD}`), 'a']), [1, 3]);
    assert.deepEqual(await ids(['=', field('doc.at', { 'temporal-unit': 'month' }), '2024-03-01']), [4, 5]);
    assert.deepEqual(await ids(['<', field('doc.at'), '2024-01-20T08:30:00']), [1]);
    assert.deepEqual(await ids(['and', ['starts-with', field('doc.user.name'), 'B'], ['is-null', field('doc.tags.plan')]]), [4]);
  });

  test('breakout with count, ordered by the count; aggregations of nested fields', async () => {
    assert.deepEqual(await rows(mbql({ aggregation: [['count']], breakout: [field('doc.tags.plan')] })), [[null, 2], ['free', 1], ['pro', 3]]);
    assert.deepEqual(await rows(mbql({ aggregation: [['count']], breakout: [field('doc.tags.plan')], 'order-by': [['desc', ['aggregation', 0]]] })), [['pro', 3], [null, 2], ['free', 1]]);
    const body = await run(mbql({
      aggregation: [['sum', field('doc.amount')], ['avg', field('doc.user.age')], ['max', field('doc.at')], ['distinct', field('doc.tags.plan')], ['count-where', ['>', field('doc.user.age'), 30]]],
    }));
    assert.deepEqual(body.data.rows, [[123.5, 42.5, '2024-03-31T23:59:59Z', 2, 3]]);
    assert.deepEqual(body.data.cols.map((c: any) => c.display_name), ['Sum of Doc → Amount', 'Average of Doc → User → Age', 'Max of Doc → At', 'Distinct values of Doc → Tags → Plan', 'Count of rows matching condition']);
    // sum per plan, ordered by the nested breakout descending
    assert.deepEqual(await rows(mbql({ aggregation: [['sum', field('doc.user.age')]], breakout: [field('doc.tags.plan')], 'order-by': [['desc', field('doc.tags.plan')]] })), [['pro', 125], ['free', 45], [null, null]]);
  });

  test('temporal bucketing of a nested timestamp', async () => {
    const body = await run(mbql({ aggregation: [['count']], breakout: [field('doc.at', { 'temporal-unit': 'month' })] }));
    assert.deepEqual(body.data.rows, [[null, 1], ['2024-01-01T00:00:00Z', 2], ['2024-02-01T00:00:00Z', 1], ['2024-03-01T00:00:00Z', 2]]);
    assert.equal(body.data.cols[0].display_name, 'Doc → At: Month');
    assert.equal(body.data.cols[0].name, 'doc → at');
    assert.equal(body.data.cols[0].unit, 'month');
    // without a unit a datetime breakout is bucketed by day
    const byDay = await run(mbql({ aggregation: [['count']], breakout: [field('doc.at')], filter: ['not-null', field('doc.at')] }));
    assert.deepEqual(byDay.data.rows.map((r: unknown[]) => r[0]), ['2024-01-15T00:00:00Z', '2024-01-20T00:00:00Z', '2024-02-03T00:00:00Z', '2024-03-01T00:00:00Z', '2024-03-31T00:00:00Z']);
    assert.equal(byDay.data.cols[0].unit, 'day');
    assert.deepEqual(await rows(mbql({ aggregation: [['count']], breakout: [field('doc.at', { 'temporal-unit': 'day-of-week' })], filter: ['not-null', field('doc.at')] })), [[1, 1], [2, 1], [6, 1], [7, 2]]);
    assert.deepEqual(await rows(mbql({ aggregation: [['count']], breakout: [field('doc.at', { 'temporal-unit': 'quarter' })] })), [[null, 1], ['2024-01-01T00:00:00Z', 5]]);
  });

  test('nested stages, saved questions and joins read nested fields', async () => {
    const nested = await rows({
      database: db,
      type: 'query',
      query: {
        'source-query': { 'source-table': events, aggregation: [['count']], breakout: [field('doc.tags.plan'), field('doc.at', { 'temporal-unit': 'month' })] },
        filter: ['=', field('doc.tags.plan'), 'pro'],
        'order-by': [['asc', field('doc.at', { 'temporal-unit': 'month' })]],
      },
    });
    assert.deepEqual(nested, [['pro', '2024-01-01T00:00:00Z', 1], ['pro', '2024-02-01T00:00:00Z', 1], ['pro', '2024-03-01T00:00:00Z', 1]]);
    const card = await admin.post('/api/card', { name: uniqueName('Nested'), display: 'table', visualization_settings: {}, dataset_query: mbql({ fields: [field('id'), field('doc.user.name'), field('doc.user.age')] }) });
    assert.equal(card.status, 200, card.text);
    const fromCard = await rows({ database: db, type: 'query', query: { 'source-table': `card__${card.body.id}`, filter: ['>=', field('doc.user.age'), 36], 'order-by': [['asc', field('doc.user.name')]] } });
    assert.deepEqual(fromCard, [[1, 'Ada', 36], [2, 'Grace', 45], [5, 'Ken', 61]]);
    const joined = await run({
      database: db,
      type: 'query',
      query: {
        'source-table': others,
        joins: [{ 'source-table': events, alias: 'E', condition: ['=', ['field', f['others.event_id'], null], ['field', f.id, { 'join-alias': 'E' }]], fields: [['field', f['doc.user.name'], { 'join-alias': 'E' }]] }],
        fields: [['field', f['others.id'], null], ['field', f['others.extra.k'], null]],
        'order-by': [['asc', ['field', f['others.id'], null]]],
      },
    });
    assert.deepEqual(joined.data.rows, [[1, 'one', 'Ada'], [2, 'three', 'Linus'], [3, null, 'Ken']]);
    assert.deepEqual(joined.data.cols.map((c: any) => c.display_name), ['ID', 'Extra → K', 'E → Doc → User → Name']);
  });

  test('field names longer than PostgreSQL identifiers stay apart through nested stages', async () => {
    const long = (n: string) => field(`doc.${LONG}_${n}`);
    const body = await run({
      database: db,
      type: 'query',
      query: {
        'source-query': { 'source-table': events, fields: [field('id'), long('one'), long('two')] },
        fields: [long('two'), long('one')],
        filter: ['not-null', long('one')],
        'order-by': [['asc', long('two')]],
      },
    });
    assert.deepEqual(body.data.rows, [[2, 1]]);
    assert.deepEqual(body.data.cols.map((c: any) => c.name), [`doc → ${LONG}_two`, `doc → ${LONG}_one`]);
    // In the SQL, the long aliases are cut to 63 bytes with a hash of the whole name (the same at each use).
    const quoted = [...body.data.native_form.query.matchAll(/"((?:[^"]|"")*)"/g)].map((m: RegExpMatchArray) => m[1]);
    assert.ok(quoted.every((q: string) => Buffer.byteLength(q) <= 63), quoted.join('\n'));
    const aliases = new Set(quoted.filter((q: string) => q.startsWith('doc → a_rather')));
    assert.equal(aliases.size, 2);
    for (const a of aliases) assert.match(a, /^doc → a_rather_long_key_name_that_pushes_the_column__[0-9a-f]{8}$/);
    const summed = await rows({ database: db, type: 'query', query: { 'source-table': events, aggregation: [['cum-sum', long('two')], ['cum-sum', long('one')]], breakout: [field('id')], filter: ['<', field('id'), 3] } });
    assert.deepEqual(summed, [[1, 2, 1], [2, 2, 1]]);
  });

  test('/api/dataset/native shows the path as an escaped literal, and that SQL runs with the same answer', async () => {
    const query = mbql({ aggregation: [['count']], breakout: [field(`doc.${ODD}`), field('doc.at', { 'temporal-unit': 'month' })], filter: ['>', field('doc.amount'), 5] });
    const shown = await admin.post('/api/dataset/native', query);
    assert.equal(shown.status, 200, shown.text);
    assert.match(shown.body.query, /#>> ARRAY\['it''s \{x,y\}'\]::text\[\]/);
    assert.match(shown.body.query, /CAST\(\("public"\."events"\."doc" #>> ARRAY\['amount'\]::text\[\]\) AS NUMERIC\)/);
    const expected = [['a', '2024-01-01T00:00:00Z', 1], ['a', '2024-02-01T00:00:00Z', 1], ['b', '2024-01-01T00:00:00Z', 1]];
    assert.deepEqual(await rows(query), expected);
    assert.deepEqual(await rows({ database: db, type: 'native', native: { query: shown.body.query } }), expected);
  });

  test('native field filters on nested fields', async () => {
    const native = (tags: Record<string, unknown>, sql: string) => ({ database: db, type: 'native', native: { query: sql, 'template-tags': tags } });
    const tag = (name: string, key: string, widget: string) => ({ [name]: { id: `t-${name}`, name, 'display-name': name, type: 'dimension', dimension: field(key), 'widget-type': widget } });
    const plan = native(tag('plan', 'doc.tags.plan', 'string/='), 'SELECT id FROM events WHERE {{plan}} ORDER BY id');
    assert.deepEqual(await rows(plan, [{ type: 'string/=', value: ['pro'], target: ['dimension', ['template-tag', 'plan']] }]), [[1], [3], [5]]);
    const age = native(tag('age', 'doc.user.age', 'number/>='), 'SELECT e.id FROM events e WHERE {{age}} ORDER BY e.id');
    (age.native['template-tags'] as any).age.alias = 'e';
    assert.deepEqual(await rows(age, [{ type: 'number/>=', value: [45], target: ['dimension', ['template-tag', 'age']] }]), [[2], [5]]);
    const at = native(tag('at', 'doc.at', 'date/month-year'), 'SELECT id FROM events WHERE {{at}} ORDER BY id');
    assert.deepEqual(await rows(at, [{ type: 'date/month-year', value: '2024-01', target: ['dimension', ['template-tag', 'at']] }]), [[1], [2]]);
    // without a value the filter is left out
    assert.equal((await rows(plan)).length, 6);
  });

  test('dashboard parameters on nested fields: the card filtered, filter values and chain filters', async () => {
    const card = await admin.post('/api/card', { name: uniqueName('Events'), display: 'table', visualization_settings: {}, dataset_query: mbql({ fields: [field('id')], 'order-by': [['asc', field('id')]] }) });
    assert.equal(card.status, 200, card.text);
    const dashboard = await createDashboard(admin, {
      parameters: [
        { id: 'plan', name: 'Plan', slug: 'plan', type: 'string/=', sectionId: 'string' },
        { id: 'name', name: 'Name', slug: 'name', type: 'string/=', sectionId: 'string' },
        { id: 'age', name: 'Age', slug: 'age', type: 'number/=', sectionId: 'number' },
      ],
    });
    const m = (id: string, key: string) => ({ parameter_id: id, card_id: card.body.id, target: ['dimension', field(key)] });
    const layout = await putLayout(admin, dashboard.id, [newDashcard(-1, card.body.id, { parameter_mappings: [m('plan', 'doc.tags.plan'), m('name', 'doc.user.name'), m('age', 'doc.user.age')] })]);
    const dashcard = (layout.dashcards ?? (await admin.get(`/api/dashboard/${dashboard.id}`)).body.dashcards)[0];
    const filtered = await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dashcard.id}/card/${card.body.id}/query`, {
      parameters: [{ id: 'plan', type: 'string/=', value: ['pro'], target: ['dimension', field('doc.tags.plan')] }, { id: 'age', type: 'number/=', value: [61], target: ['dimension', field('doc.user.age')] }],
    });
    assert.equal(filtered.body.status, 'completed', filtered.text);
    assert.deepEqual(filtered.body.data.rows, [[5]]);

    const values = async (key: string, query: Record<string, string> = {}, search?: string) => {
      const r = await admin.get(`/api/dashboard/${dashboard.id}/params/${key}/${search === undefined ? 'values' : `search/${encodeURIComponent(search)}`}`, { query });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    assert.deepEqual(await values('plan'), { values: [['free'], ['pro']], has_more_values: false });
    assert.deepEqual((await values('name')).values, [['Ada'], ['Barbara'], ['Grace'], ['Ken'], ['Linus']]);
    assert.deepEqual((await values('age')).values, [[28], [36], [45], [61]]);
    // chain filters: names narrowed by the plan, plans by the name, ages by the plan
    assert.deepEqual((await values('name', { plan: 'pro' })).values, [['Ada'], ['Ken'], ['Linus']]);
    assert.deepEqual((await values('plan', { name: 'Grace' })).values, [['free']]);
    assert.deepEqual((await values('age', { plan: 'free' })).values, [[45]]);
    // search
    assert.deepEqual((await values('name', {}, 'a')).values, [['Ada'], ['Barbara'], ['Grace']]);
    assert.deepEqual((await values('age', { plan: 'pro' }, '6')).values, [[36], [61]]);

    // /api/dataset/parameter/values and search for the fields themselves
    const p = await admin.post('/api/dataset/parameter/values', { parameter: { id: 'p', type: 'category' }, field_ids: [f['doc.tags.plan']] });
    assert.equal(p.status, 200, p.text);
    assert.deepEqual(p.body, { values: [['free'], ['pro']], has_more_values: false });
    const s = await admin.post('/api/dataset/parameter/search/KE', { parameter: { id: 'p', type: 'category' }, field_ids: [f['doc.user.name']] });
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(s.body.values, [['Ken']]);
  });

  test('an engine without nested-field-columns fails with unsupported-feature, not an SQL error', async () => {
    const sample = await installSample(admin);
    const id = sample.field('PEOPLE', 'NAME');
    assert.equal((await admin.put(`/api/field/${id}`, { nfc_path: ['NAME', 'first'] })).status, 200);
    const r = await admin.post('/api/dataset', { database: sample.id, type: 'query', query: { 'source-table': sample.table('PEOPLE'), fields: [['field', id, null]], limit: 1 } });
    assert.equal(r.body.status, 'failed');
    assert.equal(r.body.error_type, 'unsupported-feature');
    assert.match(r.body.error, /nested inside a JSON column.*sqlite/);
    const breakout = await admin.post('/api/dataset', { database: sample.id, type: 'query', query: { 'source-table': sample.table('PEOPLE'), aggregation: [['count']], breakout: [['field', id, null]] } });
    assert.equal(breakout.body.error_type, 'unsupported-feature');
    assert.equal((await admin.put(`/api/field/${id}`, { nfc_path: null })).status, 200);
  });
});
