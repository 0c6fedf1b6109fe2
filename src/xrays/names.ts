// Words of an X-ray: titles with their placeholders filled, temporal units in prose, a question's aggregations in
// words ("Sum of Total and number of Orders"), and a cell's condition ("Created At is in March 2024").

import type { AppContext } from '../context.js';
import { describeFilters } from '../segments/describe.js';

export { humanize } from '../databases/humanize.js';

type Obj = Record<string, unknown>;

const UNIT_WORDS: Record<string, string> = {
  'minute-of-hour': 'minute of the hour',
  'hour-of-day': 'hour of the day',
  'day-of-week': 'day of the week',
  'day-of-month': 'day of the month',
  'day-of-year': 'day of the year',
  'week-of-year': 'week of the year',
  'month-of-year': 'month of the year',
  'quarter-of-year': 'quarter of the year',
};

export const unitWords = (unit: string): string => UNIT_WORDS[unit] ?? unit;

export function capitalize(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Fills `{{name}}` placeholders; unknown ones are left for the caller to notice (a card needing them is skipped). */
export function fill(template: string, values: Record<string, string>): string {
  return capitalize(template.replace(/\{\{([A-Za-z]+)\}\}/g, (whole, name: string) => values[name] ?? whole));
}

export const hasPlaceholder = (text: string) => /\{\{[A-Za-z]+\}\}/.test(text);

/** "a", "a and b", "a, b and c". */
export function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

const AGGREGATION_WORDS: Record<string, string> = {
  count: 'number',
  sum: 'sum',
  avg: 'average',
  min: 'minimum',
  max: 'maximum',
  distinct: 'distinct count',
  stddev: 'standard deviation',
  'cum-count': 'cumulative count',
  'cum-sum': 'cumulative sum',
  median: 'median',
};

/** An aggregation in words: "sum of Total", "number of Orders"; a named aggregation by its name. */
export function aggregationWords(clause: unknown, fieldName: (ref: unknown) => string, tableName: string): string {
  if (!Array.isArray(clause)) return 'a metric';
  if (clause[0] === 'aggregation-options') {
    const opts = (clause[2] ?? {}) as Obj;
    const name = opts['display-name'] ?? opts.name;
    return typeof name === 'string' ? name : aggregationWords(clause[1], fieldName, tableName);
  }
  const word = AGGREGATION_WORDS[String(clause[0])] ?? String(clause[0]);
  const of = clause.length > 1 ? fieldName(clause[1]) : tableName;
  return `${word} of ${of}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A temporal value at a unit, as a person reads it: "in March 2024", "on March 5, 2024", "in Q1 2024". */
function temporalWords(value: unknown, unit: string): string | null {
  if (typeof value === 'number') {
    if (unit === 'day-of-week' && value >= 1 && value <= 7) return `on ${DAYS[(value + 5) % 7]}`;
    if (unit === 'month-of-year' && value >= 1 && value <= 12) return `in ${MONTHS[value - 1]}`;
    if (unit === 'quarter-of-year') return `in Q${value}`;
    if (unit === 'hour-of-day') return `at ${value % 12 || 12} ${value < 12 ? 'AM' : 'PM'}`;
    return null;
  }
  if (typeof value !== 'string') return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  switch (unit) {
    case 'year':
      return `in ${y}`;
    case 'quarter':
      return `in Q${Math.floor(m / 3) + 1} ${y}`;
    case 'month':
      return `in ${MONTHS[m]} ${y}`;
    case 'week':
      return `in the week of ${MONTHS[m]} ${day}, ${y}`;
    case 'day':
      return `on ${MONTHS[m]} ${day}, ${y}`;
    case 'hour':
      return `at ${d.getUTCHours() % 12 || 12} ${d.getUTCHours() < 12 ? 'AM' : 'PM'}, ${MONTHS[m]} ${day}, ${y}`;
    default:
      return null;
  }
}

/** Rewrites `["=", temporal field, value]` parts so the generic filter words read naturally. */
function withTemporalWords(clause: unknown): unknown {
  if (!Array.isArray(clause)) return clause;
  if (clause[0] === 'and' || clause[0] === 'or') return [clause[0], ...clause.slice(1).map(withTemporalWords)];
  const ref = clause[1];
  const unit = Array.isArray(ref) && ref[0] === 'field' && ref[2] && typeof ref[2] === 'object' ? (ref[2] as Obj)['temporal-unit'] : undefined;
  if (clause[0] === '=' && clause.length === 3 && typeof unit === 'string') {
    const words = temporalWords(clause[2], unit);
    if (words) return ['quarry-temporal', ref, words];
  }
  return clause;
}

/** Conditions of cell X-rays, in words ("Category is Widget", "Created At is in March 2024"). */
export async function conditionWords(ctx: AppContext, clause: unknown): Promise<string> {
  const rewritten = withTemporalWords(clause);
  const [text] = await describeFilters(ctx, [rewritten]);
  // describeFilters names unknown clauses "<column> <op> <args>": ours reads "<column> quarry-temporal in March 2024"
  return (text ?? 'the selected values').replace(/^Filtered by /, '').replace(/ quarry-temporal /g, ' is ');
}
