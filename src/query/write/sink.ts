// What every result writer implements. The runner (../run.ts) calls `start` once the columns are known, `rows` for
// each batch of converted rows, then `finish` or `fail`. `fail` may come before `start` (the query never ran) or
// after some rows (it broke mid-stream); each format ends its output as validly as it can.

import type { Col } from '../results/annotate.js';
import type { ExportLayout } from './titles.js';

export interface ResultSummary {
  row_count: number;
  running_time: number;
  started_at: string;
  database_id: number;
  context: string;
  json_query: Record<string, unknown>;
  native_form: { query: string; params: unknown[] | null };
  results_timezone: string;
  requested_timezone?: string;
  results_metadata?: { columns: Record<string, unknown>[] };
  /** Time-series insights (./results/insights.ts): null when the result isn't one. */
  insights?: Record<string, unknown>[] | null;
  rows_truncated?: number;
  download_perms: 'full' | 'limited' | 'none';
  /** A result served from the result cache: when it was stored (ISO); absent or null for a fresh run. */
  cached?: string | null;
  /** The query's average running time (ms), reported with cached results. */
  average_execution_time?: number | null;
}

export interface FailedResult {
  status: 'failed' | 'interrupted';
  error: string;
  error_type: string;
  [key: string]: unknown;
}

export interface ResultSink {
  /** Values of temporal columns: ISO with offset (API), or unformatted/formatted for downloads. */
  readonly valueMode: 'iso' | 'plain' | 'formatted';
  /**
   * Downloads lay their columns out from the visualization settings (./titles.ts); a `layout` given here is used
   * as it is instead (the pivoted table of ./pivot-table.ts). API writers ignore it.
   */
  start(cols: Col[], layout?: ExportLayout): Promise<void>;
  rows(batch: unknown[][]): Promise<void>;
  /**
   * API JSON writers also take rows already written as JSON (array elements without the brackets, as
   * RowProcessor.json writes them), so rows converted where the engine reads them are written as they come.
   */
  rowsJson?(json: string): Promise<void>;
  finish(summary: ResultSummary): Promise<void>;
  fail(error: FailedResult): Promise<void>;
}
