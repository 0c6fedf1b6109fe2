// A single number (or value): the first row's value of `scalar.field` (else the first number column, else the first
// column), formatted with its column settings; the older card-level `scalar.prefix`, `scalar.suffix`,
// `scalar.decimals` and `scalar.scale` still apply. `scalar.compact_primary_number` shows 1.2k instead of 1,234.

import { columnIndex, isNumberColumn, type ColumnSettings } from '../columns.js';
import type { VizContext } from '../context.js';
import { columnFormatter } from '../format/value.js';
import type { ScalarVisualization } from '../types.js';

export function scalarColumn(ctx: VizContext): number {
  const named = columnIndex(ctx.cols, ctx.settings['scalar.field']);
  if (named >= 0) return named;
  const number = ctx.cols.findIndex((c) => isNumberColumn(c) && c.semantic_type !== 'type/PK' && c.semantic_type !== 'type/FK');
  return number >= 0 ? number : 0;
}

/** Column settings with the card-level scalar.* overrides laid over them. */
export function scalarSettings(ctx: VizContext, column: number): ColumnSettings {
  const merged: ColumnSettings = { ...ctx.columnSettings(column) };
  for (const key of ['prefix', 'suffix', 'decimals', 'scale']) {
    const v = ctx.settings[`scalar.${key}`];
    if (v !== undefined && v !== null && v !== '') merged[key] = v;
  }
  return merged;
}

export function scalarFormatter(ctx: VizContext, column: number) {
  return columnFormatter(ctx.cols[column], scalarSettings(ctx, column), { timezone: ctx.options.timezone, startOfWeek: ctx.options.startOfWeek });
}

export function describeScalar(ctx: VizContext): ScalarVisualization {
  const column = scalarColumn(ctx);
  const value = ctx.rows[0]?.[column] ?? null;
  const format = scalarFormatter(ctx, column);
  const fullValue = format(value);
  const compact = ctx.settings['scalar.compact_primary_number'] === true && typeof value === 'number';
  return { kind: 'scalar', value: compact ? format(value, { compact: true }) : fullValue, fullValue };
}
