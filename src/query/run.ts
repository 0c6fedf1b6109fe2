// Running a prepared query: wait for a slot on the database, execute on its pooled connection, stream rows through
// the row limit and the value converters into a result writer, record the execution. The HTTP entry point
// (`runQuery`) answers 202 whatever happens once the query is accepted, as Metabase does, so query errors come back
// as 202 failed results; only errors before that (validation of the request, 404, 403) are HTTP errors. The 202
// goes out with the first output, or after a one-second keep-alive for slow queries (./write/out.ts).

import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { HANDLED } from '../http/route.js';
import { connectionForRow } from '../databases/connections.js';
import { openOptions } from '../databases/open-options.js';
import { QueryCancelledError } from '../drivers/shared/row-stream.js';
import { ConnectionError } from '../drivers/shared/connect-errors.js';
import type { RowStream } from '../drivers/driver.js';
import { findDriver } from '../drivers/registry.js';
import { prepareQuery, displaySql, type PreparedQuery, type QueryRequest } from './pipeline.js';
import { QueryError, PUBLIC_ERROR_TYPES } from './errors.js';
import { FairQueue } from './execute/queue.js';
import { mbqlCols, nativeCols, applyModelMetadata, type Col } from './results/annotate.js';
import { RowProcessor, type RowPlan, type RowSummary } from './results/row-processor.js';
import { recordExecution } from './executions/record.js';
import { Out } from './write/out.js';
import { ApiJsonSink } from './write/api.js';
import { CsvSink } from './write/csv.js';
import { JsonSink } from './write/json.js';
import { XlsxSink } from './write/xlsx.js';
import type { FailedResult, ResultSink, ResultSummary } from './write/sink.js';
import { ISO_DAY } from './compile/dialect.js';
import { executeCached } from './cache-stage.js';

const BATCH = 500;

// ----- the per-database queue ----------------------------------------------------------------------------------

const queues = new WeakMap<AppContext, Map<number, FairQueue>>();

function queueOf(ctx: AppContext, databaseId: number, name: string, engineConcurrency: number | undefined): FairQueue {
  let map = queues.get(ctx);
  if (!map) {
    map = new Map();
    queues.set(ctx, map);
  }
  let q = map.get(databaseId);
  if (!q) {
    const maxRunning = Math.max(1, Math.min(openOptions(ctx).maxConnections, engineConcurrency ?? Infinity));
    const configured = Number(ctx.config.env.QUARRY_QUERY_QUEUE_LIMIT);
    const maxQueued = Number.isFinite(configured) && configured >= 0 ? configured : Math.max(100, maxRunning * 10);
    q = new FairQueue(`database "${name}"`, { maxRunning, maxQueued });
    map.set(databaseId, q);
  }
  return q;
}

/** Each database's queue right now (GET /api/bug-reporting/connection-pool-details): running, waiting, slots. */
export function databaseQueueStats(ctx: AppContext): Array<{ databaseId: number; running: number; queued: number; maxRunning: number }> {
  return [...(queues.get(ctx) ?? new Map<number, FairQueue>()).entries()].map(([databaseId, q]) => ({ databaseId, ...q.stats, maxRunning: q.maxRunning }));
}

/**
 * Waits for a slot on the database's queue — the one every query to it goes through — and returns the function that
 * frees it. For other statements on the database (actions' writes), so they can't starve its pool either.
 */
export function acquireDatabaseSlot(ctx: AppContext, database: { id: number; name: string; engine: string }, callerKey: string, signal?: AbortSignal): Promise<() => void> {
  return queueOf(ctx, database.id, database.name, findDriver(database.engine)?.maxConcurrency).acquire(callerKey, signal);
}

// ----- errors ------------------------------------------------------------------------------------------------------

