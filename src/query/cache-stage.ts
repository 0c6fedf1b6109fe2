// Stage "cache" (ARCHITECTURE §2), between compilation and execution, for saved-card runs (`QueryRequest.cache`):
//
//   1. the card's cache policy (src/cache/policy.ts: question → dashboard → database → root); none or `nocache`:
//      run as usual;
//   2. a stored result still valid under the policy → replayed into the writer (`cached`, `updated_at`,
//      `average_execution_time` set; rows and columns exactly as stored from the fresh run) — unless `ignoreCache`;
//   3. otherwise the run joins an identical run under way on this instance, or leads one: the leader's result is
//      recorded while it streams, stored (when the policy allows) before its answer ends, and handed to every run
//      that waited on it — so N viewers of a card cause one query.
//
// The key (./cache-key.ts) includes the caller's data-access context, so nobody is ever answered with a result
// computed for someone allowed to see more.

import type { AppContext } from '../context.js';
import { resolvePolicy, validSince, mayStore, type Policy } from '../cache/policy.js';
import { decodeEntry, entryStoredAt, readEntry, writeEntry, EntryRecorder, type DecodedEntry } from '../cache/entries.js';
import { inFlightRuns } from '../cache/inflight.js';
import { maxEntryBytes } from '../cache/settings.js';
import { purgeSoon } from '../cache/maintenance.js';
import type { PreparedQuery } from './pipeline.js';
import type { Outcome } from './outcome.js';
import type { Col } from './results/annotate.js';
import type { FailedResult, ResultSink, ResultSummary } from './write/sink.js';
import { resultCacheKey, volatileColumnKeys } from './cache-key.js';
import { averageRunningTimeOfHash } from './executions/record.js';

export type Execute = (ctx: AppContext, prepared: PreparedQuery, sink: ResultSink, signal: AbortSignal, started: Date, t0: number, wantMetadata: boolean) => Promise<Outcome>;

/** What a leader hands to the runs that waited on it. */
type Shared =
  | { kind: 'result'; entry: DecodedEntry; at: string }
  | { kind: 'failure'; failed: FailedResult }
  /** The result couldn't be shared (too big to hold): run it yourself. */
  | { kind: 'unshareable' }
  /** The leader was cancelled by its own client: try again. */
  | { kind: 'retry' };

/** Per-request keys of a summary: never stored, always the answering request's own. */
const REQUEST_KEYS = ['started_at', 'running_time', 'context', 'json_query', 'cached', 'average_execution_time'] as const;

function storedSummary(summary: ResultSummary): Record<string, unknown> {
  const out: Record<string, unknown> = { ...summary };
  for (const key of REQUEST_KEYS) delete out[key];
  return out;
}

/** Passes a run's output to its writer and records it for the cache and for the runs waiting on it. */
class RecordingSink implements ResultSink {
  readonly valueMode: ResultSink['valueMode'];
  failed: FailedResult | null = null;

  constructor(
    private readonly target: ResultSink,
    readonly recorder: EntryRecorder,
    private readonly beforeFinish: (summary: ResultSummary) => Promise<void>,
  ) {
    this.valueMode = target.valueMode;
  }

  async start(cols: Col[]): Promise<void> {
    this.recorder.header({ cols });
    await this.target.start(cols);
  }

  async rows(batch: unknown[][]): Promise<void> {
    this.recorder.rows(batch);
    await this.target.rows(batch);
  }

  async finish(summary: ResultSummary): Promise<void> {
    this.recorder.summary(storedSummary(summary));
    await this.beforeFinish(summary);
    await this.target.finish(summary);
  }

  async fail(error: FailedResult): Promise<void> {
    this.recorder.abandon();
    this.failed = error;
    await this.target.fail(error);
  }
}

/** The stored columns with what sync keeps current taken from the metadata now, as a fresh run would have them. */
function currentCols(cols: Col[], prepared: PreparedQuery): Col[] {
  const current = volatileColumnKeys(prepared);
  return cols.map((col, i) => {
    const now = current[i];
    if (!now) return col;
    const out: Col = { ...col };
    if ('fingerprint' in col) out.fingerprint = now.fingerprint;
    if ('has_field_values' in col) out.has_field_values = now.has_field_values;
    return out;
  });
}

