// One value of one column as text: dates by unit, numbers by their settings, keys as plain digits, the rest as
// text. The single entry point the visualizations use, so that a table cell, an axis label and a legend entry of
// the same value read the same.

import { isExtraction, isNumberColumn, isDateOnlyColumn, isTemporalColumn, isTimeColumn, unitOf, type ColumnSettings } from '../columns.js';
import type { Column } from '../types.js';
import { formatBigInteger, formatNumber } from './number.js';
import { formatExtraction, formatTemporal, type DateFormatContext } from './date.js';

export interface ValueFormatOptions {
  compact?: boolean;
  /** Tables: the currency symbol goes in the header. */
  currencyInHeader?: boolean;
  /** Axes: months and days abbreviated unless the settings say otherwise. */
  abbreviateDates?: boolean;
}

export interface ColumnFormatter {
  (value: unknown, options?: ValueFormatOptions): string;
}

const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function isKeyColumn(col: Column): boolean {
  return col.semantic_type === 'type/PK' || col.semantic_type === 'type/FK';
}

/** A formatter for one column's values. */
export function columnFormatter(col: Column, settings: ColumnSettings, ctx: DateFormatContext): ColumnFormatter {
  const unit = unitOf(col);
  if (isTemporalColumn(col)) {
    const temporal = { unit, dateOnly: isDateOnlyColumn(col), timeOnly: isTimeColumn(col) };
    return (value, options = {}) => formatTemporal(value, temporal, settings, ctx, options.abbreviateDates === true);
  }
  const numeric = isNumberColumn(col);
  return (value, options = {}) => {
    if (value === null || value === undefined) return '';
    // Integers beyond 2^53 arrive as text (js-int-to-string); they are formatted as numbers too.
    if (typeof value === 'number' || (typeof value === 'string' && numeric && NUMBER_TEXT.test(value))) {
      const n = typeof value === 'number' ? value : Number(value);
      if (typeof value === 'string' && /^-?\d+$/.test(value) && !Number.isSafeInteger(n) && !isKeyColumn(col) && !unit) {
        return formatBigInteger(value, settings, { compact: options.compact, currencyInHeader: options.currencyInHeader });
      }
      if (unit && isExtraction(col)) {
        const named = formatExtraction(n, unit, settings, ctx);
        if (named !== null) return named;
        return String(n);
      }
      if (isKeyColumn(col) || (unit === 'year' && Number.isInteger(n))) return String(value);
      return formatNumber(n, settings, { compact: options.compact, currencyInHeader: options.currencyInHeader });
    }
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  };
}
