// The pure stages, without a server: normalization of every legacy spelling (reference §5.9) and of MBQL 5,
// validation messages, the date-parameter grammar (§6.3), parameter → filter mapping (§6.4), the template parser,
// pivot levels and the fair queue.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeQuery, normalizeClause, simplifyFilter } from '../../src/query/mbql/normalize.js';
import { validateQuery } from '../../src/query/mbql/validate.js';
import { dateParameterFilter } from '../../src/query/parameters/dates.js';
import { parameterFilter, templateTagValues } from '../../src/query/parameters/apply.js';
import { parseTemplate, cardIdOf, snippetNameOf } from '../../src/query/native/template.js';
import { pivotLevels, groupingBitmask } from '../../src/query/pivot.js';
import { FairQueue } from '../../src/query/execute/queue.js';
import { QueryError } from '../../src/query/errors.js';
import { JavaRandom } from '../../src/query/results/insights.js';
import { relativeWindow, makeClock, unitWindow, parseTemporalLiteral, isoLocal } from '../../src/query/compile/temporal-values.js';
import { TemporalFormatter } from '../../src/query/results/values.js';
import { resolveBinning } from '../../src/query/compile/binning.js';

const inner = (query: Record<string, unknown>) => normalizeQuery({ database: 1, type: 'query', query }).query!;

