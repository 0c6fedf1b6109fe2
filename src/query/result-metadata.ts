// The `result_metadata` a card is saved with when the client sends none — worked out as Metabase does, without
// running the query where possible: an MBQL query's columns come from the compiler's plan, its field columns carrying
// their field's fingerprint (aggregations have none). Native SQL, and MBQL whose plan has no columns or columns only
// the database knows, run with a one-row limit to learn their columns, unrecorded (their fingerprint would describe one
// row, so they have none either; the UI saves the metadata of the run the user saw, fingerprints included).

import type { AppContext } from '../context.js';
import { prepareQuery, type QueryRequest } from './pipeline.js';
import { executeInto } from './run.js';
import { mbqlCols, metadataColumn, type Col } from './results/annotate.js';
import type { FailedResult, ResultSink } from './write/sink.js';

/** Keeps the result's columns; the one row and the summary are not needed. */
class ColumnsSink implements ResultSink {
  readonly valueMode = 'iso' as const;
  cols: Col[] | null = null;
  failure: FailedResult | null = null;

  async start(cols: Col[]): Promise<void> {
    this.cols = cols;
  }

  async rows(): Promise<void> {}

  async finish(): Promise<void> {}

  async fail(error: FailedResult): Promise<void> {
    this.failure = error;
  }
}

const ONE_ROW = { 'max-results': 1, 'max-results-bare-rows': 1 };

/** The columns `request.query` returns, as `result_metadata` entries; null when the query fails. */
export async function resultMetadataOf(ctx: AppContext, request: QueryRequest): Promise<Record<string, unknown>[] | null> {
  const prepared = await prepareQuery(ctx, { ...request, constraints: ONE_ROW });
  const plan = prepared.columns;
  if (plan?.length && prepared.columnsKnown && plan.every((c) => c.base_type !== 'type/*')) {
    return mbqlCols(plan, []).map((c) => metadataColumn(c, c.fingerprint));
  }
  const sink = new ColumnsSink();
  const started = new Date();
  const outcome = await executeInto(ctx, prepared, sink, request.signal ?? new AbortController().signal, started, performance.now(), false);
  if (outcome.status !== 'completed' || !sink.cols) return null;
  return sink.cols.map((c) => metadataColumn(c, undefined));
}
