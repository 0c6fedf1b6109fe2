// Values read as the app shows them: numbers by their column settings, dates by their temporal unit and settings.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber } from '../../src/visualization/format/number.js';
import { columnFormatter } from '../../src/visualization/format/value.js';
import { normalizeColumns } from '../../src/visualization/columns.js';

const fmt = (value: number, settings: Record<string, unknown> = {}, opts = {}) => formatNumber(value, settings, opts);

test('numbers: two decimals at most, two significant digits below one, grouping', () => {
  assert.equal(fmt(1234567.891), '1,234,567.89');
  assert.equal(fmt(42), '42');
  assert.equal(fmt(-0.001234), '-0.0012');
  assert.equal(fmt(0), '0');
});

test('numbers: decimals, scale, prefix and suffix', () => {
  assert.equal(fmt(3.14159, { decimals: 3 }), '3.142');
  assert.equal(fmt(7, { decimals: 2 }), '7.00');
  assert.equal(fmt(0.5, { scale: 100, suffix: ' pts' }), '50 pts');
  assert.equal(fmt(12, { prefix: '≈', decimals: 0 }), '≈12');
});

test('numbers: percent, scientific, currency styles', () => {
  assert.equal(fmt(0.1234, { number_style: 'percent' }), '12.34%');
  assert.equal(fmt(0.5, { number_style: 'percent', decimals: 1 }), '50.0%');
  assert.equal(fmt(123456, { number_style: 'scientific' }), '1.23e+5');
  assert.equal(fmt(123456, { number_style: 'scientific', decimals: 1 }), '1.2e+5');
  assert.equal(fmt(1234.5, { number_style: 'currency' }), '$1,234.50');
  assert.equal(fmt(1234.5, { number_style: 'currency', currency: 'EUR' }), '€1,234.50');
  assert.equal(fmt(1234.5, { number_style: 'currency', currency: 'EUR', currency_style: 'code' }), 'EUR\u00a01,234.50');
  assert.equal(fmt(2, { number_style: 'currency', currency_style: 'name' }), '2.00 US dollars');
  assert.equal(fmt(1234.5, { number_style: 'currency', currency: 'JPY' }), '¥1,235');
  assert.equal(fmt(-5, { number_style: 'currency' }), '-$5.00');
  assert.equal(fmt(1234.5, { number_style: 'currency' }, { currencyInHeader: true }), '1,234.50');
});

test('numbers: separators and compact form', () => {
  assert.equal(fmt(1234567.5, { number_separators: ',.' }), '1.234.567,5');
  assert.equal(fmt(1234567.5, { number_separators: ', ' }), '1 234 567,5');
  assert.equal(fmt(1234567.5, { number_separators: '.' }), '1234567.5');
  assert.equal(fmt(1234, {}, { compact: true }), '1.2k');
  assert.equal(fmt(2_500_000, { number_style: 'currency' }, { compact: true }), '$2.5M');
  assert.equal(fmt(-3_000_000_000, {}, { compact: true }), '-3B');
  assert.equal(fmt(15000, { number_style: 'currency' }, { tick: true }), '$15,000');
});

function formatter(col: Record<string, unknown>, settings: Record<string, unknown> = {}, timezone = 'UTC', startOfWeek?: string) {
  const [c] = normalizeColumns([{ name: 'X', display_name: 'X', ...col }]);
  return columnFormatter(c, settings, { timezone, startOfWeek });
}

test('dates by temporal unit', () => {
  const dt = (unit: string) => formatter({ base_type: 'type/DateTime', unit });
  assert.equal(dt('year')('2024-01-01T00:00:00Z'), '2024');
  assert.equal(dt('quarter')('2024-04-01T00:00:00Z'), 'Q2 2024');
  assert.equal(dt('month')('2024-03-01T00:00:00Z'), 'March 2024');
  assert.equal(dt('week')('2024-03-03T00:00:00Z'), 'March 3, 2024');
  assert.equal(dt('day')('2024-03-15T00:00:00Z'), 'March 15, 2024');
  assert.equal(dt('hour')('2024-03-15T15:00:00Z'), 'March 15, 2024, 3 PM');
  assert.equal(dt('minute')('2024-03-15T15:04:00Z'), 'March 15, 2024, 3:04 PM');
  assert.equal(dt('default')('2024-03-15T15:04:05Z'), 'March 15, 2024, 3:04 PM');
  assert.equal(formatter({ base_type: 'type/Date' })('2024-03-15T00:00:00Z'), 'March 15, 2024');
  assert.equal(formatter({ base_type: 'type/Time' })('15:04:05Z'), '3:04 PM');
  assert.equal(dt('month')('2024-03-01T00:00:00Z', { abbreviateDates: true }), 'Mar 2024');
});

