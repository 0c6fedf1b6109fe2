// A per-database concurrency cap with a fair queue. At most `maxRunning` queries run on one database at once (its
// pool size); the others wait in per-caller lines served round-robin, so one user firing a hundred queries can't
// starve the next user's single one. When `maxQueued` are already waiting, a new query fails at once with a clear
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
  /** Waiting callers, in the order they first queued; each with its own FIFO line. */
  private readonly lines = new Map<string, Waiter[]>();

  constructor(
    readonly name: string,
    private readonly limits: QueueLimits,
  ) {}

  get stats() {
    return { running: this.running, queued: this.queued };
  }

  /** Waits for a slot; the returned function gives it back (call it exactly once). */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new QueryError('client', 'Query cancelled.'));
    if (this.running < this.limits.maxRunning && this.queued === 0) {
      this.running += 1;
      return Promise.resolve(this.releaser());
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

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.dispatch();
    };
  }

  /** Hands free slots to the next caller in round-robin order. */
  private dispatch(): void {
    while (this.running < this.limits.maxRunning && this.queued > 0) {
      const [key, line] = this.lines.entries().next().value as [string, Waiter[]];
      const waiter = line.shift()!;
      this.lines.delete(key);
      if (line.length) this.lines.set(key, line); // to the back of the round
      this.queued -= 1;
      this.running += 1;
      waiter.cleanup();
      waiter.resolve(this.releaser());
    }
  }
}

const queues = new Map<string, FairQueue>();

export function queueFor(key: string, name: string, limits: QueueLimits): FairQueue {
  let q = queues.get(key);
  if (!q) {
    q = new FairQueue(name, limits);
    queues.set(key, q);
  }
  return q;
}
