// The cluster-wide scheduler. Modules register kinds of scheduled jobs (`registerScheduledJobs`); each kind lists
// its jobs (a key, a Quartz cron, a time zone, and the moment from which it may fire) and runs one occurrence.
// Every instance evaluates every job; an occurrence runs on the one instance that claims it in the app DB
// (./claims.ts), so N instances on one PostgreSQL or MySQL app DB run it once. See ./README.md.
//
// Rules:
//   - only the latest occurrence at or before now is ever due: one missed while every instance was down runs once
//     on start, not once per missed fire time; occurrences before the job's `since` (its creation or last edit)
//     never fire, nor those before its cron or time zone changed (the fire times of a new zone are not missed ones);
//   - a run holds a lease, renewed while it runs; when its instance dies the lease lapses and another instance
//     takes the run over (with the progress it checkpointed);
//   - a run that throws a TransientError is retried with exponential backoff, up to `maxAttempts` attempts in all
//     (a takeover after a crash counts as one); any other error fails the occurrence for good;
//   - each attempt is a row of task history (unless the kind writes its own).

import type { AppContext } from '../context.js';
import { INSTANCE_ID } from './lease.js';
import { latestFireTime, nextFireTime } from './cron.js';
import { claimExisting, claimNew, claimedAlready, finishClaim, giveUp, renewClaim, saveProgress, takeoverCandidates, type Claim } from './claims.js';
import { errorMessage, startTask, type TaskRun } from './history.js';

/** Throw it from a run to have the occurrence retried later (SMTP 4xx, HTTP 5xx, timeouts…). */
export class TransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

export interface ScheduledJob {
  /** Unique within the kind (≤ 254 characters), e.g. `12.0_0_8_*_*_?_*` for a pulse's 8 o'clock channels. */
  key: string;
  /** Quartz cron: `sec min hour day-of-month month day-of-week [year]`. */
  cron: string;
  /** IANA zone the cron is read in. */
  timezone: string;
  /** No occurrence before this moment fires (the job's creation or last edit); null: any. */
  since: string | Date | null;
  /** Shown by GET /api/task/info. */
  description?: string;
  /** Shown by GET /api/task/info as the trigger's data. */
  data?: Record<string, unknown>;
}

export interface JobRun {
  key: string;
  /** The fire time being run. */
  occurrence: Date;
  /** 1 for the first attempt. */
  attempt: number;
  /** What earlier attempts checkpointed ({} on the first). */
  progress: Record<string, unknown>;
  /** Saves progress, so that a retry or a takeover after a crash does only the rest. */
  checkpoint(progress: Record<string, unknown>): Promise<void>;
  /** This attempt's task-history details; add to them. */
  details: Record<string, unknown>;
  /** Aborted when the server shuts down or the lease was lost. */
  signal: AbortSignal;
}

export interface JobKind {
  /** ≤ 64 characters: `pulse`, `persist-refresh`, `cache-refresh`, … */
  kind: string;
  description?: string;
  list(ctx: AppContext): Promise<ScheduledJob[]>;
  run(ctx: AppContext, job: JobRun): Promise<void>;
  /** Task-history name of a run (default: the kind); false when the run writes its own history. */
  history?: string | false;
  /** Attempts in all before an occurrence fails for good (default QUARRY_SCHEDULER_MAX_ATTEMPTS, 5). */
  maxAttempts?: number;
  /** Task-history `db_id` of a run. */
  dbIdOf?(key: string): number | null;
}

export interface SchedulerOptions {
  pollMs: number;
  leaseMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  concurrency: number;
  enabled: boolean;
}

function envNumber(env: Record<string, string | undefined>, name: string, fallback: number, min: number): number {
  const n = Number(env[name]);
  return env[name] !== undefined && env[name] !== '' && Number.isFinite(n) && n >= min ? n : fallback;
}

