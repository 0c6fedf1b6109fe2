// Dates and times as Metabase shows them, by the column's temporal unit and its settings: `date_style`
// ("MMMM D, YYYY" by default, "D MMMM, YYYY", "dddd, MMMM D, YYYY", "M/D/YYYY", "D/M/YYYY", "YYYY/M/D"),
// `date_separator`, `date_abbreviate`, `time_enabled` (minutes, seconds, milliseconds or off) and `time_style`
// ("h:mm A" or "HH:mm"). Extraction units are names (Monday, January, Q1) or numbers.

import { DateTime } from 'luxon';
import type { ColumnSettings } from '../columns.js';

export interface DateFormatContext {
  timezone: string;
  startOfWeek?: string;
}

const DATE_STYLES = ['MMMM D, YYYY', 'D MMMM, YYYY', 'dddd, MMMM D, YYYY', 'M/D/YYYY', 'D/M/YYYY', 'YYYY/M/D'];
/** The month-only form of each date style. */
const MONTH_STYLES: Record<string, string> = {
  'MMMM D, YYYY': 'MMMM YYYY',
  'D MMMM, YYYY': 'MMMM, YYYY',
  'dddd, MMMM D, YYYY': 'MMMM YYYY',
  'M/D/YYYY': 'M/YYYY',
  'D/M/YYYY': 'M/YYYY',
  'YYYY/M/D': 'YYYY/M',
};
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Moment-style tokens of Metabase's settings → luxon tokens (text outside tokens is quoted). */
function luxonPattern(moment: string): string {
  const tokens: Record<string, string> = {
    MMMM: 'LLLL', MMM: 'LLL', M: 'L', dddd: 'cccc', ddd: 'ccc', D: 'd', YYYY: 'yyyy', HH: 'HH', H: 'H', h: 'h', mm: 'mm', ss: 'ss',
    SSS: 'SSS', A: 'a', k: 'H',
  };
  let out = '';
  let literal = '';
  const flush = () => {
    if (literal) out += `'${literal.replace(/'/g, "''")}'`;
    literal = '';
  };
  for (let i = 0; i < moment.length; ) {
    const match = ['MMMM', 'dddd', 'YYYY', 'MMM', 'ddd', 'SSS', 'HH', 'mm', 'ss', 'M', 'D', 'H', 'h', 'A', 'k'].find((t) => moment.startsWith(t, i));
    if (match) {
      flush();
      out += tokens[match];
      i += match.length;
    } else {
      literal += moment[i];
      i += 1;
    }
  }
  flush();
  return out;
}

function dateStyle(settings: ColumnSettings, abbreviate: boolean): { day: string; month: string } {
  const chosen = typeof settings.date_style === 'string' && DATE_STYLES.includes(settings.date_style) ? settings.date_style : DATE_STYLES[0];
  let day = chosen;
  let month = MONTH_STYLES[chosen];
  const separator = settings.date_separator;
  if (typeof separator === 'string' && ['/', '-', '.'].includes(separator)) {
    day = day.replace(/\//g, separator);
    month = month.replace(/\//g, separator);
  }
  if (abbreviate) {
    day = day.replace('MMMM', 'MMM').replace('dddd', 'ddd');
    month = month.replace('MMMM', 'MMM');
  }
  return { day, month };
}

function timeStyle(settings: ColumnSettings, unit: string | null): string {
  const style = settings.time_style === 'HH:mm' || settings.time_style === 'k:mm' ? 'HH:mm' : 'h:mm A';
  if (unit === 'hour') return style === 'HH:mm' ? 'HH:mm' : 'h A';
  const enabled = settings.time_enabled === undefined ? 'minutes' : settings.time_enabled;
  if (enabled === 'seconds') return style.replace('mm', 'mm:ss');
  if (enabled === 'milliseconds') return style.replace('mm', 'mm:ss.SSS');
  return style;
}

/** Parses a result value: ISO text keeps its own offset; text without one is read in the report time zone. */
export function parseTemporal(value: unknown, timezone: string): DateTime | null {
  if (typeof value !== 'string') return null;
  const hasOffset = /(Z|[+-]\d\d:?\d\d)$/.test(value);
  const dt = hasOffset ? DateTime.fromISO(value, { setZone: true, locale: 'en-US' }) : DateTime.fromISO(value, { zone: timezone, locale: 'en-US' });
  if (dt.isValid) return dt;
  const sql = DateTime.fromSQL(value, { zone: timezone, locale: 'en-US' });
  return sql.isValid ? sql : null;
}

export interface TemporalColumn {
  unit: string | null;
  dateOnly: boolean;
  timeOnly: boolean;
}

function weekdayName(value: number, startOfWeek: string | undefined): string {
  const start = Math.max(0, WEEKDAYS.indexOf(startOfWeek ?? 'sunday'));
  return DAY_NAMES[(start + value - 1 + 7 * 1000) % 7];
}

/** An extraction unit's number as shown (day and month names, Q1…), or null when the unit keeps numbers. */
export function formatExtraction(value: number, unit: string, settings: ColumnSettings, ctx: DateFormatContext): string | null {
  const abbreviate = settings.date_abbreviate === true;
  switch (unit) {
    case 'day-of-week': {
      const name = weekdayName(value, ctx.startOfWeek);
      return abbreviate ? name.slice(0, 3) : name;
    }
    case 'month-of-year': {
      const name = MONTH_NAMES[value - 1];
      return name ? (abbreviate ? name.slice(0, 3) : name) : null;
    }
    case 'quarter-of-year':
      return `Q${value}`;
    case 'hour-of-day': {
      const dt = DateTime.fromObject({ hour: value % 24 }, { zone: 'UTC', locale: 'en-US' });
      return dt.toFormat(luxonPattern(timeStyle(settings, 'hour')));
    }
    default:
      return null;
  }
}

/** A date, date-time or time value formatted for its unit; `abbreviate` is the default when settings say nothing. */
export function formatTemporal(value: unknown, col: TemporalColumn, settings: ColumnSettings, ctx: DateFormatContext, abbreviateByDefault = false): string {
  const dt = parseTemporal(value, ctx.timezone);
  if (!dt) return value === null || value === undefined ? '' : String(value);
  const abbreviate = typeof settings.date_abbreviate === 'boolean' ? settings.date_abbreviate : abbreviateByDefault;
  const styles = dateStyle(settings, abbreviate);
  const unit = col.unit;
  if (col.timeOnly) return dt.toFormat(luxonPattern(timeStyle(settings, unit)));
  switch (unit) {
    case 'year':
      return dt.toFormat('yyyy');
    case 'quarter':
      return `Q${dt.quarter} ${dt.toFormat('yyyy')}`;
    case 'month':
      return dt.toFormat(luxonPattern(styles.month));
    case 'week':
    case 'day':
      return dt.toFormat(luxonPattern(styles.day));
    case 'hour':
    case 'minute':
    case 'second':
    case 'millisecond':
      return dt.toFormat(luxonPattern(`${styles.day}, ${timeStyle(settings, unit)}`));
    default:
      if (col.dateOnly || settings.time_enabled === null) return dt.toFormat(luxonPattern(styles.day));
      return dt.toFormat(luxonPattern(`${styles.day}, ${timeStyle(settings, unit)}`));
  }
}
