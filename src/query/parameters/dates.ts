// The date-parameter string grammar (reference §6.3) → an MBQL filter on a field: "past30days", "thisweek",
// "2024-01-01~2024-02-01", "2024-03", "Q2-2024", "exclude-days-Mon-Tue"…

import type { Clause, FieldRef } from '../mbql/types.js';
import { withFieldOptions } from '../mbql/clauses.js';
import { QueryError } from '../errors.js';
import { ISO_DAY, type StartOfWeek } from '../compile/dialect.js';

const UNITS = 'millisecond|second|minute|hour|day|week|month|quarter|year';
const RELATIVE = new RegExp(`^(past|next)(\\d+)(${UNITS})s?(~)?(?:-from-(\\d+)(${UNITS})s?)?$`);
const LAST_THIS = new RegExp(`^(last|this)(${UNITS})$`);
const DATE = /^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?)?$/;
const MONTH = /^(\d{4})-(\d\d)$/;
const QUARTER = /^Q([1-4])-(\d{4})$/i;
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function invalidDateParam(value: unknown): QueryError {
  return new QueryError('invalid-parameter', `Don't know how to parse date param '${String(value)}' — invalid format`);
}

function unbucketed(field: FieldRef): FieldRef {
  return withFieldOptions(field, { 'temporal-unit': undefined });
}

/** The MBQL filter a date parameter value means for `field`. */
export function dateParameterFilter(field: FieldRef, raw: unknown, startOfWeek: StartOfWeek): Clause {
  if (typeof raw !== 'string') throw invalidDateParam(raw);
  const value = raw.trim();
  const f = unbucketed(field);
  if (value === 'today') return ['time-interval', f, 'current', 'day'];
  if (value === 'yesterday') return ['time-interval', f, -1, 'day'];
  let m = RELATIVE.exec(value);
  if (m) {
    const [, direction, n, unit, tilde, fromN, fromUnit] = m;
    const sign = direction === 'past' ? -1 : 1;
    if (fromN) return ['relative-time-interval', f, sign * Number(n), unit, sign * Number(fromN), fromUnit];
    return tilde ? ['time-interval', f, sign * Number(n), unit, { 'include-current': true }] : ['time-interval', f, sign * Number(n), unit];
  }
  m = LAST_THIS.exec(value);
  if (m) return ['time-interval', f, m[1] === 'last' ? -1 : 'current', m[2]];
  m = MONTH.exec(value);
  if (m) {
    if (Number(m[2]) < 1 || Number(m[2]) > 12) throw invalidDateParam(raw);
    return ['during', f, `${m[1]}-${m[2]}-01`, 'month'];
  }
  m = QUARTER.exec(value);
  if (m) {
    const month = String((Number(m[1]) - 1) * 3 + 1).padStart(2, '0');
    return ['during', f, `${m[2]}-${month}-01`, 'quarter'];
  }
  if (value.startsWith('exclude-')) return exclusion(field, value, startOfWeek);
  if (value.includes('~')) {
    const [from, to] = value.split('~');
    const a = from.trim();
    const b = to.trim();
    if (a && !(DATE.test(a) && validDate(a))) throw invalidDateParam(raw);
    if (b && !(DATE.test(b) && validDate(b))) throw invalidDateParam(raw);
    if (a && b) return ['between', f, a, b];
    if (b) return ['<', f, b];
    if (a) return ['>', f, a];
    throw invalidDateParam(raw);
  }
  if (DATE.test(value)) {
    if (!validDate(value)) throw invalidDateParam(raw);
    if (value.length > 10) return ['=', withFieldOptions(field, { 'temporal-unit': 'minute' }), value];
    return ['=', f, value];
  }
  throw invalidDateParam(raw);
}

/** A real calendar date (no 2024-02-30). */
function validDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function exclusion(field: FieldRef, value: string, startOfWeek: StartOfWeek): Clause {
  const [, kind, ...items] = value.split('-');
  if (!items.length) throw invalidDateParam(value);
  let unit: string;
  let numbers: number[];
  switch (kind) {
    case 'days':
      unit = 'day-of-week';
      numbers = items.map((d) => {
        const iso = DAYS.indexOf(d) + 1;
        if (iso === 0) throw invalidDateParam(value);
        return ((iso - ISO_DAY[startOfWeek] + 7) % 7) + 1;
      });
      break;
    case 'months':
      unit = 'month-of-year';
      numbers = items.map((mo) => {
        const n = MONTHS.indexOf(mo) + 1;
        if (n === 0) throw invalidDateParam(value);
        return n;
      });
      break;
    case 'quarters':
      unit = 'quarter-of-year';
      numbers = items.map(Number);
      break;
    case 'hours':
      unit = 'hour-of-day';
      numbers = items.map(Number);
      break;
    default:
      throw invalidDateParam(value);
  }
  if (numbers.some((n) => !Number.isInteger(n))) throw invalidDateParam(value);
  return ['!=', withFieldOptions(field, { 'temporal-unit': unit }), ...numbers];
}
