// Calendar helpers for the generator. Timestamps are epoch milliseconds read as UTC wall-clock time.

export const DAY = 86_400_000;

export function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** The anchor of Metabase's shipped sample (G′): people and products span [G′−2y, G′+1y], orders end at G′+2y. */
export const ANCHOR = utc(2024, 4, 19, 14, 7, 16);

/** Calendar years later, keeping the time of day; Feb 29 becomes Feb 28 in a non-leap year. */
export function addYears(ms: number, years: number): number {
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}

export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

/** The last day of the month `offset` months after the month of `ms`, at midnight. */
export function monthEnd(ms: number, offset: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset + 1, 0);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "YYYY-MM-DD HH:MM:SS.SSS" (or with `T`) — no zone. */
export function formatTimestamp(ms: number, separator = ' '): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}${separator}${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
