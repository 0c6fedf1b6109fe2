// Result columns as the visualizations see them: their kind (date, number, category), their effective formatting
// settings (global `custom-formatting` < the field's own `settings` < the card's `column_settings`), and their title.

import { isBoolean, isDate, isDateTime, isNumeric, isTime, isText } from '../query/compile/types.js';
import { columnSettings, columnTitle } from '../query/write/titles.js';
import type { Column, GlobalFormatting, VisualizationSettings } from './types.js';

export type ColumnSettings = Record<string, unknown>;

export function normalizeColumns(cols: Array<Record<string, unknown>>): Column[] {
  return cols.map((c, i) => {
    const name = typeof c.name === 'string' ? c.name : `column_${i + 1}`;
    const display = typeof c.display_name === 'string' && c.display_name ? c.display_name : name;
    const base = typeof c.effective_type === 'string' ? c.effective_type : typeof c.base_type === 'string' ? c.base_type : 'type/*';
    return { ...c, name, display_name: display, base_type: base };
  });
}

const EXTRACTION_UNITS = new Set([
  'minute-of-hour', 'hour-of-day', 'day-of-week', 'day-of-month', 'day-of-year', 'week-of-year', 'month-of-year', 'quarter-of-year',
]);

export function unitOf(col: Column): string | null {
  return typeof col.unit === 'string' && col.unit !== 'default' ? col.unit : null;
}

export const isExtraction = (col: Column): boolean => EXTRACTION_UNITS.has(unitOf(col) ?? '');

/** A date, date-time or time column (extraction units such as day-of-week are numbers, not dates). */
export function isTemporalColumn(col: Column): boolean {
  if (isExtraction(col)) return false;
  return isDate(col.base_type) || isDateTime(col.base_type) || isTime(col.base_type);
}

export const isTimeColumn = (col: Column): boolean => isTime(col.base_type);
export const isDateOnlyColumn = (col: Column): boolean => isDate(col.base_type);

function isKey(col: Column): boolean {
  return col.semantic_type === 'type/PK' || col.semantic_type === 'type/FK';
}

/** A number one can sum or plot on a value axis. */
export function isMetricColumn(col: Column): boolean {
  return isNumeric(col.base_type) && !isKey(col) && !isExtraction(col) && !col.binning_info;
}

/** A column that can label an axis: dates, text, booleans, keys, extraction units, binned numbers. */
export function isDimensionColumn(col: Column): boolean {
  return (
    isTemporalColumn(col) || isText(col.base_type) || isBoolean(col.base_type) || isKey(col) || isExtraction(col) || !!col.binning_info ||
    col.source === 'breakout'
  );
}

export const isNumberColumn = (col: Column): boolean => isNumeric(col.base_type);

function formattingGroupOf(col: Column): string[] {
  if (isTemporalColumn(col)) return ['type/Temporal'];
  if (isNumeric(col.base_type)) return col.semantic_type === 'type/Currency' ? ['type/Number', 'type/Currency'] : ['type/Number'];
  return [];
}

/** The formatting settings of a column, most specific last. */
export function settingsOf(col: Column, viz: VisualizationSettings, global?: GlobalFormatting): ColumnSettings {
  const merged: ColumnSettings = {};
  for (const group of formattingGroupOf(col)) Object.assign(merged, global?.[group] ?? {});
  if (col.semantic_type === 'type/Currency' && merged.number_style === undefined) merged.number_style = 'currency';
  if (col.settings && typeof col.settings === 'object') Object.assign(merged, col.settings);
  Object.assign(merged, columnSettings(col, viz) ?? {});
  return merged;
}

export function titleOf(col: Column, viz: VisualizationSettings): string {
  return columnTitle(col, viz);
}

/** Index of the column named `name` (a settings value), or -1. */
export function columnIndex(cols: Column[], name: unknown): number {
  return typeof name === 'string' ? cols.findIndex((c) => c.name === name) : -1;
}

/** A list of column names from the settings, kept only when every one exists. */
export function namedColumns(cols: Column[], names: unknown): number[] | null {
  if (!Array.isArray(names) || names.length === 0) return null;
  const indexes = names.map((n) => columnIndex(cols, n));
  return indexes.every((i) => i >= 0) ? indexes : null;
}