/** Writes a recorded or stored result into a writer as this request's answer. */
async function replay(entry: DecodedEntry, sink: ResultSink, prepared: PreparedQuery, started: Date, t0: number, cached: string, average: number | null): Promise<number> {
  await sink.start(currentCols(entry.header.cols as Col[], prepared));
  for (const batch of entry.batches) await sink.rows(batch.map((row) => [...row]));
  const summary = {
    ...(entry.summary as unknown as ResultSummary),
    started_at: started.toISOString(),
    running_time: Math.round(performance.now() - t0),
    context: prepared.request.context,
    json_query: prepared.jsonQuery,
    cached,
    average_execution_time: average,
  };
  await sink.finish(summary);
  return summary.row_count;
}

/** A failure another run met, as this request's own. */
function ownFailure(failed: FailedResult, prepared: PreparedQuery, started: Date, t0: number): FailedResult {
  const out: FailedResult = { ...failed };
  if ('json_query' in out) out.json_query = prepared.jsonQuery;
  if ('context' in out) out.context = prepared.request.context;
  if ('started_at' in out) out.started_at = started.toISOString();
  if ('running_time' in out) out.running_time = Math.round(performance.now() - t0);
  return out;
}

/** How to run a stored result again (`refresh_automatically`): only API results of a card's own run. */
function refreshRecipe(prepared: PreparedQuery, wantMetadata: boolean): Record<string, unknown> | null {
  const r = prepared.request;
  if (r.exportFormat || r.pivot || !wantMetadata || r.cardId === null || r.cardId === undefined) return null;
  if (r.skipPermissionCheck && !r.sharing) return null;
  return {
    card_id: r.cardId,
    dashboard_id: r.dashboardId ?? null,
    parameters: r.parameters ?? [],
    saved_parameter_targets: r.savedParameterTargets ?? false,
    executor_id: r.skipPermissionCheck ? null : (r.caller?.user.id ?? null),
    shared: r.skipPermissionCheck ? (r.sharing ?? null) : null,
  };
}

/**
 * Runs a prepared query through the cache stage (see the top of this file), or straight to `execute` when the run
 * isn't a cacheable saved-card run. Never throws for query failures (they go to the writer, as `execute` does).
 */
export async function executeCached(
  ctx: AppContext,
  prepared: PreparedQuery,
  sink: ResultSink,
  signal: AbortSignal,
  started: Date,
  t0: number,
  wantMetadata: boolean,
  execute: Execute,
): Promise<Outcome> {
  const run: Run = { ctx, prepared, sink, signal, started, t0, wantMetadata, execute };
  const request = prepared.request;
  if (!request.cache || request.cardId === undefined || request.cardId === null) return execute(ctx, prepared, sink, signal, started, t0, wantMetadata);
  let policy: Policy | null;
  try {
    policy = await resolvePolicy(ctx, { cardId: request.cardId, dashboardId: request.dashboardId ?? null, databaseId: prepared.database.id });
  } catch (error) {
    ctx.log.warn({ err: error }, 'cache policy lookup failed; running the query');
    policy = null;
  }
  if (!policy || policy.strategy.type === 'nocache') return execute(ctx, prepared, sink, signal, started, t0, wantMetadata);
  const key = resultCacheKey(prepared, { format: request.exportFormat ?? 'api', valueMode: sink.valueMode, withMetadata: wantMetadata });
  // asked at most once per run, and only when needed (adaptive validity, and the figure cached answers report)
  let averaging: Promise<number | null> | null = null;
  const average = () => (averaging ??= averageRunningTimeOfHash(ctx, prepared.hash));

  if (!request.cache.ignoreCache) {
    const hit = await storedResult(ctx, policy, key, average).catch((error) => {
      ctx.log.warn({ err: error }, 'reading the result cache failed; running the query');
      return null;
    });
    if (hit) {
      const rowCount = await replay(hit.entry, sink, prepared, started, t0, hit.at, await average());
      return { status: 'completed', rowCount, error: null, cacheHit: true };
    }
  }

  const runs = inFlightRuns<{ shared: Shared; outcome: Outcome }>(ctx);
  for (let attempt = 0; ; attempt++) {
    const joined = await runs.join(key, () => lead(run, policy, key));
    if (!joined.follower) return joined.value.outcome;
    const shared = joined.value.shared;
    switch (shared.kind) {
      case 'result': {
        const rowCount = await replay(shared.entry, sink, prepared, started, t0, shared.at, await average());
        return { status: 'completed', rowCount, error: null, cacheHit: true };
      }
      case 'failure': {
        const failed = ownFailure(shared.failed, prepared, started, t0);
        await sink.fail(failed).catch(() => {});
        return { status: 'failed', rowCount: 0, error: failed.error };
      }
      case 'unshareable':
        return execute(ctx, prepared, sink, signal, started, t0, wantMetadata);
      case 'retry':
        if (attempt >= 2 || signal.aborted) return execute(ctx, prepared, sink, signal, started, t0, wantMetadata);
    }
  }
}