/** Tunables from the environment (short values let tests see takeovers and retries in seconds). */
export function schedulerOptions(env: Record<string, string | undefined>): SchedulerOptions {
  return {
    pollMs: envNumber(env, 'QUARRY_SCHEDULER_POLL_MS', 30_000, 50),
    leaseMs: envNumber(env, 'QUARRY_SCHEDULER_LEASE_MS', 120_000, 300),
    retryBaseMs: envNumber(env, 'QUARRY_SCHEDULER_RETRY_MS', 30_000, 0),
    maxAttempts: envNumber(env, 'QUARRY_SCHEDULER_MAX_ATTEMPTS', 5, 1),
    concurrency: envNumber(env, 'QUARRY_SCHEDULER_CONCURRENCY', 3, 1),
    // Metabase's switch for instances that should serve requests only
    enabled: (env.MB_DISABLE_SCHEDULER ?? '').toLowerCase() !== 'true',
  };
}

const MAX_BACKOFF_MS = 30 * 60_000;
const SHUTDOWN_WAIT_MS = 5_000;
/** Timers may fire a little early; waking a moment late makes the fire time "at or before now". */
const WAKE_SLACK_MS = 25;

function sinceMs(since: ScheduledJob['since']): number {
  if (since === null || since === undefined) return -Infinity;
  const ms = since instanceof Date ? since.getTime() : Date.parse(since);
  return Number.isNaN(ms) ? -Infinity : ms;
}

/** The wait before retrying after failed attempt `attempt`: base × 2^(attempt−1), ±10 % (`random` in [0, 1)), at most 30 min. */
export function retryDelay(baseMs: number, attempt: number, random: number = Math.random()): number {
  const base = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(MAX_BACKOFF_MS, Math.round(base * (1 + (random * 0.2 - 0.1))));
}

let schedulerCount = 0;