function failure(error: unknown, prepared: PreparedQuery | null, request: QueryRequest, started: Date, runningTime: number, jsonQuery: unknown): FailedResult {
  let type = 'qp';
  let message = 'Error running query';
  const extra: Record<string, unknown> = {};
  if (error instanceof QueryError) {
    type = error.type;
    message = error.message;
    Object.assign(extra, error.extra);
  } else if (error instanceof QueryCancelledError) {
    type = error.reason === 'timeout' ? 'timed-out' : 'client';
    message = error.message;
  } else if (error instanceof ConnectionError) {
    type = 'db';
    message = error.message;
  } else if (error instanceof ApiError) {
    type = error.status === 403 ? 'missing-required-permissions' : 'invalid-query';
    message = error.message;
  } else if (error instanceof Error) {
    message = error.message || message;
    const code = (error as { code?: unknown; sqlState?: unknown }).sqlState ?? (error as { code?: unknown }).code;
    type = 'invalid-query';
    if (typeof code === 'string') extra.state = code;
  }
  if (request.publicResult) {
    return { status: 'failed', error: PUBLIC_ERROR_TYPES.has(type) ? message : 'An error occurred while running the query.', error_type: type };
  }
  const result: FailedResult = {
    status: 'failed',
    class: error instanceof Error ? error.constructor.name : 'Error',
    error: message,
    stacktrace: [],
    error_type: type,
    ...(extra.state ? { state: extra.state } : {}),
    'ex-data': { type, ...extra },
    via: [{ status: 'failed', error: message, stacktrace: [] }],
    json_query: jsonQuery ?? null,
    data: { rows: [], cols: [] },
    row_count: 0,
    database_id: prepared?.database.id ?? null,
    started_at: started.toISOString(),
    running_time: runningTime,
    context: request.context,
  };
  if (prepared) result.native = { query: prepared.sql, params: prepared.params.length ? prepared.params : null };
  // The query as the engine prepared it (sources resolved, parameters applied, implicit joins added), as Metabase
  // reports it; null when the failure came before that.
  result.preprocessed = prepared ? preprocessedQuery(prepared) : null;
  return result;
}

function preprocessedQuery(prepared: PreparedQuery): Record<string, unknown> {
  const { info: _info, ...rest } = prepared.query;
  return rest;
}

// ----- executing ----------------------------------------------------------------------------------------------------

import type { Outcome } from './outcome.js';
export type { Outcome };

/** Reads the stream into `sink`, rows converted and annotated by one RowProcessor pass; returns the rows written. */
async function writeRows(stream: RowStream, sink: ResultSink, plan: RowPlan, signal: AbortSignal): Promise<{ count: number; summary: RowSummary }> {
  const cancelled = () => {
    if (signal.aborted) throw new QueryCancelledError('cancelled');
  };
  // API JSON: the rows as JSON text — written where the engine reads them when it can (SQLite's workers).
  const remote = sink.rowsJson ? stream.encoded?.(plan) : undefined;
  if (remote && sink.rowsJson) {
    let count = 0;
    for (let chunk = await remote.next(); chunk; chunk = await remote.next()) {
      if (chunk.json) await sink.rowsJson(chunk.json);
      count += chunk.count;
      cancelled();
    }
    return { count, summary: remote.summary() as RowSummary };
  }
  const pass = new RowProcessor(plan);
  if (sink.rowsJson) {
    while (!pass.full) {
      const rows = await stream.nextBatch();
      if (rows === null) break;
      const json = pass.json(rows);
      if (json) await sink.rowsJson(json);
      cancelled();
    }
  } else {
    // Small driver batches are gathered so the sink writes BATCH rows at once.
    let pending: unknown[][] = [];
    while (!pass.full) {
      const batch = await stream.nextBatch();
      if (batch === null) break;
      const rows = pass.process(batch);
      if (pending.length === 0 && rows.length >= BATCH) {
        await sink.rows(rows);
      } else {
        for (const row of rows) pending.push(row);
        if (pending.length >= BATCH) {
          await sink.rows(pending);
          pending = [];
        }
      }
      cancelled();
    }
    if (pending.length) await sink.rows(pending);
  }
  await stream.close();
  return { count: pass.count, summary: pass.summary() };
}

/**
 * Executes `prepared` into `sink`. Never throws for query failures: they are written to the sink as a failed
 * result. Returns what happened (for the execution log).
 */
