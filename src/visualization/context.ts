// What every visualization builder gets: the normalized columns and rows, the card's settings, and ready formatters
// for each column (so that one value reads the same everywhere).

import { normalizeColumns, settingsOf, titleOf, type ColumnSettings } from './columns.js';
import { columnFormatter, type ColumnFormatter } from './format/value.js';
import type { Column, DescribeOptions, VisualizationInput, VisualizationSettings } from './types.js';

export interface VizContext {
  display: string;
  settings: VisualizationSettings;
  cols: Column[];
  rows: unknown[][];
  options: DescribeOptions;
  /** Formatting settings of column i. */
  columnSettings(i: number): ColumnSettings;
  /** Formatter of column i. */
  format(i: number): ColumnFormatter;
  /** Title of column i (`column_title` or display name). */
  title(i: number): string;
}

export function vizContext(input: VisualizationInput, options: DescribeOptions): VizContext {
  const cols = normalizeColumns(input.cols);
  const settings = input.settings ?? {};
  const settingsCache = new Map<number, ColumnSettings>();
  const formatCache = new Map<number, ColumnFormatter>();
  const columnSettings = (i: number): ColumnSettings => {
    let s = settingsCache.get(i);
    if (!s) {
      s = settingsOf(cols[i], settings, options.formatting);
      settingsCache.set(i, s);
    }
    return s;
  };
  return {
    display: input.display,
    settings,
    cols,
    rows: input.rows,
    options,
    columnSettings,
    format(i) {
      let f = formatCache.get(i);
      if (!f) {
        f = columnFormatter(cols[i], columnSettings(i), { timezone: options.timezone, startOfWeek: options.startOfWeek });
        formatCache.set(i, f);
      }
      return f;
    },
    title: (i) => titleOf(cols[i], settings),
  };
}

/** A setting of the card, if it has the expected type. */
export function setting<T extends string | number | boolean>(ctx: VizContext, key: string, type: 'string' | 'number' | 'boolean'): T | undefined {
  const v = ctx.settings[key];
  if (type === 'number' && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v) as T;
  return typeof v === type && (type !== 'number' || Number.isFinite(v as number)) ? (v as T) : undefined;
}

/** A number from a row value (numbers and numeric text), else null. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
