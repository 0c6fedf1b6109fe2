// Temporal arithmetic done in JS, so that every engine compares with the very same bounds: literal dates bucketed
// to a unit, "now" in the report time zone, relative windows (past 30 days, this week…). Values are local date-times
// (no zone) as ISO strings; luxon does the calendar maths in UTC so nothing shifts across DST.

import { DateTime } from 'luxon';
import { ISO_DAY, type StartOfWeek } from './dialect.js';
import { invalidQuery } from '../errors.js';

export type Unit = 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
export const TRUNC_UNITS: readonly Unit[] = ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

export interface Clock {
  /** Now, as a local date-time in the report time zone. */
  now: DateTime;
  startOfWeek: StartOfWeek;
}

export function makeClock(now: Date, zone: string | null, startOfWeek: StartOfWeek): Clock {
  const local = DateTime.fromJSDate(now, { zone: zone ?? 'UTC' });
  // Re-read the wall-clock fields as UTC: from here on, arithmetic is on naive local date-times.
  const naive = DateTime.fromObject(
    { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second, millisecond: local.millisecond },
    { zone: 'UTC' },
  );
  return { now: naive, startOfWeek };
}

const LITERAL = /^(\d{4})-(\d\d)(?:-(\d\d))?(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d\d:?\d\d)?$/i;

export interface ParsedLiteral {
  value: DateTime;
  /** Whether the text had a time of day. */
  hasTime: boolean;
  /** Whether the text named only a month ("2024-03"). */
  monthOnly: boolean;
}

/**
 * A temporal literal string → a naive local date-time. Strings with an offset are converted to the report time
 * zone first (they name an instant).
 */
export function parseTemporalLiteral(text: string, zone: string | null): ParsedLiteral | null {
  const m = LITERAL.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, offset] = m;
  const fields = {
    year: Number(y),
    month: Number(mo),
    day: d ? Number(d) : 1,
    hour: h ? Number(h) : 0,
    minute: mi ? Number(mi) : 0,
    second: s ? Number(s) : 0,
    millisecond: frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0,
  };
  let value: DateTime;
  if (offset) {
    const normalizedOffset = offset.toUpperCase() === 'Z' ? 'UTC' : `UTC${offset.length === 5 ? offset.slice(0, 3) + ':' + offset.slice(3) : offset}`;
    const instant = DateTime.fromObject(fields, { zone: normalizedOffset });
    const local = instant.setZone(zone ?? 'UTC');
    value = DateTime.fromObject(
      { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second, millisecond: local.millisecond },
      { zone: 'UTC' },
    );
  } else {
    value = DateTime.fromObject(fields, { zone: 'UTC' });
  }
  if (!value.isValid) return null;
  return { value, hasTime: h !== undefined, monthOnly: d === undefined && h === undefined };
}

export function parseTimeLiteral(text: string): string | null {
  const m = /^(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?$/.exec(text.trim());
  if (!m) return null;
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}${m[4] ? '.' + m[4].slice(0, 3).padEnd(3, '0') : ''}`;
}

export function truncate(value: DateTime, unit: Unit, startOfWeek: StartOfWeek): DateTime {
  if (unit === 'week') {
    const day = value.startOf('day');
    const back = (day.weekday - ISO_DAY[startOfWeek] + 7) % 7;
    return day.minus({ days: back });
  }
  return value.startOf(unit);
}

/** `value` moved by `n` units; a date no calendar holds (a billion years away) is refused rather than bound as text. */
export function plus(value: DateTime, n: number, unit: Unit): DateTime {
  const moved = move(value, n, unit);
  if (!moved.isValid) throw invalidQuery(`Invalid relative date: ${n} ${unit}s from ${value.toISODate() ?? 'the reference date'} is out of the range of dates.`);
  return moved;
}

function move(value: DateTime, n: number, unit: Unit): DateTime {
  switch (unit) {
    case 'millisecond':
      return value.plus({ milliseconds: n });
    case 'second':
      return value.plus({ seconds: n });
    case 'minute':
      return value.plus({ minutes: n });
    case 'hour':
      return value.plus({ hours: n });
    case 'day':
      return value.plus({ days: n });
    case 'week':
      return value.plus({ weeks: n });
    case 'month':
      return value.plus({ months: n });
    case 'quarter':
      return value.plus({ months: 3 * n });
    case 'year':
      return value.plus({ years: n });
  }
}

export function asUnit(unit: unknown): Unit {
  const u = String(unit ?? '').replace(/s$/, '') as Unit;
  if (!TRUNC_UNITS.includes(u)) throw invalidQuery(`Invalid temporal unit: ${String(unit)}`);
  return u;
}

/** A half-open window [start, end) of local date-times. */
export interface Window {
  start: DateTime | null;
  end: DateTime | null;
}

/** The unit-sized window holding `value`. */
export function unitWindow(value: DateTime, unit: Unit, startOfWeek: StartOfWeek): Window {
  const start = truncate(value, unit, startOfWeek);
  return { start, end: plus(start, 1, unit) };
}

/**
 * A column bucketed to `unit` compared with the instant `value`, as a window on the unbucketed column: the bucket
 * holding `value` when `value` starts it (so `=` is that bucket, `>` from the next one on); otherwise an empty
 * window at the next bucket's start (no bucket equals `value`; `>` and `>=` start at the next bucket, `<` and `<=`
 * end there).
 */
export function bucketComparison(value: DateTime, unit: Unit, startOfWeek: StartOfWeek): Window {
  const start = truncate(value, unit, startOfWeek);
  const next = plus(start, 1, unit);
  return start.equals(value) ? { start, end: next } : { start: next, end: next };
}

/**
 * `time-interval` semantics: n < 0 the previous |n| whole units, n > 0 the next n, 0 the current one; the current
 * unit is added when `includeCurrent`.
 */
export function relativeWindow(clock: Clock, n: number, unit: Unit, includeCurrent: boolean, anchor?: DateTime): Window {
  const current = truncate(anchor ?? clock.now, unit, clock.startOfWeek);
  if (n === 0) return { start: current, end: plus(current, 1, unit) };
  if (n < 0) return { start: plus(current, n, unit), end: includeCurrent ? plus(current, 1, unit) : current };
  return { start: includeCurrent ? current : plus(current, 1, unit), end: plus(current, n + 1, unit) };
}

/** ISO text of a local date-time for binding: "2024-01-31T10:30:00.000" (or "2024-01-31" for dates). */
export function isoLocal(value: DateTime, kind: 'date' | 'datetime'): string {
  return kind === 'date' ? value.toFormat('yyyy-MM-dd') : value.toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS");
}