describe('normalize: legacy MBQL spellings', () => {
  test('field-id, bare ids, field-literal, fk->, joined-field, datetime-field, binning-strategy', () => {
    assert.deepEqual(normalizeClause(['field-id', 10]), ['field', 10, null]);
    assert.deepEqual(normalizeClause(['field-literal', 'NAME', 'type/Text']), ['field', 'NAME', { 'base-type': 'type/Text' }]);
    assert.deepEqual(normalizeClause(['fk->', ['field-id', 1], ['field-id', 2]]), ['field', 2, { 'source-field': 1 }]);
    assert.deepEqual(normalizeClause(['joined-field', 'P', ['field-id', 3]]), ['field', 3, { 'join-alias': 'P' }]);
    assert.deepEqual(normalizeClause(['datetime-field', ['field-id', 4], 'MONTH']), ['field', 4, { 'temporal-unit': 'month' }]);
    assert.deepEqual(normalizeClause(['datetime-field', ['field-id', 4], 'as', 'day_of_week']), ['field', 4, { 'temporal-unit': 'day-of-week' }]);
    assert.deepEqual(normalizeClause(['binning-strategy', ['field-id', 5], 'num-bins', 10]), ['field', 5, { binning: { strategy: 'num-bins', 'num-bins': 10 } }]);
    assert.deepEqual(normalizeClause(['field', ['field', 1, { 'temporal-unit': 'day' }], { 'join-alias': 'J' }]), ['field', 1, { 'temporal-unit': 'day', 'join-alias': 'J' }]);
    assert.deepEqual(normalizeClause(['field', 1, {}]), ['field', 1, null]);
    assert.deepEqual(normalizeClause(['FIELD', 1, { temporal_unit: 'YEAR' }]), ['field', 1, { 'temporal-unit': 'year' }]);
  });

  test('bare integers where a field is expected', () => {
    const q = inner({ source_table: 1, breakout: [2], fields: [3], order_by: [['asc', 4]], filter: ['=', 5, 'x'], aggregation: [['sum', 6]] });
    assert.deepEqual(q.breakout, [['field', 2, null]]);
    assert.deepEqual(q.fields, [['field', 3, null]]);
    assert.deepEqual(q['order-by'], [['asc', ['field', 4, null]]]);
    assert.deepEqual(q.filter, ['=', ['field', 5, null], 'x']);
    assert.deepEqual(q.aggregation, [['sum', ['field', 6, null]]]);
  });

  test('aggregation forms', () => {
    assert.deepEqual(inner({ 'source-table': 1, aggregation: 'count' }).aggregation, [['count']]);
    assert.deepEqual(inner({ 'source-table': 1, aggregation: ['COUNT'] }).aggregation, [['count']]);
    assert.deepEqual(inner({ 'source-table': 1, aggregation: [['count'], ['SUM', 3]] }).aggregation, [['count'], ['sum', ['field', 3, null]]]);
    assert.equal(inner({ 'source-table': 1, aggregation: ['rows'] }).aggregation, undefined);
    assert.deepEqual(normalizeClause(['named', ['count'], 'Orders']), ['aggregation-options', ['count'], { 'display-name': 'Orders' }]);
    assert.deepEqual(normalizeClause(['named', ['count'], 'n', { 'use-as-display-name?': false }]), ['aggregation-options', ['count'], { name: 'n' }]);
    assert.deepEqual(normalizeClause(['aggregate-field', 0]), ['aggregation', 0]);
  });

  test('order-by forms', () => {
    assert.deepEqual(inner({ 'source-table': 1, 'order-by': [[['field-id', 1], 'ascending'], ['descending', 2]] })['order-by'], [['asc', ['field', 1, null]], ['desc', ['field', 2, null]]]);
  });

  test('filters: names, time-interval unit stripping, simplification, substring 0', () => {
    assert.deepEqual(normalizeClause(['IS_NULL', 3]), ['is-null', ['field', 3, null]]);
    assert.deepEqual(normalizeClause(['STARTS_WITH', ['field-id', 3], 'a', { case_sensitive: false }]), ['starts-with', ['field', 3, null], 'a', { 'case-sensitive': false }]);
    assert.deepEqual(normalizeClause(['time-interval', ['field', 3, { 'temporal-unit': 'month' }], 'CURRENT', 'DAY']), ['time-interval', ['field', 3, null], 'current', 'day']);
    assert.deepEqual(simplifyFilter(['and', ['and', ['=', 1, 2], ['=', 1, 2]], ['and', ['=', 3, 4]]]), ['and', ['=', 1, 2], ['=', 3, 4]]);
    assert.deepEqual(simplifyFilter(['and', ['=', 1, 2]]), ['=', 1, 2]);
    assert.deepEqual(simplifyFilter(['not', ['not', ['=', 1, 2]]]), ['=', 1, 2]);
    assert.deepEqual(normalizeClause(['substring', ['field', 1, null], 0, 2]), ['substring', ['field', 1, null], 1, 2]);
  });

  test('values, template-tag and expression names are left alone', () => {
    const q = inner({ 'source-table': 1, expressions: { 'My_Expr NAME': ['+', 1, 2] }, filter: ['=', ['field', 1, null], 'SOME_VALUE'] });
    assert.deepEqual(Object.keys(q.expressions!), ['My_Expr NAME']);
    assert.deepEqual(q.filter, ['=', ['field', 1, null], 'SOME_VALUE']);
    const n = normalizeQuery({ database: 1, type: 'NATIVE', native: { query: 'x', template_tags: { My_Tag: { name: 'My_Tag', type: 'DIMENSION', dimension: ['field-id', 5], widget_type: 'string/=' } } } });
    assert.equal(n.type, 'native');
    assert.deepEqual(n.native!['template-tags']!.My_Tag, { name: 'My_Tag', type: 'dimension', dimension: ['field', 5, null], 'widget-type': 'string/=' });
  });

  test('breakout fields are removed from fields; empty clauses dropped', () => {
    const q = inner({ 'source-table': 1, breakout: [['field', 1, null]], fields: [['field', 1, null], ['field', 2, null]], filter: null, joins: [], 'order-by': [] });
    assert.deepEqual(q.fields, [['field', 2, null]]);
    assert.equal('filter' in q, false);
    assert.equal('joins' in q, false);
    assert.equal('order-by' in q, false);
  });
});

