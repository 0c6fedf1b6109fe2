// Column names and display names as Metabase gives them (reference §4.4): "count", "sum_2"; "Sum of Price",
// "Created At: Month", "Product → Category".

export class UniqueNames {
  private readonly used = new Set<string>();
  /** Per name, the suffix to try next: a name repeated n times costs n steps, not n² (thousands of breakouts). */
  private readonly nextSuffix = new Map<string, number>();

  /** `name`, or `name_2`, `name_3`… when already taken (case-insensitively, as SQL aliases are). */
  next(name: string): string {
    const key = name.toLowerCase();
    if (!this.used.has(key)) {
      this.used.add(key);
      return name;
    }
    // Suffixes below the remembered one were all taken already, and taken names stay taken.
    for (let i = this.nextSuffix.get(key) ?? 2; ; i++) {
      const candidate = `${name}_${i}`;
      if (!this.used.has(candidate.toLowerCase())) {
        this.used.add(candidate.toLowerCase());
        this.nextSuffix.set(key, i + 1);
        return candidate;
      }
    }
  }
}

const UNIT_NAMES: Record<string, string> = {
  millisecond: 'Millisecond',
  second: 'Second',
  minute: 'Minute',
  'minute-of-hour': 'Minute of hour',
  hour: 'Hour',
  'hour-of-day': 'Hour of day',
  day: 'Day',
  'day-of-week': 'Day of week',
  'day-of-month': 'Day of month',
  'day-of-year': 'Day of year',
  week: 'Week',
  'week-of-year': 'Week of year',
  month: 'Month',
  'month-of-year': 'Month of year',
  quarter: 'Quarter',
  'quarter-of-year': 'Quarter of year',
  year: 'Year',
  'year-of-era': 'Year of era',
};

export function unitDisplayName(unit: string): string {
  return UNIT_NAMES[unit] ?? unit;
}

/** "Product ID" → "Product": how an FK field prefixes the fields reached through it. */
export function fkPrefix(fkDisplayName: string): string {
  return fkDisplayName.replace(/\s+ID$/i, '').replace(/_id$/i, '') || fkDisplayName;
}

const AGGREGATION_DISPLAY: Record<string, (arg: string) => string> = {
  count: (x) => (x ? `Count of ${x}` : 'Count'),
  'cum-count': (x) => (x ? `Cumulative count of ${x}` : 'Cumulative count'),
  sum: (x) => `Sum of ${x}`,
  'cum-sum': (x) => `Cumulative sum of ${x}`,
  avg: (x) => `Average of ${x}`,
  distinct: (x) => `Distinct values of ${x}`,
  min: (x) => `Min of ${x}`,
  max: (x) => `Max of ${x}`,
  median: (x) => `Median of ${x}`,
  stddev: (x) => `Standard deviation of ${x}`,
  var: (x) => `Variance of ${x}`,
  share: () => 'Share of rows matching condition',
  'count-where': () => 'Count of rows matching condition',
  'sum-where': (x) => `Sum of ${x} matching condition`,
  'distinct-where': (x) => `Distinct values of ${x} matching condition`,
};

export function aggregationDisplayName(name: string, argDisplay: string, percentile?: number): string {
  if (name === 'percentile') return `${formatPercent(percentile)}th percentile of ${argDisplay}`;
  const f = AGGREGATION_DISPLAY[name];
  return f ? f(argDisplay) : name;
}

function formatPercent(p: number | undefined): string {
  if (typeof p !== 'number') return '?';
  const n = Math.round(p * 100 * 1000) / 1000;
  return String(n);
}

/** Column `name` of an aggregation (reference §4.4). */
export function aggregationColumnName(name: string): string {
  switch (name) {
    case 'cum-sum':
      return 'sum';
    case 'cum-count':
    case 'distinct':
      return 'count';
    default:
      return name;
  }
}

export const OPERATOR_SYMBOLS: Record<string, string> = { '+': '+', '-': '−', '*': '×', '/': '÷' };