export async function executeInto(ctx: AppContext, prepared: PreparedQuery, sink: ResultSink, signal: AbortSignal, started: Date, t0: number, wantMetadata: boolean): Promise<Outcome> {
  const request = prepared.request;
  let release: (() => void) | null = null;
  let stream: RowStream | null = null;
  let count = 0;
  try {
    const { driver, connection } = connectionForRow(ctx, prepared.database);
    const queue = queueOf(ctx, prepared.database.id, prepared.database.name, driver.maxConcurrency);
    release = await queue.acquire(String(request.caller?.user.id ?? 'anonymous'), signal);
    stream = await connection.execute(prepared.sql, prepared.params, { signal, timezone: prepared.sessionTimezone });
    const planned = prepared.columns ? mbqlCols(prepared.columns, stream.columns) : nativeCols(stream.columns);
    const cols = request.modelMetadata?.length ? applyModelMetadata(planned, request.modelMetadata) : planned;
    const max = prepared.maxRows;
    const plan: RowPlan = {
      cols,
      zone: prepared.resultsTimezone,
      mode: sink.valueMode,
      weekStart: ISO_DAY[prepared.settings.startOfWeek] % 7,
      maxRows: max,
      annotate: wantMetadata,
    };
    await sink.start(cols);
    const written = await writeRows(stream, sink, plan, signal);
    count = written.count;
    stream = null;
    release();
    release = null;
    const summary: ResultSummary = {
      row_count: count,
      running_time: Math.round(performance.now() - t0),
      started_at: started.toISOString(),
      database_id: prepared.database.id,
      context: request.context,
      json_query: prepared.jsonQuery,
      native_form: prepared.native ? { query: prepared.sql, params: prepared.params.length ? prepared.params : null } : { query: displaySql(prepared, false), params: null },
      results_timezone: prepared.resultsTimezone,
      download_perms: prepared.downloadPerms,
      ...(prepared.settings.reportTimezone ? { requested_timezone: prepared.settings.reportTimezone } : {}),
      ...written.summary,
      ...(max !== null && count >= max ? { rows_truncated: max } : {}),
    };
    await sink.finish(summary);
    return { status: 'completed', rowCount: count, error: null };
  } catch (error) {
    if (stream) await stream.close().catch(() => {});
    const failed = failure(error, prepared, request, started, Math.round(performance.now() - t0), prepared.jsonQuery);
    await sink.fail(failed).catch(() => {});
    return { status: 'failed', rowCount: count, error: failed.error };
  } finally {
    release?.();
  }
}

/** The cache stage, then execution: how every result is produced (cacheable saved-card runs may come from the cache). */
export function executeStage(ctx: AppContext, prepared: PreparedQuery, sink: ResultSink, signal: AbortSignal, started: Date, t0: number, wantMetadata: boolean): Promise<Outcome> {
  return executeCached(ctx, prepared, sink, signal, started, t0, wantMetadata, executeInto);
}

export function record(ctx: AppContext, request: QueryRequest, prepared: PreparedQuery | null, started: Date, t0: number, outcome: Outcome): void {
  recordExecution(ctx, {
    hash: prepared?.hash ?? '',
    started_at: started.toISOString(),
    running_time: Math.round(performance.now() - t0),
    result_rows: outcome.rowCount,
    native: prepared ? prepared.native : false,
    context: request.context,
    error: outcome.error,
    executor_id: request.caller?.user.id ?? null,
    card_id: request.cardId ?? null,
    dashboard_id: request.dashboardId ?? null,
    pulse_id: request.pulseId ?? null,
    action_id: request.actionId ?? null,
    database_id: prepared?.database.id ?? null,
    cache_hit: outcome.cacheHit === true,
    is_sandboxed: false,
    parameterized: Boolean(prepared?.query.parameters?.length),
    embedding_client: null,
    embedding_version: null,
  });
}

// ----- HTTP --------------------------------------------------------------------------------------------------------

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  api: 'application/json; charset=utf-8',
};

function attachmentHeaders(reply: FastifyReply, format: string, filename: string | undefined): void {
  const ext = format === 'api' ? 'json' : format;
  const base = filename ?? `query_result_${new Date().toISOString()}`;
  reply.header('Content-Disposition', `attachment; filename="${base.replace(/["\\\r\n]/g, '_')}.${ext}"`);
  reply.header('X-Accel-Buffering', 'no');
}

export interface OpenReply {
  sink: ResultSink;
  signal: AbortSignal;
  /** Whether the response's status and headers went out already. */
  started(): boolean;
  done(): void;
}

/** API results commit their 202 after this long when no output is ready yet (the rest streams after it). */
const KEEP_ALIVE_MS = 1000;

/**
 * The response side of a query: the writer for the requested format, disconnect → abort. Status and headers are
 * committed with the first output (one plain body for small results), or after KEEP_ALIVE_MS for slow API queries.
 */
export function openReply(reply: FastifyReply, request: QueryRequest): OpenReply {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.on('close', onClose);
  request.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const format = request.exportFormat;
  const start = (whole: string | null) => {
    if (format) {
      attachmentHeaders(reply, format, request.filename);
      reply.code(200).header('Content-Type', CONTENT_TYPES[format]);
    } else reply.code(202).header('Content-Type', 'application/json; charset=utf-8');
    void reply.send(whole ?? out.stream);
  };
  const out: Out = new Out(start, format ? null : KEEP_ALIVE_MS);
  const viz = request.visualizationSettings ?? null;
  const sink: ResultSink =
    format === 'csv'
      ? new CsvSink(out, request.formatRows ? 'formatted' : 'plain', viz)
      : format === 'json'
        ? new JsonSink(out, request.formatRows ? 'formatted' : 'plain', viz)
        : format === 'xlsx'
          ? new XlsxSink(out, viz)
          : new ApiJsonSink(out);
  return {
    sink,
    signal: controller.signal,
    started: () => out.hasStarted,
    done: () => {
      reply.raw.off('close', onClose);
      out.abandon();
    },
  };
}