describe('normalize: MBQL 5', () => {
  test('stages, options maps, uuids, filters, expressions and source-card', () => {
    const q = normalizeQuery({
      'lib/type': 'mbql/query',
      database: 1,
      stages: [
        {
          'lib/type': 'mbql.stage/mbql',
          'source-card': 12,
          expressions: [['+', { 'lib/uuid': 'e', 'lib/expression-name': 'Total' }, ['field', { 'lib/uuid': 'f' }, 3], 1]],
          aggregation: [['count', { 'lib/uuid': 'a', name: 'n' }]],
          breakout: [['field', { 'lib/uuid': 'b', 'temporal-unit': 'month', 'base-type': 'type/DateTime' }, 4]],
          filters: [['>', { 'lib/uuid': 'x' }, ['field', { 'lib/uuid': 'y' }, 3], 5], ['not-null', { 'lib/uuid': 'z' }, ['field', { 'lib/uuid': 'w' }, 6]]],
          'order-by': [['desc', { 'lib/uuid': 'o' }, ['aggregation', { 'lib/uuid': 'r' }, 'a']]],
          joins: [{ 'lib/type': 'mbql/join', alias: 'P', strategy: 'inner-join', stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': 9 }], conditions: [['=', { 'lib/uuid': 'c' }, ['field', { 'lib/uuid': 'd' }, 7], ['field', { 'lib/uuid': 'g', 'join-alias': 'P' }, 8]]], fields: 'all' }],
        },
        { 'lib/type': 'mbql.stage/mbql', limit: 10 },
      ],
    });
    assert.equal(q.type, 'query');
    const outer = q.query!;
    assert.equal(outer.limit, 10);
    const s0 = outer['source-query'] as Record<string, any>;
    assert.equal(s0['source-table'], 'card__12');
    assert.deepEqual(s0.expressions, { Total: ['+', ['field', 3, null], 1] });
    assert.deepEqual(s0.aggregation, [['aggregation-options', ['count'], { name: 'n' }]]);
    assert.deepEqual(s0.breakout, [['field', 4, { 'temporal-unit': 'month', 'base-type': 'type/DateTime' }]]);
    assert.deepEqual(s0.filter, ['and', ['>', ['field', 3, null], 5], ['not-null', ['field', 6, null]]]);
    assert.deepEqual(s0['order-by'], [['desc', ['aggregation', 0]]]);
    assert.deepEqual(s0.joins, [{ 'source-table': 9, alias: 'P', strategy: 'inner-join', fields: 'all', condition: ['=', ['field', 7, null], ['field', 8, { 'join-alias': 'P' }]] }]);
  });

  test('a native stage', () => {
    const q = normalizeQuery({ 'lib/type': 'mbql/query', database: 2, stages: [{ 'lib/type': 'mbql.stage/native', native: 'SELECT 1', 'template-tags': {} }] });
    assert.equal(q.type, 'native');
    assert.equal(q.native!.query, 'SELECT 1');
  });
});

describe('validate', () => {
  const invalid = (query: Record<string, unknown>, message: RegExp) => {
    assert.throws(() => validateQuery(normalizeQuery(query)), (e: unknown) => e instanceof QueryError && e.type === 'invalid-query' && message.test(e.message));
  };
  test('messages name what is wrong', () => {
    invalid({ type: 'query', query: { 'source-table': 1 } }, /`database` is required/);
    invalid({ database: 1, type: 'query', query: {} }, /source-table and source-query/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 'card_5' } }, /card__<id>/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1, aggregation: [['nope', 1]] } }, /unknown clause "nope"/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1, filter: ['between', 1, 2] } }, /"between" takes 3 arguments/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1, breakout: [['field', 1, { 'temporal-unit': 'fortnight' }]] } }, /unknown temporal-unit "fortnight"/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1, fields: [['field', 'NAME', null]] } }, /needs a base-type/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1, limit: -1 } }, /limit/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1, page: { page: 0, items: 5 } } }, /page/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1, joins: [{ 'source-table': 2, alias: 'A', condition: ['=', 1, 2] }, { 'source-table': 3, alias: 'A', condition: ['=', 1, 2] }] } }, /alias "A" is used twice/);
    invalid({ database: 1, type: 'native', native: { query: 'x', 'template-tags': { t: { name: 't', type: 'dimension' } } } }, /needs a "dimension"/);
    invalid({ database: 1, type: 'query', query: { 'source-table': 1 }, constraints: { 'max-results': 5, 'max-results-bare-rows': 10 } }, /max-results-bare-rows/);
  });
});

