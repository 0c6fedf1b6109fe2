// Every query execution is recorded in `query_execution` — written behind the query (batched, off the request
// path), so recording never slows a query down. Readers below flush pending rows first, so they always see them.
// Other modules use `averageRunningTimes` (a card's `average_query_time`), `executionCounts` (popular items) and
// `recentExecutions` (activity).

import type { AppContext } from '../../context.js';
import type { QueryExecutionTable } from './tables.js';
import type { Insertable } from 'kysely';

export type ExecutionRecord = Insertable<QueryExecutionTable>;

const FLUSH_MS = 200;
const BATCH = 200;

interface Pending {
  rows: ExecutionRecord[];
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
}

const pendingByCtx = new WeakMap<AppContext, Pending>();

function pendingOf(ctx: AppContext): Pending {
  let p = pendingByCtx.get(ctx);
  if (!p) {
    const created: Pending = { rows: [], timer: null, flushing: null };
    p = created;
    pendingByCtx.set(ctx, created);
    ctx.onClose.push(() => flushExecutions(ctx));
  }
  return p;
}

/** Queues one execution row; it is written within a fraction of a second. */
export function recordExecution(ctx: AppContext, row: ExecutionRecord): void {
  const p = pendingOf(ctx);
  p.rows.push({ ...row, error: row.error ? String(row.error).slice(0, 10_000) : null });
  if (p.rows.length >= BATCH) void flushExecutions(ctx);
  else if (!p.timer) {
    p.timer = setTimeout(() => void flushExecutions(ctx), FLUSH_MS);
    p.timer.unref();
  }
}

/** Writes every queued row now. */
export async function flushExecutions(ctx: AppContext): Promise<void> {
  const p = pendingOf(ctx);
  if (p.timer) {
    clearTimeout(p.timer);
    p.timer = null;
  }
  while (p.flushing) await p.flushing;
  if (!p.rows.length) return;
  const rows = p.rows.splice(0, p.rows.length);
  p.flushing = (async () => {
    try {
      for (let i = 0; i < rows.length; i += BATCH) {
        await ctx.db.insertInto('query_execution').values(rows.slice(i, i + BATCH)).execute();
      }
    } catch (error) {
      ctx.log.warn({ err: error }, 'could not record query executions');
    } finally {
      p.flushing = null;
    }
  })();
  await p.flushing;
}

/** Average running time (ms) of successful, uncached executions, by card id. */
export async function averageRunningTimes(ctx: AppContext, cardIds: number[]): Promise<Map<number, number>> {
  await flushExecutions(ctx);
  if (!cardIds.length) return new Map();
  const rows = await ctx.db
    .selectFrom('query_execution')
    .select(['card_id', (eb) => eb.fn.avg<number>('running_time').as('avg')])
    .where('card_id', 'in', [...new Set(cardIds)])
    .where('error', 'is', null)
    .where('cache_hit', '=', false)
    .groupBy('card_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.card_id), Math.round(Number(r.avg))]));
}

/**
 * Average running time (ms) of successful executions of a query hash that really ran (results served from the cache
 * don't count): Metabase's `average_execution_time`, which the adaptive cache policy multiplies.
 */
export async function averageRunningTimeOfHash(ctx: AppContext, hash: string): Promise<number | null> {
  await flushExecutions(ctx);
  const row = await ctx.db
    .selectFrom('query_execution')
    .select((eb) => eb.fn.avg<number>('running_time').as('avg'))
    .where('hash', '=', hash)
    .where('error', 'is', null)
    .where('cache_hit', '=', false)
    .executeTakeFirst();
  return row?.avg === null || row?.avg === undefined ? null : Math.round(Number(row.avg));
}

/** How often each card ran (optionally since an ISO timestamp), most-run first: popular items. */
export async function executionCounts(ctx: AppContext, options: { since?: string; executorId?: number; limit?: number } = {}): Promise<Array<{ card_id: number; count: number; last_run: string }>> {
  await flushExecutions(ctx);
  let q = ctx.db
    .selectFrom('query_execution')
    .select(['card_id', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.max('started_at').as('last_run')])
    .where('card_id', 'is not', null);
  if (options.since) q = q.where('started_at', '>=', options.since);
  if (options.executorId !== undefined) q = q.where('executor_id', '=', options.executorId);
  const rows = await q.groupBy('card_id').orderBy('count', 'desc').limit(options.limit ?? 100).execute();
  return rows.map((r) => ({ card_id: Number(r.card_id), count: Number(r.count), last_run: String(r.last_run) }));
}

/** The latest executions (newest first). */
export async function recentExecutions(ctx: AppContext, options: { executorId?: number; limit?: number } = {}) {
  await flushExecutions(ctx);
  let q = ctx.db.selectFrom('query_execution').selectAll();
  if (options.executorId !== undefined) q = q.where('executor_id', '=', options.executorId);
  return q.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(options.limit ?? 50).execute();
}
