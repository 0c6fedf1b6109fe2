// CSV downloads (reference §4.7): a header of display names, RFC 4180 quoting, `\n` line endings, nulls as empty
// fields; streamed batch by batch.

import type { Out } from './out.js';
import type { FailedResult, ResultSink, ResultSummary } from './sink.js';
import type { Col } from '../results/annotate.js';
import { columnTitles } from './titles.js';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return NEEDS_QUOTES.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export class CsvSink implements ResultSink {
  private started = false;

  constructor(
    private readonly out: Out,
    readonly valueMode: 'plain' | 'formatted',
  ) {}

  async start(cols: Col[]): Promise<void> {
    this.started = true;
    await this.out.write(columnTitles(cols).map(csvField).join(',') + '\n');
  }

  async rows(batch: unknown[][]): Promise<void> {
    let text = '';
    for (const row of batch) {
      let line = '';
      for (let i = 0; i < row.length; i++) line += (i ? ',' : '') + csvField(row[i]);
      text += line + '\n';
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