test('dates keep their own offset; text without one is read in the report time zone', () => {
  const dt = formatter({ base_type: 'type/DateTime' }, {}, 'America/New_York');
  assert.equal(dt('2024-03-15T23:30:00-04:00'), 'March 15, 2024, 11:30 PM');
  assert.equal(dt('2024-03-15T23:30:00Z'), 'March 15, 2024, 11:30 PM');
  assert.equal(dt('2024-03-15 23:30:00'), 'March 15, 2024, 11:30 PM');
  assert.equal(dt('not a date'), 'not a date');
  assert.equal(dt(null), '');
});

test('date settings: style, separator, abbreviation, time style and precision', () => {
  const at = '2024-03-05T15:04:05.678Z';
  const dt = (settings: Record<string, unknown>, unit = 'default') => formatter({ base_type: 'type/DateTime', unit }, settings)(at);
  assert.equal(dt({ date_style: 'D MMMM, YYYY' }, 'day'), '5 March, 2024');
  assert.equal(dt({ date_style: 'dddd, MMMM D, YYYY' }, 'day'), 'Tuesday, March 5, 2024');
  assert.equal(dt({ date_style: 'M/D/YYYY' }, 'day'), '3/5/2024');
  assert.equal(dt({ date_style: 'D/M/YYYY', date_separator: '.' }, 'day'), '5.3.2024');
  assert.equal(dt({ date_style: 'YYYY/M/D', date_separator: '-' }, 'month'), '2024-3');
  assert.equal(dt({ date_style: 'M/D/YYYY' }, 'month'), '3/2024');
  assert.equal(dt({ date_abbreviate: true, date_style: 'dddd, MMMM D, YYYY' }, 'day'), 'Tue, Mar 5, 2024');
  assert.equal(dt({ time_style: 'HH:mm' }), 'March 5, 2024, 15:04');
  assert.equal(dt({ time_enabled: 'seconds' }), 'March 5, 2024, 3:04:05 PM');
  assert.equal(dt({ time_enabled: 'milliseconds', time_style: 'HH:mm' }), 'March 5, 2024, 15:04:05.678');
  assert.equal(dt({ time_enabled: null }), 'March 5, 2024');
});

test('extraction units are names or numbers', () => {
  const num = (unit: string, startOfWeek?: string) => formatter({ base_type: 'type/Integer', unit }, {}, 'UTC', startOfWeek);
  assert.equal(num('day-of-week')(1), 'Sunday');
  assert.equal(num('day-of-week', 'monday')(1), 'Monday');
  assert.equal(num('month-of-year')(2), 'February');
  assert.equal(num('quarter-of-year')(3), 'Q3');
  assert.equal(num('hour-of-day')(15), '3 PM');
  assert.equal(num('day-of-month')(15), '15');
  assert.equal(num('week-of-year')(1234), '1234');
});

test('keys, years, big integers as text, booleans and objects', () => {
  assert.equal(formatter({ base_type: 'type/Integer', semantic_type: 'type/PK' })(12345), '12345');
  assert.equal(formatter({ base_type: 'type/BigInteger' })('9007199254740993'), '9,007,199,254,740,993');
  assert.equal(formatter({ base_type: 'type/Boolean' })(true), 'true');
  assert.equal(formatter({ base_type: 'type/JSON' })({ a: 1 }), '{"a":1}');
  assert.equal(formatter({ base_type: 'type/Text' })('1234'), '1234');
});