export class Scheduler {
  readonly owner = `${INSTANCE_ID}/${++schedulerCount}`;
  readonly kinds = new Map<string, JobKind>();
  readonly startedAt = new Date();
  private readonly running = new Map<number, { claim: Claim; abort: AbortController; done: Promise<void> }>();
  /** Per kind+key: the occurrence (ms) this instance already dealt with (claimed by it or by another instance). */
  private readonly handled = new Map<string, number>();
  /** Per kind+key: the cron and zone last seen, and when they last changed (ms) while this instance watched. */
  private readonly seen = new Map<string, { cron: string; timezone: string; changedAt: number }>();
  private timer: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    readonly options: SchedulerOptions,
  ) {}

  register(kind: JobKind): void {
    if (kind.kind.length > 64) throw new Error(`job kind name too long: ${kind.kind}`);
    this.kinds.set(kind.kind, kind);
    if (this.started) void this.poke();
  }

  start(): void {
    if (this.started || !this.options.enabled) return;
    this.started = true;
    void this.poke();
  }

  /** Evaluates every job now; resolves when that evaluation (and any it asked for) is done. */
  poke(): Promise<void> {
    if (!this.started || this.stopped) return Promise.resolve();
    this.again = true;
    if (!this.loop) {
      this.loop = (async () => {
        try {
          while (this.again && !this.stopped) {
            this.again = false;
            const wake = await this.evaluate().catch((error) => {
              this.ctx.log.warn({ err: error }, 'scheduler: evaluating jobs failed');
              return Date.now() + this.options.pollMs;
            });
            this.arm(wake);
          }
        } finally {
          this.loop = null;
        }
      })();
    }
    return this.loop;
  }

  private arm(wakeAt: number): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.stopped) return;
    const delay = Math.max(0, Math.min(wakeAt, Date.now() + this.options.pollMs) - Date.now()) + WAKE_SLACK_MS;
    this.timer = setTimeout(() => void this.poke(), delay);
    this.timer.unref();
  }

  private capacity(): number {
    return this.options.concurrency - this.running.size;
  }

  /** One pass: claim due occurrences and lapsed or retryable runs; returns when to look again. */
  private async evaluate(): Promise<number> {
    const now = new Date();
    let wake = now.getTime() + this.options.pollMs;
    const due: Array<{ kind: JobKind; job: ScheduledJob; occurrence: Date }> = [];
    for (const kind of this.kinds.values()) {
      let jobs: ScheduledJob[];
      try {
        jobs = await kind.list(this.ctx);
      } catch (error) {
        this.ctx.log.warn({ err: error, kind: kind.kind }, 'scheduler: listing jobs failed');
        continue;
      }
      for (const job of jobs) {
        const next = nextFireTime(job.cron, job.timezone, now);
        if (next) wake = Math.min(wake, next.getTime());
        const latest = latestFireTime(job.cron, job.timezone, now);
        if (!latest || latest.getTime() < Math.max(sinceMs(job.since), this.changedAt(kind.kind, job, now.getTime()))) continue;
        if (this.handled.get(`${kind.kind}\u0000${job.key}`) === latest.getTime()) continue;
        due.push({ kind, job, occurrence: latest });
      }
    }
    await this.claimDue(due);
    await this.takeOver();
    return wake;
  }

  /**
   * When the job's cron or time zone last changed under this instance's eyes (-Infinity: not seen to change): the
   * latest fire time of a new cron or zone is not a missed occurrence.
   */
  private changedAt(kind: string, job: ScheduledJob, now: number): number {
    const id = `${kind}\u0000${job.key}`;
    const before = this.seen.get(id);
    if (!before) {
      this.seen.set(id, { cron: job.cron, timezone: job.timezone, changedAt: -Infinity });
      return -Infinity;
    }
    if (before.cron !== job.cron || before.timezone !== job.timezone) this.seen.set(id, { cron: job.cron, timezone: job.timezone, changedAt: now });
    return this.seen.get(id)!.changedAt;
  }

  private async claimDue(due: Array<{ kind: JobKind; job: ScheduledJob; occurrence: Date }>): Promise<void> {
    const byKind = new Map<string, typeof due>();
    for (const d of due) byKind.set(d.kind.kind, [...(byKind.get(d.kind.kind) ?? []), d]);
    for (const [kindName, list] of byKind) {
      const taken = await claimedAlready(this.ctx, kindName, list.map((d) => ({ key: d.job.key, occurrence: d.occurrence.toISOString() })));
      for (const d of list) {
        const id = `${kindName}\u0000${d.job.key}`;
        const occurrence = d.occurrence.toISOString();
        if (taken.has(`${d.job.key}\u0000${occurrence}`)) {
          this.handled.set(id, d.occurrence.getTime());
          continue;
        }
        if (this.stopped) return;
        // no room now: left for another instance, or for this one when a run ends
        if (this.capacity() <= 0) continue;
        // the previous occurrence of this job still runs here: this one waits for it
        if ([...this.running.values()].some((r) => r.claim.kind === kindName && r.claim.key === d.job.key)) continue;
        const claim = await claimNew(this.ctx, this.owner, kindName, d.job.key, occurrence, this.options.leaseMs);
        this.handled.set(id, d.occurrence.getTime());
        if (claim) this.launch(d.kind, claim);
      }
    }
  }

  private async takeOver(): Promise<void> {
    if (this.stopped || this.capacity() <= 0) return;
    const rows = await takeoverCandidates(this.ctx, [...this.kinds.keys()], this.capacity() * 2);
    for (const row of rows) {
      if (this.stopped || this.capacity() <= 0) return;
      const kind = this.kinds.get(row.job_kind);
      if (!kind) continue;
      if (row.status === 'running' && Number(row.attempt) >= this.maxAttemptsOf(kind)) {
        if (await giveUp(this.ctx, row, `The run stopped ${row.attempt} times without finishing (its instance went away).`)) {
          this.ctx.log.warn({ kind: row.job_kind, key: row.job_key, occurrence: row.occurrence }, 'scheduler: gave up a run that kept dying');
        }
        continue;
      }
      const claim = await claimExisting(this.ctx, this.owner, row, this.options.leaseMs);
      if (claim) this.launch(kind, claim);
    }
  }

  private maxAttemptsOf(kind: JobKind): number {
    return kind.maxAttempts ?? this.options.maxAttempts;
  }

  private backoffMs(attempt: number): number {
    return retryDelay(this.options.retryBaseMs, attempt);
  }

  private launch(kind: JobKind, claim: Claim): void {
    const abort = new AbortController();
    let lost = false;
    const renew = setInterval(() => {
      renewClaim(this.ctx, this.owner, claim.id, this.options.leaseMs)
        .then((held) => {
          if (!held && !lost) {
            lost = true;
            abort.abort(new Error('The lease on this run was lost to another instance.'));
          }
        })
        .catch((error) => this.ctx.log.warn({ err: error }, 'scheduler: renewing a lease failed'));
    }, Math.max(100, Math.floor(this.options.leaseMs / 3)));
    renew.unref();
    const entry = { claim, abort, done: Promise.resolve() };
    this.running.set(claim.id, entry);
    entry.done = (async () => {
      let history: TaskRun | null = null;
      try {
        if (kind.history !== false) {
          history = await startTask(this.ctx, kind.history ?? kind.kind, {
            dbId: kind.dbIdOf?.(claim.key) ?? null,
            details: { job_key: claim.key, occurrence: claim.occurrence.toISOString(), attempt: claim.attempt, instance: this.owner },
          });
        }
        const details = history?.details ?? {};
        await kind.run(this.ctx, {
          key: claim.key,
          occurrence: claim.occurrence,
          attempt: claim.attempt,
          progress: claim.progress,
          checkpoint: (progress) => saveProgress(this.ctx, this.owner, claim.id, progress),
          details,
          signal: abort.signal,
        });
        abort.signal.throwIfAborted();
        await finishClaim(this.ctx, this.owner, claim, { status: 'success' });
        await history?.succeed();
      } catch (error) {
        await this.failed(kind, claim, error, history, lost);
      } finally {
        clearInterval(renew);
        this.running.delete(claim.id);
        // a due occurrence may have waited for room
        if (!this.stopped) void this.poke();
      }
    })();
  }

  private async failed(kind: JobKind, claim: Claim, error: unknown, history: TaskRun | null, lost: boolean): Promise<void> {
    const message = errorMessage(error);
    try {
      if (lost) {
        await history?.fail(error, { outcome: 'taken over by another instance' });
        return;
      }
      if (this.stopped) {
        // shutting down: hand the run to another instance at once, without counting this attempt
        await finishClaim(this.ctx, this.owner, claim, { status: 'retry', error: message, at: Date.now(), refundAttempt: true });
        await history?.fail(error, { outcome: 'interrupted by shutdown; handed over' });
        return;
      }
      const retry = error instanceof TransientError && claim.attempt < this.maxAttemptsOf(kind);
      if (retry) {
        const at = Date.now() + this.backoffMs(claim.attempt);
        await finishClaim(this.ctx, this.owner, claim, { status: 'retry', error: message, at });
        await history?.fail(error, { retry_at: new Date(at).toISOString() });
      } else {
        await finishClaim(this.ctx, this.owner, claim, { status: 'failed', error: message });
        await history?.fail(error);
        this.ctx.log.warn({ kind: kind.kind, key: claim.key, occurrence: claim.occurrence, attempt: claim.attempt, error: message }, 'scheduled job failed');
      }
    } catch (bookkeeping) {
      this.ctx.log.warn({ err: bookkeeping }, 'scheduler: recording a failure failed');
    }
  }

  /** Waits until no run of this instance is in progress (tests). */
  async idle(): Promise<void> {
    while (this.running.size || this.loop) {
      await Promise.allSettled([...[...this.running.values()].map((r) => r.done), this.loop]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const r of this.running.values()) r.abort.abort(new Error('The server is shutting down.'));
    const runs = Promise.allSettled([...this.running.values()].map((r) => r.done));
    await Promise.race([runs, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]);
  }

  get isRunning(): boolean {
    return this.started && !this.stopped;
  }

  runningKeys(): Array<{ kind: string; key: string }> {
    return [...this.running.values()].map((r) => ({ kind: r.claim.kind, key: r.claim.key }));
  }
}

const schedulers = new WeakMap<AppContext, Scheduler>();

export function schedulerOf(ctx: AppContext): Scheduler {
  let scheduler = schedulers.get(ctx);
  if (!scheduler) {
    const created = new Scheduler(ctx, schedulerOptions(ctx.config.env));
    scheduler = created;
    schedulers.set(ctx, created);
    ctx.onClose.push(() => created.stop());
  }
  return scheduler;
}

/** Adds a kind of scheduled job (before or after the scheduler started). */
export function registerScheduledJobs(ctx: AppContext, kind: JobKind): void {
  schedulerOf(ctx).register(kind);
}

/** Looks at every job again now — after this instance created, changed or removed one. */
export function rescheduleJobs(ctx: AppContext): Promise<void> {
  return schedulerOf(ctx).poke();
}

export function startScheduler(ctx: AppContext): void {
  schedulerOf(ctx).start();
}
