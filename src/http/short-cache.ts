// Short-lived per-instance caches of facts read from the app DB, for the hottest request paths (who is calling,
// GET /api/user/current). An entry lives at most `ttlMs`: that is how stale a change made by another instance may
// look here. Changes this instance makes clear the caches that depend on them at once, before the answer to the
// changing request goes out, so a client never reads its own write stale.
//
// Concurrent misses for one key share one load (a burst of 50 requests when an entry expires costs one query), and a
// load that was under way when the cache was cleared is neither shared with later requests nor stored, so it can't
// put back what the clear removed.

interface Entry<V> {
  value: V;
  expires: number;
}

export class ShortCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.expires > now) return Promise.resolve(hit.value);
    const pending = this.loading.get(key);
    if (pending !== undefined) return pending;
    const generation = this.generation;
    const promise = load().then(
      (value) => {
        if (generation === this.generation) {
          this.loading.delete(key);
          if (this.entries.size >= this.maxEntries) this.evictExpired(Date.now());
          this.entries.set(key, { value, expires: now + this.ttlMs });
        }
        return value;
      },
      (error: unknown) => {
        if (generation === this.generation) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  /** Drops one key; loads under way (for any key) are neither shared further nor stored, as with clear(). */
  delete(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
    this.loading.clear();
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
  }
}

const localChangeListeners: Array<() => void> = [];

/**
 * Runs `fn` whenever a request that may change state (any method but GET/HEAD) finishes on this instance, before its
 * answer is sent: for caches of facts that many modules' writes can change (whether the user has saved questions).
 */
export function onLocalChange(fn: () => void): void {
  localChangeListeners.push(fn);
}

export function localChangeDone(): void {
  for (const fn of localChangeListeners) fn();
}

/**
 * One ShortCache per app context (a process may run several servers, as the tests do), and a way to clear them all
 * from code that has no context at hand (the caller cache's invalidation, a local change).
 */
export class PerContextCache<V> {
  private readonly caches = new WeakMap<object, ShortCache<V>>();
  private readonly live = new Set<ShortCache<V>>();

  constructor(private readonly ttlMs: number) {}

  of(ctx: { onClose: Array<() => Promise<void> | void> }): ShortCache<V> {
    let cache = this.caches.get(ctx);
    if (!cache) {
      const created = new ShortCache<V>(this.ttlMs);
      this.caches.set(ctx, created);
      this.live.add(created);
      ctx.onClose.push(() => void this.live.delete(created));
      cache = created;
    }
    return cache;
  }

  clearAll(): void {
    for (const cache of this.live) cache.clear();
  }

  /** Drops one key from every context's cache. */
  deleteAll(key: string): void {
    for (const cache of this.live) cache.delete(key);
  }
}
