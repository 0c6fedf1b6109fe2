// Injection attempts through every value position (filter values, expression literals, template tags, field-filter
// and MBQL parameters) and every identifier a request can name (expression names, aggregation names, join aliases,
// column names of nested queries) are inert on all four engines: values are bound parameters (never in the SQL
// text), identifiers are quoted, and the displayed SQL of /api/dataset/native escapes literals so that running it
// gives the same answer.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleWarehouseServer, ENGINES, type Warehouse } from './helpers/warehouses.js';
import { prepareQuery } from '../../src/query/pipeline.js';
import { q } from './helpers/native-cases.js';

const PAYLOADS = [
  "' OR 1=1 --",
  "Widget'; DROP TABLE \"PRODUCTS\"; --",
  "Widget`; DROP TABLE `PRODUCTS`; --",
  "\\' OR 1=1 -- ",
  '" OR ""="',
  '$1 OR 1=1',
  "? OR '1'='1",
  '{{x}} [[ ]] */ /*',
  "x'); DELETE FROM \"ORDERS\"; --",
  "\\'; SELECT pg_sleep(10); --",
];

describe('injection attempts are inert', () => {
  const env = sampleWarehouseServer();

  async function count(w: Warehouse, query: Record<string, unknown>): Promise<unknown> {
    const r = await env.admin.post('/api/dataset', query);
    assert.equal(r.status, 202);
    assert.equal(r.body.status, 'completed', `${w.engine}: ${r.body.error}`);
    return r.body.data.rows[0][0];
  }

  async function tablesIntact() {
    for (const e of ENGINES) {
      const w = env.wh[e];
      assert.equal(await count(w, w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']] })), 200, `${e} PRODUCTS intact`);
      assert.equal(await count(w, w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']] })), 18760, `${e} ORDERS intact`);
    }
  }

  /** Values never appear in the SQL that runs; they are among its bound parameters. */
  async function assertBound(query: Record<string, unknown>, payload: string) {
    const prepared = await prepareQuery(env.server.ctx, { query, caller: null, context: 'ad-hoc', skipPermissionCheck: true });
    assert.ok(!prepared.sql.includes(payload), `payload in SQL: ${prepared.sql}`);
    assert.ok(prepared.params.some((p) => typeof p === 'string' && p.includes(payload)), 'payload is a bound value');
  }

  const filterPositions: Array<[string, (w: Warehouse, p: string) => unknown]> = [
    ['=', (w, p) => ['=', w.f('PRODUCTS', 'CATEGORY'), p]],
    ['!= (negated: all rows)', (w, p) => ['not', ['!=', w.f('PRODUCTS', 'CATEGORY'), p]]],
    ['contains', (w, p) => ['contains', w.f('PRODUCTS', 'TITLE'), p]],
    ['contains case-insensitive', (w, p) => ['contains', w.f('PRODUCTS', 'TITLE'), p, { 'case-sensitive': false }]],
    ['starts-with', (w, p) => ['starts-with', w.f('PRODUCTS', 'TITLE'), p]],
    ['ends-with', (w, p) => ['ends-with', w.f('PRODUCTS', 'TITLE'), p, { 'case-sensitive': false }]],
    ['does-not-contain (negated)', (w, p) => ['not', ['does-not-contain', w.f('PRODUCTS', 'TITLE'), p]]],
    ['between strings', (w, p) => ['between', w.f('PRODUCTS', 'VENDOR'), p, p]],
    ['expression literal', (w, p) => ['=', ['concat', w.f('PRODUCTS', 'CATEGORY'), p], 'nothing']],
    ['replace arguments', (w, p) => ['=', ['replace', w.f('PRODUCTS', 'CATEGORY'), p, p], p]],
    ['coalesce default', (w, p) => ['=', ['coalesce', w.f('PRODUCTS', 'VENDOR'), p], p]],
    ['case value', (w, p) => ['=', ['case', [[['>', w.f('PRODUCTS', 'PRICE'), 1000], p]], { default: p }], 'nothing']],
  ];

  for (const [position, build] of filterPositions) {
    test(`MBQL value position: ${position}`, async () => {
      for (const e of ENGINES) {
        const w = env.wh[e];
        for (const p of PAYLOADS) {
          const query = w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: build(w, p) });
          assert.equal(await count(w, query), 0, `${e} ${JSON.stringify(p)}`);
        }
        await assertBound(w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: build(w, PAYLOADS[1]) }), PAYLOADS[1]);
      }
      await tablesIntact();
    });
  }

  test('displayed SQL escapes literals: running it gives the same answer', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      // (A literal holding `{{x}}` would be read as a template tag when the SQL is run as a native query, as in
      // Metabase; that payload is covered everywhere else.)
      for (const p of PAYLOADS.filter((x) => !x.includes('{{'))) {
        const query = w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['or', ['=', w.f('PRODUCTS', 'CATEGORY'), p], ['contains', w.f('PRODUCTS', 'TITLE'), p]] });
        const sql = (await env.admin.post('/api/dataset/native', { ...query, pretty: false })).body.query as string;
        assert.equal(await count(w, w.native(sql)), 0, `${e}: ${sql}`);
      }
    }
    await tablesIntact();
  });

  test('identifiers a request names are quoted: expression, aggregation and join names, nested column names', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      for (const p of PAYLOADS) {
        const r = await env.admin.post('/api/dataset', w.mbql({
          'source-query': {
            'source-table': w.t('PRODUCTS'),
            expressions: { [p]: ['*', w.f('PRODUCTS', 'PRICE'), 2] },
            joins: [{ 'source-table': w.t('PRODUCTS'), alias: p, fields: 'none', condition: ['=', w.f('PRODUCTS', 'ID'), w.f('PRODUCTS', 'ID', { 'join-alias': p })] }],
            aggregation: [['aggregation-options', ['sum', ['expression', p]], { name: p }]],
            breakout: [w.f('PRODUCTS', 'CATEGORY', { 'join-alias': p })],
          },
          aggregation: [['sum', ['field', p, { 'base-type': 'type/Float' }]]],
        }));
        assert.equal(r.body.status, 'completed', `${e} ${p}: ${r.body.error}`);
        assert.ok((r.body.data.rows[0][0] as number) > 0);
      }
    }
    await tablesIntact();
  });

  test('template tags: text, number, date and field-filter values are bound or refused', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      for (const p of PAYLOADS) {
        const text = w.native(q(w, 'SELECT COUNT(*) FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}'), { cat: { name: 'cat', type: 'text' } }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 'cat']], value: p }] });
        assert.equal(await count(w, text), 0, `${e} text ${p}`);
        const list = w.native(q(w, 'SELECT COUNT(*) FROM "PRODUCTS" WHERE "CATEGORY" IN ({{cat}})'), { cat: { name: 'cat', type: 'text' } }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 'cat']], value: [p, 'x'] }] });
        assert.equal(await count(w, list), 0, `${e} text list ${p}`);
        for (const widget of ['string/=', 'string/contains', 'string/starts-with', 'category']) {
          const ff = w.native(q(w, 'SELECT COUNT(*) FROM "PRODUCTS" WHERE {{f}}'), { f: { name: 'f', type: 'dimension', dimension: w.f('PRODUCTS', 'TITLE'), 'widget-type': widget } }, { parameters: [{ type: widget, target: ['dimension', ['template-tag', 'f']], value: [p] }] });
          assert.equal(await count(w, ff), 0, `${e} ${widget} ${p}`);
        }
        const number = await env.admin.post('/api/dataset', w.native(q(w, 'SELECT COUNT(*) FROM "ORDERS" WHERE "QUANTITY" > {{n}}'), { n: { name: 'n', type: 'number' } }, { parameters: [{ type: 'number/=', target: ['variable', ['template-tag', 'n']], value: p }] }));
        assert.equal(number.body.status, 'failed');
        assert.equal(number.body.error_type, 'invalid-parameter');
        const date = await env.admin.post('/api/dataset', w.native(q(w, 'SELECT COUNT(*) FROM "ORDERS" WHERE "CREATED_AT" > {{d}}'), { d: { name: 'd', type: 'date' } }, { parameters: [{ type: 'date/single', target: ['variable', ['template-tag', 'd']], value: p }] }));
        assert.equal(date.body.status, 'failed');
        const dateFilter = await env.admin.post('/api/dataset', w.native(q(w, 'SELECT COUNT(*) FROM "ORDERS" WHERE {{d}}'), { d: { name: 'd', type: 'dimension', dimension: w.f('ORDERS', 'CREATED_AT'), 'widget-type': 'date/all-options' } }, { parameters: [{ type: 'date/all-options', target: ['dimension', ['template-tag', 'd']], value: p }] }));
        assert.equal(dateFilter.body.error_type, 'invalid-parameter');
      }
      const tagged = w.native(q(w, 'SELECT COUNT(*) FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}'), { cat: { name: 'cat', type: 'text' } }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 'cat']], value: PAYLOADS[1] }] });
      await assertBound(tagged, PAYLOADS[1]);
    }
    await tablesIntact();
  });

  test('MBQL parameters (dashboard filters) are bound', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      for (const p of PAYLOADS) {
        for (const type of ['category', 'string/contains', 'string/!=']) {
          const query = w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']] }, { parameters: [{ type, target: ['dimension', w.f('PRODUCTS', 'VENDOR')], value: [p] }] });
          const n = await count(w, query);
          assert.equal(n, type === 'string/!=' ? 200 : 0, `${e} ${type} ${p}`);
        }
      }
    }
    await tablesIntact();
  });
});
