// JSON downloads (reference §4.7): an array of objects keyed by column titles (as CSV headers, ./titles.ts), written
// `[\n{…},\n{…}\n]`, streamed batch by batch.

import type { Out } from './out.js';
import type { FailedResult, ResultSink, ResultSummary } from './sink.js';
import type { Col } from '../results/annotate.js';
import { exportLayout, type ExportLayout } from './titles.js';
import { UniqueNames } from '../compile/names.js';

export class JsonSink implements ResultSink {
  private keys: string[] = [];
  private indexes: number[] = [];
  private first = true;
  private started = false;

  constructor(
    private readonly out: Out,
    readonly valueMode: 'plain' | 'formatted',
    private readonly viz: Record<string, unknown> | null = null,
  ) {}

  async start(cols: Col[], layout?: ExportLayout): Promise<void> {
    this.started = true;
    const { indexes, titles } = layout ?? exportLayout(cols, this.viz);
    const unique = new UniqueNames();
    this.indexes = indexes;
    this.keys = titles.map((k) => JSON.stringify(unique.next(k)));
    await this.out.write('[');
  }

  async rows(batch: unknown[][]): Promise<void> {
    let text = '';
    for (const row of batch) {
      let obj = '{';
      for (let i = 0; i < this.keys.length; i++) obj += (i ? ',' : '') + this.keys[i] + ':' + (JSON.stringify(row[this.indexes[i]]) ?? 'null');
      text += (this.first ? '\n' : ',\n') + obj + '}';
      this.first = false;
    }
    await this.out.write(text);
  }

  async finish(_s: ResultSummary): Promise<void> {
    await this.out.write(this.first ? ']' : '\n]');
    await this.out.end();
  }

  async fail(error: FailedResult): Promise<void> {
    if (!this.started) await this.out.write(JSON.stringify(error));
    else await this.out.write(`${this.first ? '' : ',\n'}${JSON.stringify(error)}\n]`);
    await this.out.end();
  }
}
