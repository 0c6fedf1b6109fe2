// XLSX downloads (reference §4.7) with exceljs's streaming WorkbookWriter: one sheet "Query result", a frozen
// header row of display names, typed cells (numbers, booleans, dates with a date/time format). Rows are committed
// as they arrive and the writer waits for the socket to drain, so memory stays flat however many rows there are.

import ExcelJS from 'exceljs';
import type { Out } from './out.js';
import type { FailedResult, ResultSink, ResultSummary } from './sink.js';
import type { Col } from '../results/annotate.js';
import { exportLayout, type ExportLayout } from './titles.js';
import { isDate, isDateTime, isTime } from '../compile/types.js';

const LOCAL = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?)?(Z|[+-]\d\d:?\d\d)?$/;

/** The most characters an Excel cell holds: a longer text makes Excel report the whole file as damaged. */
export const EXCEL_CELL_MAX = 32_767;

/** Text as a cell can hold it: cut to EXCEL_CELL_MAX characters (never half of a surrogate pair). */
function excelText(text: string): string {
  if (text.length <= EXCEL_CELL_MAX) return text;
  const cut = text.slice(0, EXCEL_CELL_MAX);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A temporal value's wall-clock fields as a Date read in UTC (what Excel shows, without zone). */
function wallClock(value: string): Date | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), Number((m[7] ?? '0').slice(0, 3).padEnd(3, '0'))));
}

export class XlsxSink implements ResultSink {
  readonly valueMode = 'plain' as const;
  private workbook: ExcelJS.stream.xlsx.WorkbookWriter | null = null;
  private sheet: ExcelJS.Worksheet | null = null;
  private kinds: Array<'date' | 'datetime' | 'time' | 'other'> = [];
  private widthsSet = false;
  private titles: string[] = [];
  private indexes: number[] = [];

  constructor(
    private readonly out: Out,
    private readonly viz: Record<string, unknown> | null = null,
  ) {}

  async start(cols: Col[], layout?: ExportLayout): Promise<void> {
    this.out.begin();
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: this.out.stream, useStyles: true, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet('Query result', { views: [{ state: 'frozen', ySplit: 1 }] });
    const { indexes, titles } = layout ?? exportLayout(cols, this.viz);
    this.indexes = indexes;
    this.titles = titles;
    this.kinds = indexes.map((i) => {
      const c = cols[i];
      return isDate(c.base_type) ? 'date' : isDateTime(c.base_type) ? 'datetime' : isTime(c.base_type) ? 'time' : 'other';
    });
  }

  /** Column widths from the header and the first batch (they must be set before the first row is written). */
  private setWidths(batch: unknown[][]): void {
    const widths = this.titles.map((t) => t.length);
    for (const row of batch.slice(0, 200)) {
      this.indexes.forEach((index, i) => {
        const v = row[index];
        const len = v === null || v === undefined ? 0 : String(v).length;
        if (len > widths[i]) widths[i] = len;
      });
    }
    this.sheet!.columns = this.titles.map((t, i) => ({ key: String(i), width: Math.min(60, Math.max(8, widths[i] + 2)) }));
    const header = this.sheet!.addRow(this.titles);
    header.font = { bold: true };
    header.commit();
    this.widthsSet = true;
  }

  async rows(batch: unknown[][]): Promise<void> {
    if (!this.widthsSet) this.setWidths(batch);
    const sheet = this.sheet!;
    for (const values of batch) {
      const row = sheet.addRow(
        this.indexes.map((index, i) => {
          const v = values[index];
          const kind = this.kinds[i];
          if (typeof v === 'string' && (kind === 'date' || kind === 'datetime')) return wallClock(v) ?? v;
          const value = v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
          return typeof value === 'string' ? excelText(value) : value;
        }),
      );
      this.kinds.forEach((kind, i) => {
        if (kind === 'date') row.getCell(i + 1).numFmt = 'yyyy-mm-dd';
        else if (kind === 'datetime') row.getCell(i + 1).numFmt = 'yyyy-mm-dd hh:mm:ss';
      });
      row.commit();
    }
    if (this.out.stream.writableNeedDrain) await this.out.drained();
  }

  async finish(_s: ResultSummary): Promise<void> {
    if (!this.widthsSet) this.setWidths([]);
    await this.sheet!.commit();
    await this.workbook!.commit();
  }

  async fail(error: FailedResult): Promise<void> {
    if (!this.workbook) {
      await this.out.write(JSON.stringify(error));
      await this.out.end();
      return;
    }
    if (!this.widthsSet) this.setWidths([]);
    const row = this.sheet!.addRow([`Error: ${error.error}`]);
    row.commit();
    await this.sheet!.commit();
    await this.workbook.commit();
  }
}
