// A database's two sync schedules, stored as Quartz cron strings (Metabase's `metadata_sync_schedule` and
// `cache_field_values_schedule`) and shown to clients as `schedules` maps:
//   {schedule_type: hourly|daily|weekly|monthly, schedule_minute, schedule_hour, schedule_day, schedule_frame}.

import { fieldError } from '../http/errors.js';

export interface ScheduleMap {
  schedule_type: 'hourly' | 'daily' | 'weekly' | 'monthly';
  schedule_minute: number | null;
  schedule_hour: number | null;
  schedule_day: string | null;
  schedule_frame: string | null;
}

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const QUARTZ_DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** Defaults with a random minute (and hour), so a fleet of databases doesn't sync all at once. */
export function defaultSchedules(random: () => number = Math.random): { metadata: string; fieldValues: string } {
  const minute = Math.floor(random() * 60);
  const hour = Math.floor(random() * 24);
  return { metadata: `0 ${minute} * * * ? *`, fieldValues: `0 ${minute} ${hour} * * ? *` };
}

export function scheduleToCron(schedule: Record<string, unknown>, field: string): string {
  const type = schedule.schedule_type;
  const minute = Number(schedule.schedule_minute ?? 0);
  const hour = Number(schedule.schedule_hour ?? 0);
  const dayName = typeof schedule.schedule_day === 'string' ? schedule.schedule_day.toLowerCase() : null;
  const frame = schedule.schedule_frame;
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw fieldError(field, 'schedule_minute must be between 0 and 59.');
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw fieldError(field, 'schedule_hour must be between 0 and 23.');
  const day = dayName === null ? null : DAYS.indexOf(dayName);
  if (day === -1) throw fieldError(field, `schedule_day must be one of ${DAYS.join(', ')}.`);
  switch (type) {
    case 'hourly':
      return `0 ${minute} * * * ? *`;
    case 'daily':
      return `0 ${minute} ${hour} * * ? *`;
    case 'weekly':
      return `0 ${minute} ${hour} ? * ${QUARTZ_DAYS[day ?? 1]} *`;
    case 'monthly': {
      if (frame === 'mid') return `0 ${minute} ${hour} 15 * ? *`;
      if (frame === 'last') return day === null ? `0 ${minute} ${hour} L * ? *` : `0 ${minute} ${hour} ? * ${day + 1}L *`;
      if (frame !== undefined && frame !== null && frame !== 'first') throw fieldError(field, 'schedule_frame must be first, mid or last.');
      return day === null ? `0 ${minute} ${hour} 1 * ? *` : `0 ${minute} ${hour} ? * ${day + 1}#1 *`;
    }
    default:
      throw fieldError(field, 'schedule_type must be one of hourly, daily, weekly, monthly.');
  }
}

/** The schedule map of a cron string Quarry wrote; unknown shapes read as daily at the cron's hour and minute. */
export function cronToSchedule(cron: string): ScheduleMap {
  const [, minuteText, hourText, dom, , dow] = cron.trim().split(/\s+/);
  const minute = Number(minuteText);
  const hour = Number(hourText);
  const m = Number.isInteger(minute) ? minute : 0;
  if (hourText === '*') return { schedule_type: 'hourly', schedule_minute: m, schedule_hour: null, schedule_day: null, schedule_frame: null };
  const h = Number.isInteger(hour) ? hour : 0;
  if (dom === '*' && (dow === '?' || dow === '*')) return { schedule_type: 'daily', schedule_minute: m, schedule_hour: h, schedule_day: null, schedule_frame: null };
  if (dom === '?' && dow && QUARTZ_DAYS.includes(dow.toUpperCase())) {
    return { schedule_type: 'weekly', schedule_minute: m, schedule_hour: h, schedule_day: DAYS[QUARTZ_DAYS.indexOf(dow.toUpperCase())], schedule_frame: null };
  }
  const monthly = (frame: string, day: string | null): ScheduleMap => ({ schedule_type: 'monthly', schedule_minute: m, schedule_hour: h, schedule_day: day, schedule_frame: frame });
  if (dom === '15') return monthly('mid', null);
  if (dom === 'L') return monthly('last', null);
  if (dom === '1') return monthly('first', null);
  const nth = /^(\d)#1$/.exec(dow ?? '');
  if (nth) return monthly('first', DAYS[Number(nth[1]) - 1] ?? null);
  const last = /^(\d)L$/.exec(dow ?? '');
  if (last) return monthly('last', DAYS[Number(last[1]) - 1] ?? null);
  return { schedule_type: 'daily', schedule_minute: m, schedule_hour: h, schedule_day: null, schedule_frame: null };
}
