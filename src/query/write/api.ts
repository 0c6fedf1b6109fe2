// The API JSON result (reference §4.3), streamed: `{"data":{"rows":[…` goes out as rows arrive, then the rest of
// `data` and the top-level keys. A query that fails mid-stream still ends in valid JSON, with `status: "failed"`.

import type { Out } from './out.js';
import type { FailedResult, ResultSink, ResultSummary } from './sink.js';
import type { Col } from '../results/annotate.js';

export class ApiJsonSink implements ResultSink {
  readonly valueMode = 'iso' as const;
  private cols: Col[] = [];
  private started = false;
  private first = true;

  constructor(
    private readonly out: Out,
    private readonly extraData: () => Record<string, unknown> = () => ({}),
  ) {}

  async start(cols: Col[]): Promise<void> {
    this.cols = cols;
    this.started = true;
    await this.out.write('{"data":{"rows":[');
  }

  async rows(batch: unknown[][]): Promise<void> {
    if (batch.length) await this.rowsJson(JSON.stringify(batch).slice(1, -1));
  }

  async rowsJson(json: string): Promise<void> {
    if (!json) return;
    await this.out.write(this.first ? json : ',' + json);
    this.first = false;
  }

  async finish(s: ResultSummary): Promise<void> {
    const data: Record<string, unknown> = {
      cols: this.cols,
      native_form: s.native_form,
      results_timezone: s.results_timezone,
      ...(s.requested_timezone ? { requested_timezone: s.requested_timezone } : {}),
      ...(s.results_metadata ? { results_metadata: s.results_metadata } : {}),
      insights: s.insights ?? null,
      ...(s.rows_truncated !== undefined ? { rows_truncated: s.rows_truncated } : {}),
      is_sandboxed: false,
      download_perms: s.download_perms,
      ...this.extraData(),
    };
    const top = {
      database_id: s.database_id,
      started_at: s.started_at,
      json_query: s.json_query,
      average_execution_time: s.average_execution_time ?? null,
      cached: s.cached ?? null,
      ...(s.cached ? { updated_at: s.cached } : {}),
      status: 'completed',
      context: s.context,
      row_count: s.row_count,
      running_time: s.running_time,
    };
    await this.out.write(`],${JSON.stringify(data).slice(1)},${JSON.stringify(top).slice(1)}`);
    await this.out.end();
  }

  async fail(error: FailedResult): Promise<void> {
    if (this.started) {
      await this.out.write(`],"cols":${JSON.stringify(this.cols)}},${JSON.stringify({ ...error, data: undefined }).slice(1)}`);
    } else {
      await this.out.write(JSON.stringify({ ...error, data: error.data ?? { rows: [], cols: [] } }));
    }
    await this.out.end();
  }
}
