// The date strings search accepts for `created_at` / `last_edited_at` (reference §6.3), turned into a UTC
// interval [start, end). Relative ones are taken against "now" in UTC.

import { badRequest } from '../http/errors.js';

export interface Interval {
  start: Date | null;
  end: Date | null;
}

type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
const UNITS: Unit[] = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

function startOf(date: Date, unit: Unit): Date {
  const d = new Date(date.getTime());
  switch (unit) {
    case 'minute':
      d.setUTCSeconds(0, 0);
      break;
    case 'hour':
      d.setUTCMinutes(0, 0, 0);
      break;
    case 'day':
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'week': {
      d.setUTCHours(0, 0, 0, 0);
      d.setUTCDate(d.getUTCDate() - d.getUTCDay()); // weeks start on Sunday, as Metabase's default
      break;
    }
    case 'month':
      d.setUTCHours(0, 0, 0, 0);
      d.setUTCDate(1);
      break;
    case 'quarter':
      d.setUTCHours(0, 0, 0, 0);
      d.setUTCDate(1);
      d.setUTCMonth(Math.floor(d.getUTCMonth() / 3) * 3);
      break;
    case 'year':
      d.setUTCHours(0, 0, 0, 0);
      d.setUTCMonth(0, 1);
      break;
  }
  return d;
}

function add(date: Date, unit: Unit, n: number): Date {
  const d = new Date(date.getTime());
  switch (unit) {
    case 'minute':
      d.setUTCMinutes(d.getUTCMinutes() + n);
      break;
    case 'hour':
      d.setUTCHours(d.getUTCHours() + n);
      break;
    case 'day':
      d.setUTCDate(d.getUTCDate() + n);
      break;
    case 'week':
      d.setUTCDate(d.getUTCDate() + 7 * n);
      break;
    case 'month':
      d.setUTCMonth(d.getUTCMonth() + n);
      break;
    case 'quarter':
      d.setUTCMonth(d.getUTCMonth() + 3 * n);
      break;
    case 'year':
      d.setUTCFullYear(d.getUTCFullYear() + n);
      break;
  }
  return d;
}

function parseDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Parses one date filter string; throws 400 when it isn't one. */
export function parseDateFilter(text: string, now: Date = new Date()): Interval {
  const value = text.trim();
  const fail = () => badRequest(`Don't know how to parse date param '${text}' — invalid format`);
  if (value === 'today') return { start: startOf(now, 'day'), end: add(startOf(now, 'day'), 'day', 1) };
  if (value === 'yesterday') return { start: add(startOf(now, 'day'), 'day', -1), end: startOf(now, 'day') };
  let m = /^(this|last|next)(minute|hour|day|week|month|quarter|year)$/.exec(value);
  if (m) {
    const unit = m[2] as Unit;
    const offset = m[1] === 'this' ? 0 : m[1] === 'last' ? -1 : 1;
    const start = add(startOf(now, unit), unit, offset);
    return { start, end: add(start, unit, 1) };
  }
  m = /^(past|next)(\d+)(minute|hour|day|week|month|quarter|year)s(~)?$/.exec(value);
  if (m) {
    const unit = m[3] as Unit;
    const n = Number(m[2]);
    const current = startOf(now, unit);
    if (m[1] === 'past') return { start: add(current, unit, -n), end: m[4] ? add(current, unit, 1) : current };
    return { start: m[4] ? current : add(current, unit, 1), end: add(current, unit, n + 1) };
  }
  if (/^\d{4}-\d{2}$/.test(value)) {
    const start = new Date(`${value}-01T00:00:00Z`);
    return { start, end: add(start, 'month', 1) };
  }
  m = /^Q([1-4])-(\d{4})$/.exec(value);
  if (m) {
    const start = new Date(Date.UTC(Number(m[2]), (Number(m[1]) - 1) * 3, 1));
    return { start, end: add(start, 'quarter', 1) };
  }
  if (value.includes('~')) {
    const [a, b] = value.split('~');
    const start = a ? parseDay(a) : null;
    const endDay = b ? parseDay(b) : null;
    if ((a && !start) || (b && !endDay)) throw fail();
    return { start, end: endDay ? (/^\d{4}-\d{2}-\d{2}$/.test(b) ? add(endDay, 'day', 1) : endDay) : null };
  }
  const day = parseDay(value);
  if (day) return /^\d{4}-\d{2}-\d{2}$/.test(value) ? { start: day, end: add(day, 'day', 1) } : { start: day, end: add(day, 'minute', 1) };
  void UNITS;
  throw fail();
}

export function inInterval(iso: string | null | undefined, interval: Interval): boolean {
  if (!iso) return false;
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return false;
  return (!interval.start || t >= interval.start.getTime()) && (!interval.end || t < interval.end.getTime());
}
