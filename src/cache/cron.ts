// Quartz cron strings (`sec min hour day-of-month month day-of-week [year]`, as Metabase stores schedules): checked
// and evaluated with croner in Quartz mode (weekdays 1 = Sunday, `0/6` steps, `?`, `L`, `#`).

import { Cron } from 'croner';

function parse(expression: string, timezone: string): Cron | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length < 6 || fields.length > 7) return null;
  // Quartz wants exactly one of day-of-month and day-of-week left open with `?`.
  if ((fields[3] === '?') === (fields[5] === '?')) return null;
  try {
    return new Cron(fields.join(' '), { timezone, alternativeWeekdays: true, sloppyRanges: true, paused: true });
  } catch {
    return null;
  }
}

/** Whether `expression` is a Quartz cron string croner can evaluate. */
export function quartzCron(expression: string): boolean {
  return parse(expression, 'UTC') !== null;
}

/** The last time the schedule fired at or before `now` (null: never, or an invalid expression). */
export function previousFire(expression: string, now: Date, timezone = 'UTC'): Date | null {
  return parse(expression, timezone)?.previousRuns(1, now)[0] ?? null;
}

/** The next time the schedule fires after `now` (null: never again, or an invalid expression). */
export function nextFire(expression: string, now: Date, timezone = 'UTC'): Date | null {
  return parse(expression, timezone)?.nextRun(now) ?? null;
}
