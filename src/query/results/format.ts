// Values formatted the way the UI shows them, for downloads with `format_rows=true` (reference §4.7): dates by their
// unit ("January 15, 2024", "January 2024", "Q1 2024", "January 15, 2024, 3:04 PM"), numbers with thousands
// separators and at most two decimals (ids excepted). Column viz settings aren't applied.

import { DateTime } from 'luxon';
import type { Col } from './annotate.js';
import { isDate, isDateTime, isTime, isInteger, isNumeric } from '../compile/types.js';
import type { Converter, TemporalFormatter } from './values.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const groupedInteger = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function temporal(unit: string | undefined, kind: 'date' | 'datetime' | 'time', formatter: TemporalFormatter): Converter {
  return (v) => {
    if (typeof v !== 'string') return v;
    const iso = formatter.format(v);
    const dt = DateTime.fromISO(iso, { setZone: true });
    if (!dt.isValid) return v;
    if (kind === 'time') return dt.toFormat('h:mm a');
    switch (unit) {
      case 'year':
        return dt.toFormat('yyyy');
      case 'quarter':
        return `Q${dt.quarter} ${dt.year}`;
      case 'month':
        return dt.toFormat('MMMM yyyy');
      case 'week':
      case 'day':
        return dt.toFormat('MMMM d, yyyy');
      case 'hour':
      case 'minute':
        return dt.toFormat('MMMM d, yyyy, h:mm a');
      default:
        return kind === 'date' || (dt.hour === 0 && dt.minute === 0 && dt.second === 0 && unit === undefined && kind !== 'datetime')
          ? dt.toFormat('MMMM d, yyyy')
          : dt.toFormat('MMMM d, yyyy, h:mm a');
    }
  };
}

export function formattedConverter(col: Col, formatter: TemporalFormatter, startOfWeekIndex: number): Converter {
  const base = col.base_type;
  const unit = col.unit as string | undefined;
  if (unit === 'day-of-week') return (v) => (typeof v === 'number' ? DAYS[(startOfWeekIndex + v - 1) % 7] : v);
  if (unit === 'month-of-year') return (v) => (typeof v === 'number' ? MONTHS[v - 1] ?? v : v);
  if (unit === 'quarter-of-year') return (v) => (typeof v === 'number' ? `Q${v}` : v);
  if (isDate(base)) return temporal(unit, 'date', formatter);
  if (isDateTime(base)) return temporal(unit, 'datetime', formatter);
  if (isTime(base)) return temporal(unit, 'time', formatter);
  const semantic = col.semantic_type as string | null | undefined;
  if (semantic === 'type/PK' || semantic === 'type/FK' || (unit && unit !== 'default')) return (v) => v;
  if (isInteger(base)) return (v) => (typeof v === 'number' ? groupedInteger.format(v) : v);
  if (isNumeric(base)) return (v) => (typeof v === 'number' ? grouped.format(v) : v);
  return (v) => v;
}
