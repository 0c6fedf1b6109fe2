// Pivoted downloads (`pivot_results=true`, reference §4.7): the table as the pivot visualization shows it, not the
// pivot result's rows. Header rows carry the values of the pivot columns (one row per column breakout, plus a row
// of measure names when there are several measures); then one row per value of the pivot rows, with a cell per
// column value × measure and the row totals on the right; subtotal rows ("Totals for X") after each group of an outer
// row breakout; a "Grand totals" row at the bottom.
//
// The pivot result arrives as rows of every subtotal level, tagged with `pivot-grouping` (../pivot.ts). A pivot
// result is aggregated and its size bounded, so this writer holds it in memory and lays the table out at the end,
// then hands it to the real writer (CSV, JSON, XLSX) with an explicit layout.

import type { Col } from '../results/annotate.js';
import type { FailedResult, ResultSink, ResultSummary } from './sink.js';
import { columnTitle } from './titles.js';
import { groupingBitmask } from '../pivot-levels.js';

/** A pivoted download holds at most this many result rows in memory. */
export const MAX_PIVOT_EXPORT_ROWS = 200_000;

export interface PivotTableOptions {
  breakoutCount: number;
  /** Breakout indexes shown as rows, outermost first. */
  rows: number[];
  /** Breakout indexes shown as columns, outermost first. */
  cols: number[];
  viz: Record<string, unknown> | null;
}

const key = (values: unknown[]) => JSON.stringify(values);

export class PivotTableSink implements ResultSink {
  readonly valueMode: ResultSink['valueMode'];
  private cols: Col[] = [];
  /** Rows of each level, by `pivot-grouping` bitmask. */
  private readonly levels = new Map<number, unknown[][]>();
  private held = 0;
  private failed = false;

  constructor(
    private readonly target: ResultSink,
    private readonly options: PivotTableOptions,
  ) {
    this.valueMode = target.valueMode;
  }

  async start(cols: Col[]): Promise<void> {
    this.cols = cols;
  }

  async rows(batch: unknown[][]): Promise<void> {
    if (this.failed) return;
    const n = this.options.breakoutCount;
    this.held += batch.length;
    if (this.held > MAX_PIVOT_EXPORT_ROWS) {
      this.failed = true;
      throw new Error(`This pivot table is too large to download pivoted (more than ${MAX_PIVOT_EXPORT_ROWS} rows); download it without pivoting.`);
    }
    for (const row of batch) {
      const mask = Number(row[n]);
      const list = this.levels.get(mask);
      if (list) list.push(row);
      else this.levels.set(mask, [row]);
    }
  }

  async finish(summary: ResultSummary): Promise<void> {
    const { titles, header, body } = this.table();
    const width = titles.length;
    const cols: Col[] = titles.map((t, i) => ({ name: `c${i}`, display_name: t, base_type: 'type/*' }));
    await this.target.start(cols, { indexes: [...Array(width).keys()], titles });
    if (header.length || body.length) await this.target.rows([...header, ...body]);
    await this.target.finish({ ...summary, row_count: body.length });
  }

  async fail(error: FailedResult): Promise<void> {
    await this.target.fail(error);
  }

