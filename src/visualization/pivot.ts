// A pivot result (POST /api/dataset/pivot, /api/card/pivot/:id/query: every subtotal level of the query in one
// result, each row tagged with its `pivot-grouping` bitmask of the breakouts left out) → a cross table: the last
// breakout across (when there are two or more), the others down, each metric per cell, with row and column totals.
// Pure, so a server-side rendering can lay out the same table as the web app's pivot grid.

export interface PivotTable {
  /** Result indexes of the breakouts shown down the side, and of the one across (null with a single breakout). */
  rowDims: number[];
  colDim: number | null;
  metrics: number[];
  rowKeys: unknown[][];
  colKeys: unknown[];
  /** Metric values of (row key, column key); column key undefined = the row's total. */
  cell(rowKey: unknown[], colKey: unknown | undefined): unknown[] | undefined;
  /** Column totals (colKey), and the grand total (undefined). */
  total(colKey: unknown | undefined): unknown[] | undefined;
}

const keyOf = (values: unknown[]) => JSON.stringify(values);

export function pivotTable(cols: Array<{ name: string }>, rows: unknown[][]): PivotTable | null {
  const grouping = cols.findIndex((c) => c.name === 'pivot-grouping');
  if (grouping < 1) return null;
  const n = grouping;
  const metrics = cols.map((_, i) => i).filter((i) => i > grouping);
  const rowDims = n >= 2 ? [...Array(n - 1).keys()] : [0];
  const colDim = n >= 2 ? n - 1 : null;
  const all = 2 ** n - 1;
  const rowTotalMask = colDim === null ? -1 : 1 << colDim;
  const colTotalMask = colDim === null ? -1 : all & ~(1 << colDim);
  const cells = new Map<string, unknown[]>();
  const rowKeys = new Map<string, unknown[]>();
  const colKeys = new Map<string, unknown>();
  for (const row of rows) {
    const mask = Number(row[grouping]);
    const rk = rowDims.map((i) => row[i]);
    const ck = colDim === null ? undefined : row[colDim];
    const values = metrics.map((i) => row[i]);
    if (mask === 0) {
      rowKeys.set(keyOf(rk), rk);
      if (colDim !== null) colKeys.set(keyOf([ck]), ck);
      cells.set(keyOf([rk, colDim === null ? null : ck]), values);
    } else if (mask === rowTotalMask) cells.set(keyOf([rk, '∑']), values);
    else if (mask === colTotalMask) cells.set(keyOf(['∑', ck]), values);
    else if (mask === all) cells.set(keyOf(['∑', '∑']), values);
  }
  return {
    rowDims,
    colDim,
    metrics,
    rowKeys: [...rowKeys.values()],
    colKeys: [...colKeys.values()],
    cell: (rk, ck) => cells.get(keyOf([rk, ck === undefined ? (colDim === null ? null : '∑') : ck])),
    total: (ck) => cells.get(keyOf(['∑', ck === undefined ? '∑' : ck])),
  };
}