/** Prepares a query for a reply; a QueryError is written as a failed result (returns null), an ApiError thrown. */
export async function prepareForReply(ctx: AppContext, request: QueryRequest, open: OpenReply, started: Date, t0: number): Promise<PreparedQuery | null> {
  try {
    return await prepareQuery(ctx, { ...request, signal: open.signal });
  } catch (error) {
    await failBeforeRunning(ctx, request, open, error, started, t0);
    return null;
  }
}

/** Writes an error found before the query ran as its failed result (and records it); an ApiError is rethrown. */
export async function failBeforeRunning(ctx: AppContext, request: QueryRequest, open: OpenReply, error: unknown, started: Date, t0: number): Promise<void> {
  // An HTTP problem (401/403/404) is answered as such — unless a slow preparation already committed the 202, when the
  // refusal can only be the failed result's message.
  if (error instanceof ApiError && !open.started()) throw error;
  if (!(error instanceof QueryError)) ctx.log.error({ err: error }, 'query preparation failed');
  const failed = failure(error, null, request, started, Math.round(performance.now() - t0), safeJsonQuery(request.query));
  await open.sink.fail(failed).catch(() => {});
  record(ctx, request, null, started, t0, { status: 'failed', rowCount: 0, error: failed.error });
}

/**
 * Runs a query and streams its result into `reply`: API JSON with status 202 by default, or a download
 * (`exportFormat` csv, json, xlsx, api) with status 200. Returns HANDLED for the route helper. Throws an ApiError
 * (→ 4xx) only for problems found before the query starts.
 */
export async function runQuery(ctx: AppContext, reply: FastifyReply, request: QueryRequest): Promise<typeof HANDLED> {
  const started = new Date();
  const t0 = performance.now();
  const open = openReply(reply, request);
  try {
    const prepared = await prepareForReply(ctx, request, open, started, t0);
    if (!prepared) return HANDLED;
    const outcome = await executeStage(ctx, prepared, open.sink, open.signal, started, t0, !request.exportFormat);
    record(ctx, request, prepared, started, t0, outcome);
    return HANDLED;
  } finally {
    open.done();
  }
}

/**
 * Answers a request with a failed result without preparing or running it, in the request's format (202 API JSON or
 * the download's), and records the execution — for callers that find the request unusable before it reaches the
 * engine (a dashboard filter wired to a card through a malformed target).
 */
export async function replyWithQueryError(ctx: AppContext, reply: FastifyReply, request: QueryRequest, error: QueryError): Promise<typeof HANDLED> {
  const started = new Date();
  const t0 = performance.now();
  const open = openReply(reply, request);
  try {
    const failed = failure(error, null, request, started, 0, safeJsonQuery(request.query));
    await open.sink.fail(failed).catch(() => {});
    record(ctx, request, null, started, t0, { status: 'failed', rowCount: 0, error: failed.error });
    return HANDLED;
  } finally {
    open.done();
  }
}

function safeJsonQuery(query: unknown): unknown {
  return query && typeof query === 'object' ? query : null;
}

// ----- in memory ---------------------------------------------------------------------------------------------------

/** A result as the API returns it (status completed or failed), held in memory. */
export interface QueryResult {
  status: 'completed' | 'failed';
  data: { rows: unknown[][]; cols: Col[]; [key: string]: unknown };
  row_count: number;
  [key: string]: unknown;
}

class MemorySink implements ResultSink {
  readonly valueMode = 'iso' as const;
  result: QueryResult | null = null;
  private cols: Col[] = [];
  private readonly rowsHeld: unknown[][] = [];

  async start(cols: Col[]): Promise<void> {
    this.cols = cols;
  }

  async rows(batch: unknown[][]): Promise<void> {
    for (const r of batch) this.rowsHeld.push(r);
  }

  async finish(s: ResultSummary): Promise<void> {
    const { row_count, running_time, started_at, database_id, context, json_query, cached, average_execution_time, ...data } = s;
    this.result = {
      data: { rows: this.rowsHeld, cols: this.cols, ...data, insights: data.insights ?? null },
      database_id,
      started_at,
      json_query,
      average_execution_time: average_execution_time ?? null,
      cached: cached ?? null,
      ...(cached ? { updated_at: cached } : {}),
      status: 'completed',
      context,
      row_count,
      running_time,
    };
  }

