// Trend ("smart scalar"): the latest value of `scalar.field` (else the first number) over a date column, the
// period it belongs to, and its change against each of `scalar.comparisons` — previousPeriod (the row one unit
// earlier: "vs. previous month"; the default when the date has a unit), periodsAgo ("vs. 3 months ago"),
// previousValue (the row before; the default otherwise), staticNumber and anotherColumn ("vs. <label>").
// Up is green and down red unless `scalar.switch_positive_negative`; a missing comparison row reads "N/A" /
// "(No data)", a change from zero "∞%". Without a date column the card shows as a table.

import type { DateTime } from 'luxon';
import { columnIndex, isMetricColumn, isNumberColumn, isTemporalColumn, unitOf } from '../columns.js';
import { numberOf, type VizContext } from '../context.js';
import { parseTemporal } from '../format/date.js';
import { formatNumber } from '../format/number.js';
import { COLORS } from '../palette.js';
import type { SmartScalarComparison, SmartScalarVisualization } from '../types.js';
import { scalarFormatter } from './scalar.js';

const DATE_UNITS = new Set(['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

interface Point {
  at: DateTime;
  row: unknown[];
}

type Comparison = Record<string, unknown>;

function comparisonsOf(ctx: VizContext, unit: string | null): Comparison[] {
  const listed = ctx.settings['scalar.comparisons'];
  const list = Array.isArray(listed) ? listed : listed && typeof listed === 'object' ? [listed] : [];
  const valid = list.filter((c): c is Comparison => !!c && typeof c === 'object' && typeof (c as Comparison).type === 'string');
  if (valid.length > 0) return valid;
  return [{ type: unit ? 'previousPeriod' : 'previousValue' }];
}

function wallClock(at: DateTime): string {
  return at.toFormat("yyyy-MM-dd'T'HH:mm");
}

function plural(unit: string, n: number): string {
  return n === 1 ? unit : `${unit}s`;
}

function changeOf(current: number, previous: number): { change: string; direction: SmartScalarComparison['direction'] } {
  if (current === previous) return { change: 'No change', direction: 'none' };
  if (previous === 0) return { change: '∞%', direction: current > 0 ? 'up' : 'down' };
  const ratio = (current - previous) / Math.abs(previous);
  return { change: formatNumber(Math.abs(ratio), { number_style: 'percent' }), direction: ratio > 0 ? 'up' : 'down' };
}

export function describeSmartScalar(ctx: VizContext): SmartScalarVisualization | null {
  const dateColumn = ctx.cols.findIndex((c) => isTemporalColumn(c));
  const named = columnIndex(ctx.cols, ctx.settings['scalar.field']);
  const metric = named >= 0 && isNumberColumn(ctx.cols[named]) ? named : ctx.cols.findIndex((c) => isMetricColumn(c));
  if (dateColumn < 0 || metric < 0) return null;
  const unit = unitOf(ctx.cols[dateColumn]);
  const periodUnit = unit && DATE_UNITS.has(unit) ? unit : null;
  const points: Point[] = [];
  for (const row of ctx.rows) {
    const at = parseTemporal(row[dateColumn], ctx.options.timezone);
    if (at) points.push({ at, row });
  }
  if (points.length === 0) return null;
  points.sort((a, b) => a.at.toMillis() - b.at.toMillis());
  const current = points[points.length - 1];
  const format = scalarFormatter(ctx, metric);
  const currentValue = numberOf(current.row[metric]);
  const compact = ctx.settings['scalar.compact_primary_number'] === true;
  const swap = ctx.settings['scalar.switch_positive_negative'] === true;
  const colorOf = (direction: SmartScalarComparison['direction']) =>
    direction === 'up' ? (swap ? COLORS.error : COLORS.success) : direction === 'down' ? (swap ? COLORS.success : COLORS.error) : COLORS.textMedium;

  const periodsBack = (n: number): number | null => {
    if (!periodUnit) return null;
    // Compared by wall-clock time: across a DST change the earlier bucket has another UTC offset.
    const target = wallClock(current.at.minus({ [`${periodUnit}s`]: n }));
    const found = points.find((p) => wallClock(p.at) === target);
    return found ? numberOf(found.row[metric]) : null;
  };
  const previousValue = (): number | null => {
    for (let i = points.length - 2; i >= 0; i--) {
      const v = numberOf(points[i].row[metric]);
      if (v !== null) return v;
    }
    return null;
  };

  const comparisons = comparisonsOf(ctx, periodUnit).map((c): SmartScalarComparison => {
    let label: string;
    let previous: number | null;
    switch (c.type) {
      case 'periodsAgo': {
        const n = typeof c.value === 'number' && c.value >= 1 ? Math.floor(c.value) : 1;
        label = periodUnit ? `vs. ${n} ${plural(periodUnit, n)} ago` : 'vs. previous value';
        previous = periodUnit ? periodsBack(n) : previousValue();
        break;
      }
      case 'staticNumber':
        label = `vs. ${typeof c.label === 'string' && c.label ? c.label : 'Goal'}`;
        previous = numberOf(c.value);
        break;
      case 'anotherColumn': {
        const other = columnIndex(ctx.cols, c.column);
        label = `vs. ${typeof c.label === 'string' && c.label ? c.label : other >= 0 ? ctx.title(other) : String(c.column)}`;
        previous = other >= 0 ? numberOf(current.row[other]) : null;
        break;
      }
      case 'previousValue':
        label = 'vs. previous value';
        previous = previousValue();
        break;
      default:
        label = periodUnit ? `vs. previous ${periodUnit}` : 'vs. previous value';
        previous = periodUnit ? periodsBack(1) : previousValue();
    }
    if (previous === null || currentValue === null) return { label, change: 'N/A', direction: 'missing', previous: '(No data)', color: COLORS.textMedium };
    const { change, direction } = changeOf(currentValue, previous);
    return { label, change, direction, previous: format(previous, { compact }), color: colorOf(direction) };
  });

  return {
    kind: 'smartscalar',
    value: currentValue === null ? 'N/A' : format(currentValue, { compact }),
    period: ctx.format(dateColumn)(current.row[dateColumn], { abbreviateDates: true }) || null,
    comparisons,
  };
}
