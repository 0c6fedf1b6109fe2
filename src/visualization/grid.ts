// A results grid's view of a result (the web app's scrolling table of every row): the same columns, titles,
// formatting and `table.column_formatting` colours as the table visualization, but per cell and on demand, so a
// grid of thousands of rows formats only the rows on screen. Sorting compares the raw values.

import { vizContext } from './context.js';
import { painter, tableColumns, type TableColumn } from './table.js';
import type { DescribeOptions, VisualizationInput } from './types.js';

export interface GridColumn extends TableColumn {
  /** The column's value as the table shows it. */
  format(value: unknown): string;
}

export interface Grid {
  columns: GridColumn[];
  /** The background of a cell (`table.column_formatting`), if any. */
  background(row: unknown[], index: number): string | undefined;
}

export function describeGrid(input: VisualizationInput, options: DescribeOptions): Grid {
  const ctx = vizContext({ ...input, display: 'table', settings: input.settings ?? {} }, options);
  const paint = painter(ctx);
  const columns = tableColumns(ctx).map((c) => {
    const format = ctx.format(c.index);
    return { ...c, format: (value: unknown) => format(value, { currencyInHeader: c.currencyInHeader }) };
  });
  return { columns, background: (row, index) => paint(row, index) ?? paint.rowColor(row) };
}

/** Orders two cell values: nulls last, numbers (and numeric text) by value, the rest as text. */
export function compareValues(a: unknown, b: unknown): number {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const an = typeof a === 'string' && a.trim() !== '' ? Number(a) : NaN;
  const bn = typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN;
  if (Number.isFinite(an) && Number.isFinite(bn)) return an - bn;
  const as = typeof a === 'object' ? JSON.stringify(a) : String(a);
  const bs = typeof b === 'object' ? JSON.stringify(b) : String(b);
  return as < bs ? -1 : as > bs ? 1 : 0;
}

/** Row order for a sort on one result column, nulls last either way (a stable sort: equal rows keep their order). */
export function sortedRowOrder(rows: unknown[][], index: number, direction: 'asc' | 'desc'): number[] {
  const order = rows.map((_, i) => i);
  const sign = direction === 'asc' ? 1 : -1;
  const isNull = (v: unknown) => v === null || v === undefined;
  order.sort((x, y) => {
    const a = rows[x][index];
    const b = rows[y][index];
    if (isNull(a) || isNull(b)) return Number(isNull(a)) - Number(isNull(b)) || x - y;
    return sign * compareValues(a, b) || x - y;
  });
  return order;
}
