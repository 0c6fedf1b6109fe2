// Runs syncs in the background so no request waits for one. Per database, requests are queued one after the
// other (a sync asked for while one runs happens right after it, once); everything stops when the server closes.

import type { AppContext } from '../context.js';
import { syncDatabase, withSyncLease, type SyncKind, type SyncOutcome } from './sync-database.js';

interface Runner {
  abort: AbortController;
  /** Per database: the sync in progress (a chain of queued ones). */
  chains: Map<number, Promise<unknown>>;
  /** Per database: kinds queued behind the running one, so repeated triggers collapse into one run. */
  queued: Map<number, Map<SyncKind, Promise<SyncOutcome>>>;
  running: Set<Promise<unknown>>;
}

const runners = new WeakMap<AppContext, Runner>();

function runnerOf(ctx: AppContext): Runner {
  let runner = runners.get(ctx);
  if (!runner) {
    const created: Runner = { abort: new AbortController(), chains: new Map(), queued: new Map(), running: new Set() };
    runner = created;
    runners.set(ctx, created);
    ctx.onClose.push(async () => {
      created.abort.abort();
      await Promise.allSettled([...created.running]);
    });
  }
  return runner;
}

/** Makes `settled` (a promise that never rejects) the end of the database's chain, tracked until it settles. */
function append(runner: Runner, databaseId: number, settled: Promise<unknown>): void {
  runner.chains.set(databaseId, settled);
  runner.running.add(settled);
  void settled.finally(() => {
    runner.running.delete(settled);
    if (runner.chains.get(databaseId) === settled) runner.chains.delete(databaseId);
  });
}

/** Work other modules do after a database's field values were scanned (a `values` or `full` sync that finished). */
type ValuesScannedListener = (ctx: AppContext, databaseId: number) => Promise<void>;
const valuesScannedListeners: ValuesScannedListener[] = [];

/** Runs `listener` after each field-values scan of a database, in the background (errors are logged). */
export function onFieldValuesScanned(listener: ValuesScannedListener): void {
  valuesScannedListeners.push(listener);
}

function afterValuesScanned(ctx: AppContext, runner: Runner, databaseId: number): void {
  const follow = Promise.all(
    valuesScannedListeners.map((listener) => listener(ctx, databaseId).catch((error) => ctx.log.warn({ err: error, db: databaseId }, 'work after a field-values scan failed'))),
  );
  runner.running.add(follow);
  void follow.finally(() => runner.running.delete(follow));
}

/** Queues a sync of the database and returns when it has run (never rejects). */
export function runSync(ctx: AppContext, databaseId: number, kind: SyncKind): Promise<SyncOutcome> {
  const runner = runnerOf(ctx);
  if (runner.abort.signal.aborted) return Promise.resolve('failed');
  let queued = runner.queued.get(databaseId);
  if (!queued) {
    queued = new Map();
    runner.queued.set(databaseId, queued);
  }
  const already = queued.get(kind) ?? (kind !== 'full' ? queued.get('full') : undefined);
  if (already) return already;
  const previous = runner.chains.get(databaseId) ?? Promise.resolve();
  const queue = queued;
  const job: Promise<SyncOutcome> = previous.then(async () => {
    queue.delete(kind);
    if (runner.abort.signal.aborted) return 'failed' as const;
    const outcome = await syncDatabase(ctx, databaseId, kind, runner.abort.signal).catch((error) => {
      ctx.log.warn({ err: error, db: databaseId }, 'sync crashed');
      return 'failed' as const;
    });
    if (outcome === 'done' && (kind === 'values' || kind === 'full') && !runner.abort.signal.aborted) afterValuesScanned(ctx, runner, databaseId);
    return outcome;
  });
  queue.set(kind, job);
  append(runner, databaseId, job);
  return job;
}

/**
 * Runs `work` on the database's chain — after the syncs queued before it, before those queued after — and under its
 * sync lease (waiting up to `waitMs` for another instance's sync), so a single field's or table's rescan never runs
 * alongside a sync of the same database. Rejects with `work`'s error.
 */
export function runExclusive<T>(ctx: AppContext, databaseId: number, work: (signal: AbortSignal) => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
  const runner = runnerOf(ctx);
  runner.abort.signal.throwIfAborted();
  const previous = runner.chains.get(databaseId) ?? Promise.resolve();
  const job = previous.then(() => withSyncLease(ctx, databaseId, () => work(runner.abort.signal), { waitMs: options.waitMs, signal: runner.abort.signal }));
  append(runner, databaseId, job.catch(() => undefined));
  return job;
}

/** Starts a sync in the background (fire and forget). */
export function triggerSync(ctx: AppContext, databaseId: number, kind: SyncKind): void {
  void runSync(ctx, databaseId, kind);
}

/** Waits until every queued sync of this server has finished (for tests and orderly shutdown). */
export async function idleSyncs(ctx: AppContext): Promise<void> {
  const runner = runnerOf(ctx);
  while (runner.running.size) await Promise.allSettled([...runner.running]);
}
