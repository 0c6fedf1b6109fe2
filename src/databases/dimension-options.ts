// The legacy `dimension_options` of query_metadata: the breakout choices offered per field type (temporal units,
// numeric and coordinate binning), each with an id, and every field's list of option ids and its default.

import { isa } from './type-hierarchy.js';

interface DimensionOption {
  name: string;
  mbql: unknown[];
  type: string;
}

const unit = (name: string, u: string, type: string): DimensionOption => ({ name, mbql: ['field', null, { 'temporal-unit': u }], type });
const bin = (name: string, strategy: Record<string, unknown> | null, type: string): DimensionOption => ({ name, mbql: strategy ? ['field', null, { binning: strategy }] : [], type });

const DATETIME_UNITS: Array<[string, string]> = [
  ['Minute', 'minute'], ['Hour', 'hour'], ['Day', 'day'], ['Week', 'week'], ['Month', 'month'], ['Quarter', 'quarter'], ['Year', 'year'],
  ['Minute of hour', 'minute-of-hour'], ['Hour of day', 'hour-of-day'], ['Day of week', 'day-of-week'], ['Day of month', 'day-of-month'],
  ['Day of year', 'day-of-year'], ['Week of year', 'week-of-year'], ['Month of year', 'month-of-year'], ['Quarter of year', 'quarter-of-year'],
];
const DATE_UNITS = DATETIME_UNITS.filter(([, u]) => !['minute', 'hour', 'minute-of-hour', 'hour-of-day'].includes(u));
const TIME_UNITS = DATETIME_UNITS.filter(([, u]) => ['minute', 'hour', 'minute-of-hour', 'hour-of-day'].includes(u));

const OPTIONS: DimensionOption[] = [
  ...DATETIME_UNITS.map(([n, u]) => unit(n, u, 'type/DateTime')),
  ...DATE_UNITS.map(([n, u]) => unit(n, u, 'type/Date')),
  ...TIME_UNITS.map(([n, u]) => unit(n, u, 'type/Time')),
  bin('Auto bin', { strategy: 'default' }, 'type/Number'),
  bin('10 bins', { strategy: 'num-bins', 'num-bins': 10 }, 'type/Number'),
  bin('50 bins', { strategy: 'num-bins', 'num-bins': 50 }, 'type/Number'),
  bin('100 bins', { strategy: 'num-bins', 'num-bins': 100 }, 'type/Number'),
  bin("Don't bin", null, 'type/Number'),
  bin('Auto bin', { strategy: 'default' }, 'type/Coordinate'),
  bin('Bin every 0.1 degrees', { strategy: 'bin-width', 'bin-width': 0.1 }, 'type/Coordinate'),
  bin('Bin every 1 degree', { strategy: 'bin-width', 'bin-width': 1 }, 'type/Coordinate'),
  bin('Bin every 10 degrees', { strategy: 'bin-width', 'bin-width': 10 }, 'type/Coordinate'),
  bin('Bin every 20 degrees', { strategy: 'bin-width', 'bin-width': 20 }, 'type/Coordinate'),
  bin("Don't bin", null, 'type/Coordinate'),
];

export const DIMENSION_OPTIONS: Record<string, DimensionOption> = Object.fromEntries(OPTIONS.map((o, i) => [String(i), o]));

function idsOf(type: string): string[] {
  return OPTIONS.map((o, i) => (o.type === type ? String(i) : null)).filter((x): x is string => x !== null);
}

const DEFAULTS: Record<string, string> = {
  'type/DateTime': 'Day', 'type/Date': 'Day', 'type/Time': 'Hour', 'type/Number': 'Auto bin', 'type/Coordinate': 'Auto bin',
};

/** The option group of a field: temporal by effective type, coordinates, plain numbers (not keys). */
function groupOf(field: { effective_type?: unknown; base_type?: unknown; semantic_type?: unknown }): string | null {
  const type = String(field.effective_type ?? field.base_type ?? '');
  const semantic = typeof field.semantic_type === 'string' ? field.semantic_type : null;
  if (isa(type, 'type/DateTime')) return 'type/DateTime';
  if (isa(type, 'type/Date')) return 'type/Date';
  if (isa(type, 'type/Time')) return 'type/Time';
  if (semantic === 'type/PK' || semantic === 'type/FK') return null;
  if (isa(semantic, 'type/Coordinate')) return 'type/Coordinate';
  if (isa(type, 'type/Number') && !isa(semantic, 'type/Category')) return 'type/Number';
  return null;
}

export function withDimensionOptions(field: Record<string, unknown>): Record<string, unknown> {
  const group = groupOf(field);
  if (!group) return { ...field, dimension_options: [], default_dimension_option: null };
  const ids = idsOf(group);
  const defaultId = ids.find((id) => DIMENSION_OPTIONS[id].name === DEFAULTS[group]) ?? null;
  return { ...field, dimension_options: ids, default_dimension_option: defaultId };
}