  async fail(error: FailedResult): Promise<void> {
    this.result = { data: { rows: [], cols: [] }, row_count: 0, ...error, status: 'failed' } as QueryResult;
  }
}

/**
 * Runs a query and returns the whole result in memory (parameter values, result_metadata, pulses, tests). Mind the
 * row limit: the default API limits apply unless `constraints` says otherwise. Throws ApiError like runQuery.
 */
export async function runQueryToMemory(ctx: AppContext, request: QueryRequest): Promise<QueryResult> {
  const started = new Date();
  const t0 = performance.now();
  const sink = new MemorySink();
  const signal = request.signal ?? new AbortController().signal;
  let prepared: PreparedQuery;
  try {
    prepared = await prepareQuery(ctx, request);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    await sink.fail(failure(error, null, request, started, Math.round(performance.now() - t0), safeJsonQuery(request.query)));
    record(ctx, request, null, started, t0, { status: 'failed', rowCount: 0, error: sink.result!.error as string });
    return sink.result!;
  }
  const outcome = await executeStage(ctx, prepared, sink, signal, started, t0, true);
  record(ctx, request, prepared, started, t0, outcome);
  return sink.result!;
}

// ----- to a file in memory ----------------------------------------------------------------------------------------

/** A download written to memory instead of a response (subscription attachments). */
export interface ExportedFile {
  status: 'completed' | 'failed';
  body: Buffer;
  rowCount: number;
  error: string | null;
}

/**
 * Runs a query as a download (`exportFormat` csv, json or xlsx: the download's row limits, download permissions,
 * `formatRows` and visualization-settings columns) into a Buffer. Throws ApiError like runQuery (a caller whose
 * download permission is none gets 403); query failures come back as `status: 'failed'`.
 */
export async function runQueryToFile(ctx: AppContext, request: QueryRequest & { exportFormat: 'csv' | 'json' | 'xlsx' }): Promise<ExportedFile> {
  const started = new Date();
  const t0 = performance.now();
  const file = fileOutput(request);
  let outcome: Outcome;
  try {
    const prepared = await prepareQuery(ctx, request);
    outcome = await executeInto(ctx, prepared, file.open.sink, file.open.signal, started, t0, false);
    record(ctx, request, prepared, started, t0, outcome);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const failed = failure(error, null, request, started, Math.round(performance.now() - t0), safeJsonQuery(request.query));
    await file.open.sink.fail(failed).catch(() => {});
    outcome = { status: 'failed', rowCount: 0, error: failed.error };
    record(ctx, request, null, started, t0, outcome);
  }
  return { status: outcome.status, body: await file.body(), rowCount: outcome.rowCount, error: outcome.error };
}

/** A download's writer that keeps the file in memory: what a query writes into, then the file's bytes. */
export function fileOutput(request: QueryRequest & { exportFormat: 'csv' | 'json' | 'xlsx' }): { open: OpenReply; body(): Promise<Buffer> } {
  const chunks: Buffer[] = [];
  let whole: string | null = null;
  const out = new Out((body) => {
    if (body !== null) whole = body;
  });
  const ended = new Promise<void>((resolve) => {
    out.stream.on('end', resolve);
    out.stream.on('close', resolve);
  });
  out.stream.on('data', (chunk: Buffer | string) => chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
  const viz = request.visualizationSettings ?? null;
  const mode = request.formatRows ? 'formatted' : 'plain';
  const sink: ResultSink = request.exportFormat === 'csv' ? new CsvSink(out, mode, viz) : request.exportFormat === 'json' ? new JsonSink(out, mode, viz) : new XlsxSink(out, viz);
  return {
    open: { sink, signal: request.signal ?? new AbortController().signal, started: () => out.hasStarted, done: () => {} },
    async body() {
      if (whole === null && out.hasStarted) await ended;
      return whole !== null ? Buffer.from(whole as string, 'utf8') : Buffer.concat(chunks);
    },
  };
}

/** The SQL a query compiles to, for people: `{query, params: null}` (values inlined as escaped literals). */
export async function compileToNative(ctx: AppContext, request: QueryRequest): Promise<{ query: string; params: null }> {
  const prepared = await prepareQuery(ctx, { constraints: null, ...request });
  if (prepared.native) return { query: displaySql(prepared, false), params: null };
  return { query: displaySql(prepared, request.pretty !== false), params: null };
}
