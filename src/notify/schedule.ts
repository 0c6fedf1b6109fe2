// A channel's schedule: Metabase's map (schedule_type hourly|daily|weekly|monthly, schedule_hour, schedule_day
// sun…sat, schedule_frame first|mid|last) — always on the hour — or, for notifications made through
// /api/notification, a Quartz cron of their own. Both become one Quartz cron for the scheduler, read in the
// report time zone.

import { fieldError } from '../http/errors.js';
import { cronToSchedule, scheduleToCron } from '../databases/schedules.js';
import { isValidCron } from '../tasks/cron.js';

export interface ChannelSchedule {
  schedule_type: 'hourly' | 'daily' | 'weekly' | 'monthly';
  schedule_hour: number | null;
  schedule_day: string | null;
  schedule_frame: 'first' | 'mid' | 'last' | null;
}

const TYPES = ['hourly', 'daily', 'weekly', 'monthly'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FRAMES = ['first', 'mid', 'last'];

/**
 * Checks a schedule map and keeps only what its type uses (Metabase nulls the rest): the hour for all but hourly,
 * the day for weekly and monthly, the frame for monthly. A bad combination is a 400 naming the problem.
 */
export function normalizeSchedule(input: Record<string, unknown>, field = 'channels'): ChannelSchedule {
  const type = input.schedule_type;
  if (typeof type !== 'string' || !TYPES.includes(type)) throw fieldError(field, `schedule_type must be one of ${TYPES.join(', ')}.`);
  const hour = input.schedule_hour;
  const day = typeof input.schedule_day === 'string' ? input.schedule_day.toLowerCase() : input.schedule_day ?? null;
  const frame = input.schedule_frame ?? null;
  const needsHour = type !== 'hourly';
  if (needsHour && !(Number.isInteger(hour) && (hour as number) >= 0 && (hour as number) <= 23)) {
    throw fieldError(field, `A ${type} schedule needs a schedule_hour between 0 and 23.`);
  }
  if (day !== null && !DAYS.includes(day as string)) throw fieldError(field, `schedule_day must be one of ${DAYS.join(', ')}.`);
  if (type === 'weekly' && day === null) throw fieldError(field, 'A weekly schedule needs a schedule_day.');
  if (type === 'monthly') {
    if (frame === null || !FRAMES.includes(frame as string)) throw fieldError(field, 'A monthly schedule needs a schedule_frame of first, mid or last.');
    if (frame === 'mid' && day !== null) throw fieldError(field, 'A mid-month schedule cannot have a schedule_day.');
  }
  return {
    schedule_type: type as ChannelSchedule['schedule_type'],
    schedule_hour: needsHour ? (hour as number) : null,
    schedule_day: type === 'weekly' || type === 'monthly' ? (day as string | null) : null,
    schedule_frame: type === 'monthly' ? (frame as ChannelSchedule['schedule_frame']) : null,
  };
}

/** The Quartz cron of a schedule map (minute 0). */
export function scheduleCron(schedule: ChannelSchedule): string {
  return scheduleToCron({ ...schedule, schedule_minute: 0 }, 'channels');
}

/** The cron a channel fires on: its own cron, else its schedule map's; null when it has neither. */
export function channelCron(row: { cron_schedule: string | null; schedule_type: string | null; schedule_hour: number | null; schedule_day: string | null; schedule_frame: string | null }): string | null {
  if (row.cron_schedule) return row.cron_schedule;
  if (!row.schedule_type) return null;
  try {
    return scheduleCron(normalizeSchedule(row));
  } catch {
    return null;
  }
}

/**
 * A cron as a schedule map: exact when the cron is one a schedule map makes (`exact`), otherwise the nearest map
 * (shown by /api/alert for a notification's own cron, which keeps firing on its cron).
 */
export function scheduleOfCron(cron: string): { schedule: ChannelSchedule; exact: boolean } {
  const mapped = cronToSchedule(cron);
  const schedule: ChannelSchedule = {
    schedule_type: mapped.schedule_type,
    schedule_hour: mapped.schedule_type === 'hourly' ? null : mapped.schedule_hour,
    schedule_day: mapped.schedule_day,
    schedule_frame: mapped.schedule_frame as ChannelSchedule['schedule_frame'],
  };
  let exact = false;
  try {
    exact = normalizeCron(scheduleCron(normalizeSchedule({ ...schedule }))) === normalizeCron(cron);
  } catch {
    exact = false;
  }
  return { schedule, exact };
}

function normalizeCron(cron: string): string {
  return cron.trim().split(/\s+/).map((f) => f.toUpperCase()).join(' ');
}

export const SUB_MINUTE_CRON = 'A notification can be sent at most once a minute: the seconds field of its cron must be one second (e.g. 0 in "0 * * * * ? *").';

/**
 * A Quartz cron of 6 or 7 fields that the scheduler can read, firing at most once a minute: its seconds field is one
 * second (0–59), not `*`, a list, a range or a step. Refused rather than clamped: a send every second is never meant.
 */
export function checkCron(cron: unknown, field: string): string {
  if (typeof cron !== 'string' || !/^\S+(\s+\S+){5,6}$/.test(cron.trim()) || !isValidCron(cron)) {
    throw fieldError(field, 'Value must be a valid Quartz cron expression: <seconds> <minutes> <hours> <day of month> <month> <day of week> [<year>].');
  }
  const seconds = cron.trim().split(/\s+/)[0];
  if (!/^\d{1,2}$/.test(seconds) || Number(seconds) > 59) throw fieldError(field, SUB_MINUTE_CRON);
  return cron.trim();
}