async function storedResult(ctx: AppContext, policy: Policy, key: string, average: () => Promise<number | null>): Promise<{ entry: DecodedEntry; at: string } | null> {
  // adaptive policies need the query's average to know how old a result may be: first see whether there is one at all
  if (policy.strategy.type === 'ttl' && !(await entryStoredAt(ctx, key))) return null;
  const since = await validSince(ctx, policy, new Date(), average);
  if (!since) return null;
  const stored = await readEntry(ctx, key, since);
  if (!stored) return null;
  const entry = await decodeEntry(stored.results);
  return entry ? { entry, at: stored.updatedAt } : null;
}

/** One run through the stage: what `executeCached` was given. */
interface Run {
  ctx: AppContext;
  prepared: PreparedQuery;
  sink: ResultSink;
  signal: AbortSignal;
  started: Date;
  t0: number;
  wantMetadata: boolean;
  execute: Execute;
}

/** The leading run: executes, records, stores before its answer ends, and says what the waiting runs get. */
async function lead(run: Run, policy: Policy, key: string): Promise<{ shared: Shared; outcome: Outcome }> {
  const { ctx, prepared, sink, signal, started, t0, wantMetadata, execute } = run;
  const storedAt = started.toISOString();
  const recorder = new EntryRecorder(await maxEntryBytes(ctx));
  const recording = new RecordingSink(sink, recorder, async (summary) => {
    if (!mayStore(policy, summary.running_time, summary.row_count)) return;
    try {
      const results = await recorder.compressed();
      if (!results) return;
      await writeEntry(ctx, {
        hash: key,
        updatedAt: storedAt,
        results,
        databaseId: prepared.database.id,
        cardId: prepared.request.cardId ?? null,
        dashboardId: prepared.request.dashboardId ?? null,
        configId: policy.configId,
        refresh: refreshRecipe(prepared, wantMetadata),
      });
      purgeSoon(ctx);
    } catch (error) {
      ctx.log.warn({ err: error }, 'storing a cached result failed');
    }
  });
  let outcome: Outcome;
  try {
    outcome = await execute(ctx, prepared, recording, signal, started, t0, wantMetadata);
  } catch (error) {
    // execute reports query failures to the writer; anything thrown is unexpected — let waiting runs try themselves
    ctx.log.error({ err: error }, 'query execution failed');
    return { shared: { kind: 'retry' }, outcome: { status: 'failed', rowCount: 0, error: String(error) } };
  }
  if (outcome.status === 'failed') {
    const failed = recording.failed;
    const cancelled = !failed || failed.error_type === 'client' || signal.aborted;
    return { shared: cancelled ? { kind: 'retry' } : { kind: 'failure', failed }, outcome };
  }
  const entry = recorder.decoded();
  return { shared: entry ? { kind: 'result', entry, at: storedAt } : { kind: 'unshareable' }, outcome };
}