describe('date parameters (§6.3)', () => {
  const f = ['field', 9, null] as ['field', number, null];
  const mf = (v: string) => dateParameterFilter(f, v, 'sunday');
  test('relative', () => {
    assert.deepEqual(mf('today'), ['time-interval', f, 'current', 'day']);
    assert.deepEqual(mf('yesterday'), ['time-interval', f, -1, 'day']);
    assert.deepEqual(mf('past30days'), ['time-interval', f, -30, 'day']);
    assert.deepEqual(mf('past3months~'), ['time-interval', f, -3, 'month', { 'include-current': true }]);
    assert.deepEqual(mf('next2quarters'), ['time-interval', f, 2, 'quarter']);
    assert.deepEqual(mf('past4weeks-from-2years'), ['relative-time-interval', f, -4, 'week', -2, 'year']);
    assert.deepEqual(mf('lastmonth'), ['time-interval', f, -1, 'month']);
    assert.deepEqual(mf('thisweek'), ['time-interval', f, 'current', 'week']);
  });
  test('absolute', () => {
    assert.deepEqual(mf('2024-03'), ['during', f, '2024-03-01', 'month']);
    assert.deepEqual(mf('Q2-2024'), ['during', f, '2024-04-01', 'quarter']);
    assert.deepEqual(mf('2024-01-15'), ['=', f, '2024-01-15']);
    assert.deepEqual(mf('2024-01-15T10:30:00'), ['=', ['field', 9, { 'temporal-unit': 'minute' }], '2024-01-15T10:30:00']);
    assert.deepEqual(mf('2024-01-01~2024-02-01'), ['between', f, '2024-01-01', '2024-02-01']);
    assert.deepEqual(mf('~2024-01-01'), ['<', f, '2024-01-01']);
    assert.deepEqual(mf('2024-01-01~'), ['>', f, '2024-01-01']);
  });
  test('exclusions follow start-of-week', () => {
    assert.deepEqual(mf('exclude-days-Mon-Sun'), ['!=', ['field', 9, { 'temporal-unit': 'day-of-week' }], 2, 1]);
    assert.deepEqual(dateParameterFilter(f, 'exclude-days-Mon', 'monday'), ['!=', ['field', 9, { 'temporal-unit': 'day-of-week' }], 1]);
    assert.deepEqual(mf('exclude-months-Jan-Dec'), ['!=', ['field', 9, { 'temporal-unit': 'month-of-year' }], 1, 12]);
    assert.deepEqual(mf('exclude-quarters-1-4'), ['!=', ['field', 9, { 'temporal-unit': 'quarter-of-year' }], 1, 4]);
    assert.deepEqual(mf('exclude-hours-0-23'), ['!=', ['field', 9, { 'temporal-unit': 'hour-of-day' }], 0, 23]);
  });
  test('garbage is an invalid-parameter error with Metabase’s message', () => {
    for (const bad of ['pastdays', 'next-3-days', '2024-13', 'exclude-days-Funday', "2024-01-01' OR 1=1"]) {
      assert.throws(() => mf(bad), (e: unknown) => e instanceof QueryError && e.type === 'invalid-parameter' && e.message.startsWith("Don't know how to parse date param"), bad);
    }
  });
});

describe('parameters → filters (§6.4)', () => {
  const f = ['field', 1, null] as ['field', number, null];
  test('operators', () => {
    assert.deepEqual(parameterFilter(f, 'category', ['a', 'b'], 'sunday'), ['=', f, 'a', 'b']);
    assert.deepEqual(parameterFilter(f, 'string/!=', 'a', 'sunday'), ['!=', f, 'a']);
    assert.deepEqual(parameterFilter(f, 'string/contains', ['a'], 'sunday'), ['contains', f, 'a', { 'case-sensitive': false }]);
    assert.deepEqual(parameterFilter(f, 'string/contains', ['a', 'b'], 'sunday'), ['or', ['contains', f, 'a', { 'case-sensitive': false }], ['contains', f, 'b', { 'case-sensitive': false }]]);
    assert.deepEqual(parameterFilter(f, 'number/between', ['1', 5], 'sunday'), ['between', f, 1, 5]);
    assert.deepEqual(parameterFilter(f, 'number/>=', [3], 'sunday'), ['>=', f, 3]);
    assert.equal(parameterFilter(f, 'category', null, 'sunday'), null);
    assert.throws(() => parameterFilter(f, 'number/=', ['x'], 'sunday'), /Invalid value/);
  });
  test('template tag values: targeted by name or id, defaults, explicit null clears', () => {
    const tags = { a: { name: 'a', type: 'text', id: 'ida', default: 'A' }, b: { name: 'b', type: 'number', id: 'idb', default: 2 }, c: { name: 'c', type: 'text' } };
    const values = templateTagValues(tags, [
      { type: 'category', target: ['variable', ['template-tag', { id: 'idb' }]], value: 7 },
      { type: 'category', target: ['variable', ['template-tag', 'a']], value: null },
    ]);
    assert.equal(values.get('b')!.value, 7);
    assert.equal(values.has('a'), false);
    assert.equal(values.has('c'), false);
    assert.throws(() => templateTagValues(tags, [{ type: 'date/range', target: ['variable', ['template-tag', 'b']], value: 'x' }]), /Invalid parameter type/);
  });
});

