// A per-database concurrency cap with a fair queue. At most `maxRunning` queries run on one database at once (its
// pool size, or less when the engine can't run that many in parallel); the others wait in per-caller lines, and a
// free slot goes to the waiting caller with the fewest queries running, so one user firing a hundred queries
// can't starve the next user's single one. When `maxQueued` are already waiting, a new query fails at once with a clear
// message instead of hanging.

import { QueryError } from '../errors.js';

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

export interface QueueLimits {
  maxRunning: number;
  maxQueued: number;
}

export class FairQueue {
  private running = 0;
  private queued = 0;
  /** Queries running per caller key. */
  private readonly runningBy = new Map<string, number>();
  /** Waiting callers, in the order they first queued; each with its own FIFO line. */
  private readonly lines = new Map<string, Waiter[]>();

  constructor(
    readonly name: string,
    private readonly limits: QueueLimits,
  ) {}

  get stats() {
    return { running: this.running, queued: this.queued };
  }

  /** How many may run at once. */
  get maxRunning(): number {
    return this.limits.maxRunning;
  }

  /** Waits for a slot; the returned function gives it back (call it exactly once). */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new QueryError('client', 'Query cancelled.'));
    if (this.running < this.limits.maxRunning && this.queued === 0) {
      this.start(key);
      return Promise.resolve(this.releaser(key));
    }
    if (this.queued >= this.limits.maxQueued) {
      return Promise.reject(
        new QueryError(
          'server',
          `Too many queries are waiting to run on ${this.name} (${this.running} running, ${this.queued} queued, limit ${this.limits.maxQueued}). Try again in a moment.`,
          { status: 503 },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const line = this.lines.get(key);
        const i = line ? line.indexOf(waiter) : -1;
        if (line && i !== -1) {
          line.splice(i, 1);
          if (!line.length) this.lines.delete(key);
          this.queued -= 1;
        }
        reject(new QueryError('client', 'Query cancelled.'));
      };
      const waiter: Waiter = {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const line = this.lines.get(key);
      if (line) line.push(waiter);
      else this.lines.set(key, [waiter]);
      this.queued += 1;
    });
  }

  private start(key: string): void {
    this.running += 1;
    this.runningBy.set(key, (this.runningBy.get(key) ?? 0) + 1);
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.runningBy.get(key) ?? 1) - 1;
      if (left > 0) this.runningBy.set(key, left);
      else this.runningBy.delete(key);
      this.dispatch();
    };
  }

  /** Hands free slots to waiting callers, fewest running first (ties: who has waited longest). */
  private dispatch(): void {
    while (this.running < this.limits.maxRunning && this.queued > 0) {
      let chosen: string | null = null;
      let fewest = Infinity;
      for (const key of this.lines.keys()) {
        const running = this.runningBy.get(key) ?? 0;
        if (running < fewest) {
          fewest = running;
          chosen = key;
        }
      }
      const line = this.lines.get(chosen!)!;
      const waiter = line.shift()!;
      this.lines.delete(chosen!);
      if (line.length) this.lines.set(chosen!, line); // to the back of the round
      this.queued -= 1;
      this.start(chosen!);
      waiter.cleanup();
      waiter.resolve(this.releaser(chosen!));
    }
  }
}
