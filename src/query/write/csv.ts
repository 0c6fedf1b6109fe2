// CSV downloads (reference §4.7): a header of column titles (display names, or the visualization settings' titles
// and column order — ./titles.ts), RFC 4180 quoting, `\n` line endings, nulls as empty fields; streamed batch by batch.

import type { Out } from './out.js';
import type { FailedResult, ResultSink, ResultSummary } from './sink.js';
import type { Col } from '../results/annotate.js';
import { exportLayout, type ExportLayout } from './titles.js';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(v: unknown): string {
  // Strings and numbers first: nearly every value of a large export is one or the other, and a number never needs quotes.
  if (typeof v === 'string') return NEEDS_QUOTES.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  if (typeof v === 'number') return String(v);
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return NEEDS_QUOTES.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export class CsvSink implements ResultSink {
  private started = false;
  private indexes: number[] = [];

  constructor(
    private readonly out: Out,
    readonly valueMode: 'plain' | 'formatted',
    private readonly viz: Record<string, unknown> | null = null,
  ) {}

  async start(cols: Col[], layout?: ExportLayout): Promise<void> {
    this.started = true;
    const { indexes, titles } = layout ?? exportLayout(cols, this.viz);
    this.indexes = indexes;
    await this.out.write(titles.map(csvField).join(',') + '\n');
  }

  async rows(batch: unknown[][]): Promise<void> {
    const indexes = this.indexes;
    let text = '';
    const n = indexes.length;
    for (const row of batch) {
      if (n) text += csvField(row[indexes[0]]);
      for (let k = 1; k < n; k++) text += ',' + csvField(row[indexes[k]]);
      text += '\n';
    }
    await this.out.write(text);
  }

  async finish(_s: ResultSummary): Promise<void> {
    await this.out.end();
  }

  async fail(error: FailedResult): Promise<void> {
    await this.out.write((this.started ? '\n' : '') + JSON.stringify(error));
    await this.out.end();
  }
}
