// Task history (Metabase's `task_history`): every run of background work — a scheduled send, a sync step, a
// clean-up — leaves a row saying what ran, for which database, when, how long, how it ended and with what details.
// Writing history never breaks the work it describes: a failed history write is logged and the work goes on.

import type { AppContext } from '../context.js';
import { insertReturningId, parseJson, toJson } from '../appdb/portable.js';

export type TaskStatus = 'started' | 'success' | 'failed' | 'unknown';
export const TASK_STATUSES: readonly TaskStatus[] = ['started', 'success', 'failed', 'unknown'];

type Details = Record<string, unknown>;

/** A task run in progress: add to `details` while it runs, then end it once. */
export interface TaskRun {
  readonly id: number | null;
  readonly details: Details;
  succeed(extra?: Details): Promise<void>;
  fail(error: unknown, extra?: Details): Promise<void>;
}

/** The message of an error and of its causes, joined (`a: b`). */
export function errorMessage(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (message && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? (current as Error & { cause?: unknown }).cause : null;
  }
  return parts.join(': ') || 'Unknown error';
}

/** Starts a task-history row (status `started`). */
export async function startTask(ctx: AppContext, task: string, options: { dbId?: number | null; details?: Details } = {}): Promise<TaskRun> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const details: Details = { ...(options.details ?? {}) };
  let id: number | null = null;
  try {
    id = await insertReturningId(ctx.db, ctx.dialect, 'task_history', {
      task,
      db_id: options.dbId ?? null,
      started_at: startedAt,
      ended_at: null,
      duration: null,
      task_details: toJson(details),
      status: 'started',
    });
  } catch (error) {
    ctx.log.warn({ err: error, task }, 'could not write task history');
  }
  let ended = false;
  const end = async (status: TaskStatus, extra: Details) => {
    if (ended) return;
    ended = true;
    Object.assign(details, extra);
    if (id === null) return;
    const now = Date.now();
    await ctx.db
      .updateTable('task_history')
      .set({ status, ended_at: new Date(now).toISOString(), duration: now - started, task_details: toJson(details) })
      .where('id', '=', id)
      .execute()
      .catch((error) => ctx.log.warn({ err: error, task }, 'could not write task history'));
  };
  return {
    id,
    details,
    succeed: (extra = {}) => end('success', extra),
    fail: (error, extra = {}) => end('failed', { ...extra, status: 'failed', message: errorMessage(error) }),
  };
}

/** Runs `work` as one task-history row: success when it returns, failed (and rethrown) when it throws. */
export async function recordTask<T>(ctx: AppContext, task: string, options: { dbId?: number | null; details?: Details }, work: (run: TaskRun) => Promise<T>): Promise<T> {
  const run = await startTask(ctx, task, options);
  try {
    const value = await work(run);
    await run.succeed();
    return value;
  } catch (error) {
    await run.fail(error);
    throw error;
  }
}

// ----- reading (GET /api/task) ------------------------------------------------------------------------------------

export type TaskSortColumn = 'started_at' | 'ended_at' | 'duration';

export interface TaskListOptions {
  limit: number | null;
  offset: number | null;
  status: TaskStatus | null;
  task: string | null;
  sortColumn: TaskSortColumn;
  sortDirection: 'asc' | 'desc';
}

type HistoryRow = { id: number; task: string; db_id: number | null; started_at: string; ended_at: string | null; duration: number | null; task_details: string | null; status: string };

function taskJson(row: HistoryRow) {
  return {
    id: row.id,
    task: row.task,
    db_id: row.db_id,
    started_at: row.started_at,
    ended_at: row.ended_at,
    duration: row.duration === null ? null : Number(row.duration),
    task_details: parseJson<Details | null>(row.task_details, null),
    status: row.status,
  };
}

export async function listTasks(ctx: AppContext, options: TaskListOptions) {
  let base = ctx.db.selectFrom('task_history');
  if (options.status) base = base.where('status', '=', options.status);
  if (options.task) base = base.where('task', '=', options.task);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let rows = base.selectAll().orderBy(options.sortColumn, options.sortDirection).orderBy('id', options.sortDirection);
  if (options.limit !== null) rows = rows.limit(options.limit);
  if (options.offset !== null && options.offset > 0) rows = options.limit === null ? rows.limit(2_147_483_647).offset(options.offset) : rows.offset(options.offset);
  return {
    total: Number(total?.n ?? 0),
    limit: options.limit,
    offset: options.offset,
    data: (await rows.execute()).map(taskJson),
  };
}

export async function getTask(ctx: AppContext, id: number) {
  const row = await ctx.db.selectFrom('task_history').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? taskJson(row) : null;
}

/** The names of the tasks that have history, sorted. */
export async function uniqueTaskNames(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.db.selectFrom('task_history').select('task').distinct().orderBy('task').execute();
  return rows.map((r) => r.task);
}

/** Drops history older than `before` (housekeeping). */
export async function purgeTaskHistory(ctx: AppContext, before: Date): Promise<number> {
  const result = await ctx.db.deleteFrom('task_history').where('started_at', '<', before.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
