// Pivot-table results (`/api/dataset/pivot`, pivot downloads): the query once per subtotal level (./pivot-levels.ts),
// all streamed as one result. Each row carries a `pivot-grouping` column: a bitmask of the breakouts left out of the
// row's level (0 for the full breakdown, 2^n − 1 for the grand total). CSV, JSON and XLSX downloads get the pivoted
// table the visualization shows instead (./write/pivot-table.ts).

import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { HANDLED } from '../http/route.js';
import type { QueryRequest } from './pipeline.js';
import { normalizeQuery } from './mbql/normalize.js';
import type { Clause, DatasetQuery } from './mbql/types.js';
import { openReply, prepareForReply, executeStage, record, runQuery, runQueryToFile, failBeforeRunning, fileOutput, type ExportedFile, type OpenReply, type Outcome } from './run.js';
import { groupingBitmask, pivotLevels } from './pivot-levels.js';
import { PivotTableSink } from './write/pivot-table.js';
import { normalizeFieldish } from './mbql/normalize.js';
import { sameRef } from './mbql/clauses.js';
import type { Col } from './results/annotate.js';
import type { FailedResult, ResultSink, ResultSummary } from './write/sink.js';

export { pivotLevels, groupingBitmask } from './pivot-levels.js';

const PIVOT_GROUPING_COL: Col = {
  name: 'pivot-grouping',
  display_name: 'pivot-grouping',
  base_type: 'type/Integer',
  effective_type: 'type/Integer',
  semantic_type: null,
  source: 'breakout',
  field_ref: ['expression', 'pivot-grouping'],
};

/** Forwards one level's rows to the real writer, widened to every breakout plus `pivot-grouping`. */
class LevelSink implements ResultSink {
  readonly valueMode: ResultSink['valueMode'];

  constructor(
    private readonly target: ResultSink,
    private readonly state: { started: boolean; failed: boolean; rows: number; cols: Col[] | null },
    private readonly breakoutCount: number,
    private readonly kept: number[],
    private readonly last: boolean,
  ) {
    this.valueMode = target.valueMode;
  }

  async start(cols: Col[]): Promise<void> {
    if (this.state.started) return;
    this.state.started = true;
    const full = [...cols.slice(0, this.breakoutCount), PIVOT_GROUPING_COL, ...cols.slice(this.breakoutCount)];
    this.state.cols = full;
    await this.target.start(full);
  }

  async rows(batch: unknown[][]): Promise<void> {
    const mask = groupingBitmask(this.breakoutCount, this.kept);
    const k = this.kept.length;
    const widened = batch.map((row) => {
      const out: unknown[] = new Array(this.breakoutCount).fill(null);
      this.kept.forEach((b, j) => {
        out[b] = row[j];
      });
      out.push(mask);
      for (let i = k; i < row.length; i++) out.push(row[i]);
      return out;
    });
    this.state.rows += widened.length;
    await this.target.rows(widened);
  }

  async finish(summary: ResultSummary): Promise<void> {
    if (!this.last) return;
    await this.target.finish({ ...summary, row_count: this.state.rows, rows_truncated: undefined, results_metadata: undefined });
  }

  async fail(error: FailedResult): Promise<void> {
    this.state.failed = true;
    await this.target.fail(error);
  }
}

/**
 * The pivot table's rows and columns for a pivoted download: those asked for, else the visualization settings'
 * `pivot_table.column_split`, else every breakout but the last as rows and the last as the column. Breakouts in
 * neither go to the rows.
 */
function downloadSplit(breakouts: Clause[], request: QueryRequest): { rows: number[]; cols: number[] } {
  let rows = request.pivot?.rows ?? [];
  let cols = request.pivot?.cols ?? [];
  if (!rows.length && !cols.length) {
    const split = request.visualizationSettings?.['pivot_table.column_split'] as { rows?: unknown; columns?: unknown } | undefined;
    const indexOf = (ref: unknown) => {
      const normalized = normalizeFieldish(ref);
      return breakouts.findIndex((b) => sameRef(b, normalized));
    };
    if (split && typeof split === 'object') {
      rows = (Array.isArray(split.rows) ? split.rows : []).map(indexOf).filter((i) => i >= 0);
      cols = (Array.isArray(split.columns) ? split.columns : []).map(indexOf).filter((i) => i >= 0);
    }
  }
  if (!rows.length && !cols.length) {
    rows = breakouts.length > 1 ? [...breakouts.keys()].slice(0, -1) : [0];
    cols = breakouts.length > 1 ? [breakouts.length - 1] : [];
  }
  const rest = [...breakouts.keys()].filter((i) => Number.isInteger(i) && !rows.includes(i) && !cols.includes(i));
  return { rows: [...rows, ...rest], cols };
}