describe('native templates', () => {
  test('tags, optional blocks, card and snippet references', () => {
    assert.deepEqual(parseTemplate('a {{ x }} [[b {{y}}]] c'), [
      { kind: 'text', text: 'a ' },
      { kind: 'tag', name: 'x', raw: '{{ x }}' },
      { kind: 'text', text: ' ' },
      { kind: 'optional', children: [{ kind: 'text', text: 'b ' }, { kind: 'tag', name: 'y', raw: '{{y}}' }] },
      { kind: 'text', text: ' c' },
    ]);
    assert.throws(() => parseTemplate('[[ unclosed'), /\[\[/);
    assert.equal(cardIdOf('#12-orders-model'), 12);
    assert.equal(cardIdOf('#12'), 12);
    assert.equal(cardIdOf('x'), null);
    assert.equal(snippetNameOf('snippet:  Active users '), 'Active users');
  });
});

describe('temporal values', () => {
  const clock = makeClock(new Date('2024-05-15T10:00:00Z'), 'UTC', 'sunday');
  const iso = (w: { start: any; end: any }) => [isoLocal(w.start, 'datetime'), isoLocal(w.end, 'datetime')];
  test('relative windows', () => {
    assert.deepEqual(iso(relativeWindow(clock, -30, 'day', false)), ['2024-04-15T00:00:00.000', '2024-05-15T00:00:00.000']);
    assert.deepEqual(iso(relativeWindow(clock, -30, 'day', true)), ['2024-04-15T00:00:00.000', '2024-05-16T00:00:00.000']);
    assert.deepEqual(iso(relativeWindow(clock, 2, 'month', false)), ['2024-06-01T00:00:00.000', '2024-08-01T00:00:00.000']);
    assert.deepEqual(iso(relativeWindow(clock, 0, 'week', false)), ['2024-05-12T00:00:00.000', '2024-05-19T00:00:00.000']);
    assert.deepEqual(iso(relativeWindow(makeClock(new Date('2024-05-15T10:00:00Z'), 'UTC', 'monday'), 0, 'week', false)), ['2024-05-13T00:00:00.000', '2024-05-20T00:00:00.000']);
  });
  test('now is read in the report time zone', () => {
    const la = makeClock(new Date('2024-05-15T03:00:00Z'), 'America/Los_Angeles', 'sunday');
    assert.equal(isoLocal(la.now, 'datetime'), '2024-05-14T20:00:00.000');
  });
  test('literals with offsets are converted to the zone; windows', () => {
    assert.equal(isoLocal(parseTemporalLiteral('2024-01-01T10:00:00Z', 'America/New_York')!.value, 'datetime'), '2024-01-01T05:00:00.000');
    assert.deepEqual(iso(unitWindow(parseTemporalLiteral('2024-02-10', null)!.value, 'quarter', 'sunday')), ['2024-01-01T00:00:00.000', '2024-04-01T00:00:00.000']);
  });
  test('results are ISO-8601 with the zone’s offset (§4.3)', () => {
    const utc = new TemporalFormatter('UTC');
    assert.equal(utc.format('2024-01-01'), '2024-01-01T00:00:00Z');
    assert.equal(utc.format('2024-01-01 10:30:00.000'), '2024-01-01T10:30:00Z');
    assert.equal(utc.format('2024-01-01T10:30:00.123'), '2024-01-01T10:30:00.123Z');
    assert.equal(utc.format('10:30:00'), '10:30:00Z');
    const la = new TemporalFormatter('America/Los_Angeles');
    assert.equal(la.format('2024-01-01'), '2024-01-01T00:00:00-08:00');
    assert.equal(la.format('2024-07-01T12:00:00'), '2024-07-01T12:00:00-07:00');
    assert.equal(la.format('2024-07-01T12:00:00Z'), '2024-07-01T05:00:00-07:00');
    assert.equal(utc.plain('2024-01-01T00:00:00'), '2024-01-01');
    assert.equal(utc.plain('2024-01-01T10:00:00.000'), '2024-01-01T10:00:00');
  });
});

describe('binning', () => {
  test('nice widths and bounds from the fingerprint', () => {
    const settings = { binsNum: 8, binWidth: 10 };
    assert.deepEqual(resolveBinning({ strategy: 'num-bins', 'num-bins': 10 }, null, { min: 15.69, max: 98.82 }, settings), { binning_strategy: 'num-bins', bin_width: 10, num_bins: 10, min_value: 10, max_value: 100 });
    assert.deepEqual(resolveBinning({ strategy: 'bin-width', 'bin-width': 20 }, null, { min: 15.69, max: 98.82 }, settings), { binning_strategy: 'bin-width', bin_width: 20, num_bins: 5, min_value: 0, max_value: 100 });
    assert.equal(resolveBinning({ strategy: 'default' }, { semantic_type: 'type/Latitude' } as any, { min: 25, max: 70 }, settings).bin_width, 10);
    assert.throws(() => resolveBinning({ strategy: 'default' }, null, null, settings), /fingerprint/);
  });
});

describe('pivot levels', () => {
  test('full breakdown, row subtotals, column totals, grand total', () => {
    assert.deepEqual(pivotLevels(2, [0], [1]), [[0, 1], [0], [1], []]);
    // Metabase's order: everything, the row subtotals (first i rows with the columns), the row totals (the rows,
    // then their first i), the column totals, the grand total.
    assert.deepEqual(pivotLevels(3, [0, 1], [2]), [[0, 1, 2], [0, 2], [0, 1], [0], [2], []]);
    // Without rows and columns: every combination, by bitmask.
    assert.deepEqual(pivotLevels(3), [[0, 1, 2], [1, 2], [0, 2], [2], [0, 1], [1], [0], []]);
    assert.throws(() => pivotLevels(2, [5], [1]), /Invalid pivot-rows: specified breakout at index 5, but we only have 2 breakouts/);
    assert.throws(() => pivotLevels(2, [0], [-1]), (e: unknown) => e instanceof QueryError && e.type === 'invalid-query');
    assert.equal(groupingBitmask(3, [0, 2]), 2);
    assert.equal(groupingBitmask(2, []), 3);
  });
});

describe('fair queue', () => {
  test('round-robin between callers; full queue fails at once; aborted waiters leave', async () => {
    const q = new FairQueue('db', { maxRunning: 1, maxQueued: 3 });
    const order: string[] = [];
    const first = await q.acquire('a');
    const waits = [q.acquire('a').then((r) => (order.push('a2'), r)), q.acquire('a').then((r) => (order.push('a3'), r)), q.acquire('b').then((r) => (order.push('b1'), r))];
    await assert.rejects(q.acquire('c'), /Too many queries are waiting/);
    const controller = new AbortController();
    first();
    const [a2] = await Promise.all([waits[0]]);
    const late = q.acquire('c', controller.signal);
    controller.abort();
    await assert.rejects(late, /cancelled/);
    a2();
    const b1 = await waits[2];
    b1();
    (await waits[1])();
    assert.deepEqual(order, ['a2', 'b1', 'a3']);
    assert.deepEqual(q.stats, { running: 0, queued: 0 });
  });

  test('a free slot goes to the waiting caller with the fewest queries running', async () => {
    const q = new FairQueue('db', { maxRunning: 2, maxQueued: 10 });
    const order: string[] = [];
    const a1 = await q.acquire('a');
    await q.acquire('a');
    const a3 = q.acquire('a').then((r) => (order.push('a3'), r));
    const b1 = q.acquire('b').then((r) => (order.push('b1'), r));
    a1(); // a still has one running, b none: b goes first although a queued earlier
    (await b1)();
    (await a3)();
    assert.deepEqual(order, ['b1', 'a3']);
  });
});

describe('insights', () => {
  test('the validation sample draws like java.util.Random(20) (as Metabase’s reservoir does)', () => {
    // new java.util.Random(20).nextInt(i) for i = 1…100, printed by Java 17.
    const java = [0,1,0,3,0,3,1,4,1,8,6,2,3,4,8,2,5,10,10,6,16,13,19,17,11,21,3,5,6,7,11,10,17,20,16,3,17,9,1,23,31,34,9,16,3,45,40,3,31,48,19,47,46,27,50,29,31,5,52,53,12,21,53,45,16,20,32,4,11,57,35,9,0,71,49,58,55,63,33,44,79,3,61,28,13,1,64,41,54,27,75,17,10,11,73,75,33,80,60,87];
    const random = new JavaRandom(20);
    assert.deepEqual(java.map((_, i) => random.nextInt(i + 1)), java);
  });
});
