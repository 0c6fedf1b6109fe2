// In-flight deduplication: identical cacheable runs arriving while one of them is running wait for it and share its
// result instead of all going to the database (the dashboard 50 people open at 9:00). Per instance: a run is only
// shared with requests this process is serving; other instances share it through the stored entry afterwards.

import type { AppContext } from '../context.js';

export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** How many distinct runs are under way (tests, diagnostics). */
  get size(): number {
    return this.running.size;
  }

  /**
   * Runs `work` as the leader of `key`, or — when that key is already running — waits for the leader's value.
   * `follower` tells which of the two happened.
   */
  async join(key: string, work: () => Promise<T>): Promise<{ follower: boolean; value: T }> {
    const current = this.running.get(key);
    if (current) return { follower: true, value: await current };
    const promise = work();
    this.running.set(key, promise);
    try {
      return { follower: false, value: await promise };
    } finally {
      if (this.running.get(key) === promise) this.running.delete(key);
    }
  }
}

const registries = new WeakMap<AppContext, InFlight<unknown>>();

export function inFlightRuns<T>(ctx: AppContext): InFlight<T> {
  let registry = registries.get(ctx);
  if (!registry) {
    registry = new InFlight<unknown>();
    registries.set(ctx, registry);
  }
  return registry as InFlight<T>;
}