  /** The whole table: the first header row (the file's header), further header rows, and the body. */
  private table(): { titles: string[]; header: unknown[][]; body: unknown[][] } {
    const { breakoutCount: n, rows: R, cols: C, viz } = this.options;
    const measures = this.cols.slice(n + 1).map((_, i) => n + 1 + i);
    const showRowTotals = viz?.['pivot.show_row_totals'] !== false && C.length > 0;
    const showColumnTotals = viz?.['pivot.show_column_totals'] !== false;
    const title = (i: number) => columnTitle(this.cols[i], viz);

    // Each level's rows by the values of the breakouts it keeps (in breakout order).
    const index = new Map<number, Map<string, unknown[]>>();
    const level = (kept: number[]) => {
      const mask = groupingBitmask(n, kept);
      let byKey = index.get(mask);
      if (!byKey) {
        byKey = new Map();
        const sorted = [...kept].sort((a, b) => a - b);
        for (const row of this.levels.get(mask) ?? []) byKey.set(key(sorted.map((b) => row[b])), row);
        index.set(mask, byKey);
      }
      return byKey;
    };
    /** The row of the level keeping `assignment`'s breakouts with those values. */
    const lookup = (assignment: Map<number, unknown>): unknown[] | undefined => {
      const kept = [...assignment.keys()].sort((a, b) => a - b);
      return level(kept).get(key(kept.map((b) => assignment.get(b))));
    };
    const assign = (idx: number[], values: unknown[], base = new Map<number, unknown>()) => {
      const m = new Map(base);
      idx.forEach((b, i) => m.set(b, values[i]));
      return m;
    };

    // Row and column values in the order the subtotal queries return them (ordered by those breakouts).
    const distinct = (idx: number[]): unknown[][] => {
      const seen = new Set<string>();
      const out: unknown[][] = [];
      const source = this.levels.get(groupingBitmask(n, idx)) ?? [];
      for (const row of source) {
        const values = idx.map((b) => row[b]);
        const k = key(values);
        if (!seen.has(k)) {
          seen.add(k);
          out.push(values);
        }
      }
      return out;
    };
    const rowKeys = R.length ? distinct(R) : [];
    const colKeys = C.length ? distinct(C) : [[]];

    const labelWidth = Math.max(R.length, 1);
    const cellsOf = (base: Map<number, unknown>): unknown[] => {
      const out: unknown[] = [];
      for (const ck of colKeys) {
        const row = lookup(assign(C, ck, base));
        for (const m of measures) out.push(row ? row[m] : null);
      }
      if (showRowTotals) {
        const row = lookup(base);
        for (const m of measures) out.push(row ? row[m] : null);
      }
      return out;
    };

    // Header rows.
    const headerRows: unknown[][] = [];
    const valueHeader = (j: number) => {
      const out: unknown[] = [];
      for (const ck of colKeys) for (const _ of measures) out.push(ck[j] === null || ck[j] === undefined ? '' : String(ck[j]));
      return out;
    };
    const totalsHeader = (label: string) => (showRowTotals ? measures.map(() => label) : []);
    const rowNames = R.length ? R.map(title) : [''];
    if (C.length === 0) {
      headerRows.push([...rowNames, ...measures.map(title)]);
    } else {
      const withMeasureRow = measures.length > 1;
      C.forEach((_, j) => {
        const last = j === C.length - 1 && !withMeasureRow;
        headerRows.push([...(last ? rowNames : rowNames.map(() => '')), ...valueHeader(j), ...totalsHeader(j === 0 ? 'Row totals' : '')]);
      });
      if (withMeasureRow) {
        const names = measures.map(title);
        headerRows.push([...rowNames, ...colKeys.flatMap(() => names), ...(showRowTotals ? names : [])]);
      }
    }

    // Body: rows, subtotal rows after each outer group, grand totals.
    const body: unknown[][] = [];
    const subtotal = (prefix: unknown[]) => {
      const labels: unknown[] = new Array(labelWidth).fill(null);
      prefix.forEach((v, i) => (labels[i] = v));
      const last = prefix.length - 1;
      labels[last] = `Totals for ${prefix[last] === null || prefix[last] === undefined ? '' : String(prefix[last])}`;
      body.push([...labels, ...cellsOf(assign(R.slice(0, prefix.length), prefix))]);
    };
    let previous: unknown[] | null = null;
    const closeGroups = (next: unknown[] | null) => {
      if (!previous || !showColumnTotals) return;
      for (let depth = R.length - 1; depth >= 1; depth--) {
        const prefix = previous.slice(0, depth);
        if (next && key(next.slice(0, depth)) === key(prefix)) break;
        subtotal(prefix);
      }
    };
    for (const rk of rowKeys) {
      closeGroups(rk);
      body.push([...rk, ...cellsOf(assign(R, rk))]);
      previous = rk;
    }
    closeGroups(null);
    // Without row breakouts the grand totals are the table's only row.
    if (showColumnTotals || R.length === 0) {
      const labels: unknown[] = new Array(labelWidth).fill(null);
      labels[0] = 'Grand totals';
      body.push([...labels, ...cellsOf(new Map())]);
    }

    const [first, ...rest] = headerRows;
    return { titles: first.map((t) => String(t ?? '')), header: rest, body };
  }
}
