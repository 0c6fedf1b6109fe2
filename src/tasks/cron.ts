// Quartz cron expressions (`sec min hour day-of-month month day-of-week [year]`, Metabase's schedule strings) read
// with croner in a given IANA time zone: day-of-week 1 = Sunday as in Quartz (`alternativeWeekdays`), `?`, `L`, `#`,
// and Quartz's `start/step` (`0 0 0/6 * * ? *`, every six hours), which croner only takes as a range.
// Across DST a local time that doesn't exist fires at the first instant after the gap, and one that exists twice
// fires once.

import { Cron } from 'croner';

const MAX_CACHED = 5_000;

/** Each field's highest value, for Quartz's `start/step` (croner wants a range: `start-max/step`). */
const FIELD_MAX = [59, 59, 23, 31, 12, 7];

/** Quartz spellings croner reads differently: `0/6` (from 0, every 6) becomes `0-23/6`. */
export function croner(expression: string): string {
  return expression
    .trim()
    .split(/\s+/)
    .map((field, i) => (i < FIELD_MAX.length ? field.replace(/(^|,)(\d+)\/(\d+)/g, (_m, sep: string, start: string, step: string) => `${sep}${start}-${FIELD_MAX[i]}/${step}`) : field))
    .join(' ');
}
const cache = new Map<string, Cron | null>();

function validZone(timezone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return timezone;
  } catch {
    return 'UTC';
  }
}

/** The parsed expression, or null when croner can't read it. Parsed once per (expression, zone). */
export function quartzCron(expression: string, timezone: string): Cron | null {
  const key = `${timezone}\u0000${expression}`;
  if (cache.has(key)) return cache.get(key)!;
  let cron: Cron | null;
  try {
    // paused and without a function: used only to compute fire times, never starts a timer
    cron = new Cron(croner(expression), { timezone: validZone(timezone), alternativeWeekdays: true, paused: true });
  } catch {
    cron = null;
  }
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, cron);
  return cron;
}

export function isValidCron(expression: string): boolean {
  return quartzCron(expression, 'UTC') !== null;
}

/** The latest fire time at or before `at`, or null (none, or an invalid expression). */
export function latestFireTime(expression: string, timezone: string, at: Date): Date | null {
  const cron = quartzCron(expression, timezone);
  if (!cron) return null;
  try {
    // croner's previous runs are strictly before the reference, so look from the next millisecond
    return cron.previousRuns(1, new Date(at.getTime() + 1))[0] ?? null;
  } catch {
    return null;
  }
}

/** The first fire time after `at`, or null. */
export function nextFireTime(expression: string, timezone: string, at: Date): Date | null {
  const cron = quartzCron(expression, timezone);
  if (!cron) return null;
  try {
    return cron.nextRun(at) ?? null;
  } catch {
    return null;
  }
}