/** The normalized query when it pivots (an MBQL query with breakouts and aggregations), else null. */
function pivotable(request: QueryRequest): DatasetQuery | null {
  let normalized: DatasetQuery;
  try {
    normalized = normalizeQuery(request.query);
  } catch {
    return null;
  }
  const inner = normalized.query;
  return normalized.type === 'query' && inner && inner.breakout?.length && inner.aggregation?.length ? normalized : null;
}

/** Runs a pivot query into `reply` (API JSON 202, or a download). Non-pivotable queries run as usual. */
export async function runPivotQuery(ctx: AppContext, reply: FastifyReply, request: QueryRequest): Promise<typeof HANDLED> {
  const normalized = pivotable(request);
  if (!normalized) return runQuery(ctx, reply, request);
  const open = openReply(reply, request);
  try {
    await runLevels(ctx, request, normalized, open);
    return HANDLED;
  } finally {
    open.done();
  }
}

/**
 * A pivoted download into memory (subscription attachments with `pivot_results`): the pivot table as the
 * visualization shows it, as runQueryToFile writes any other download. Non-pivotable queries are plain downloads.
 */
export async function runPivotQueryToFile(ctx: AppContext, request: QueryRequest & { exportFormat: 'csv' | 'json' | 'xlsx' }): Promise<ExportedFile> {
  const normalized = pivotable(request);
  if (!normalized) return runQueryToFile(ctx, request);
  const file = fileOutput(request);
  const outcome = await runLevels(ctx, request, normalized, file.open);
  return { status: outcome.status, body: await file.body(), rowCount: outcome.rowCount, error: outcome.error };
}

/** The query once per subtotal level into `open`; failed as soon as one level fails. */
async function runLevels(ctx: AppContext, request: QueryRequest, normalized: DatasetQuery, open: OpenReply): Promise<Outcome> {
  const inner = normalized.query!;
  const breakouts = inner.breakout as Clause[];
  const pivotedDownload = request.exportFormat !== undefined && request.exportFormat !== 'api';
  const split = pivotedDownload ? downloadSplit(breakouts, request) : { rows: request.pivot?.rows, cols: request.pivot?.cols };
  const started = new Date();
  const t0 = performance.now();
  const failed = (error: string | null): Outcome => ({ status: 'failed', rowCount: 0, error });
  let levels: number[][];
  try {
    levels = pivotLevels(breakouts.length, split.rows, split.cols);
  } catch (error) {
    await failBeforeRunning(ctx, request, open, error, started, t0);
    return failed(error instanceof Error ? error.message : String(error));
  }
  const target: ResultSink = pivotedDownload
    ? new PivotTableSink(open.sink, { breakoutCount: breakouts.length, rows: split.rows ?? [], cols: split.cols ?? [], viz: request.visualizationSettings ?? null })
    : open.sink;
  const state = { started: false, failed: false, rows: 0, cols: null as Col[] | null };
  let jsonQuery: Record<string, unknown> = {};
  for (let i = 0; i < levels.length; i++) {
    const kept = levels[i];
    const levelQuery: DatasetQuery = {
      ...normalized,
      query: { ...inner, breakout: kept.map((b) => breakouts[b]), 'order-by': (inner['order-by'] ?? []).filter((o) => !isClause(o[1]) || o[1][0] === 'aggregation' || kept.some((b) => JSON.stringify(breakouts[b]) === JSON.stringify(o[1]))) },
    };
    if (!kept.length) delete levelQuery.query!.breakout;
    const levelRequest: QueryRequest = { ...request, query: levelQuery };
    const prepared = await prepareForReply(ctx, i === 0 ? request : levelRequest, open, started, t0);
    if (!prepared) return failed('The query could not be prepared.');
    if (i === 0) jsonQuery = prepared.jsonQuery;
    else prepared.jsonQuery = jsonQuery;
    const sink = new LevelSink(target, state, breakouts.length, kept, i === levels.length - 1);
    const outcome = await executeStage(ctx, prepared, sink, open.signal, started, t0, false);
    if (i === 0 || outcome.status === 'failed') record(ctx, request, prepared, started, t0, outcome);
    if (outcome.status === 'failed') return outcome;
    if (state.failed) return failed('The pivot table failed.');
  }
  return { status: 'completed', rowCount: state.rows, error: null };
}

function isClause(x: unknown): x is unknown[] {
  return Array.isArray(x) && typeof x[0] === 'string';
}

