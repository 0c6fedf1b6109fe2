// A small pool for engines whose client library has none (DuckDB): up to `max` resources, FIFO waiters, idle
// resources kept for reuse. pg and mysql2 bring their own pools.

export class ResourcePool<T> {
  private idle: Array<{ resource: T; since: number }> = [];
  private size = 0;
  private waiters: Array<{ resolve: (r: T) => void; reject: (e: unknown) => void }> = [];
  private closed = false;
  private reaper: NodeJS.Timeout | null = null;

  constructor(
    private readonly max: number,
    private readonly create: () => Promise<T>,
    private readonly destroy: (resource: T) => void | Promise<void>,
    /** Idle resources older than this are destroyed (none are when unset). */
    private readonly options: { idleMs?: number } = {},
  ) {}

  async acquire(): Promise<T> {
    if (this.closed) throw new Error('The connection pool is closed.');
    const ready = this.idle.pop();
    if (ready !== undefined) return ready.resource;
    if (this.size < this.max) {
      this.size += 1;
      try {
        return await this.create();
      } catch (error) {
        this.size -= 1;
        throw error;
      }
    }
    return new Promise<T>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Resources open (in use and idle), idle ones, and callers waiting for one. */
  stats(): { total: number; idle: number; waiting: number; max: number } {
    return { total: this.size, idle: this.idle.length, waiting: this.waiters.length, max: this.max };
  }

  /** Returns a resource; `broken` ones are destroyed instead of reused. */
  release(resource: T, broken = false): void {
    if (broken || this.closed) {
      this.size -= 1;
      Promise.resolve(this.destroy(resource)).catch(() => {});
      if (!this.closed && this.waiters.length) {
        const waiter = this.waiters.shift()!;
        this.acquire().then(waiter.resolve, waiter.reject);
      }
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(resource);
    else {
      this.idle.push({ resource, since: Date.now() });
      this.scheduleReaping();
    }
  }

  private scheduleReaping(): void {
    const idleMs = this.options.idleMs;
    if (!idleMs || this.reaper) return;
    this.reaper = setTimeout(() => {
      this.reaper = null;
      const cutoff = Date.now() - idleMs;
      const stale = this.idle.filter((e) => e.since <= cutoff);
      this.idle = this.idle.filter((e) => e.since > cutoff);
      this.size -= stale.length;
      for (const e of stale) Promise.resolve(this.destroy(e.resource)).catch(() => {});
      if (this.idle.length) this.scheduleReaping();
    }, idleMs);
    this.reaper.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('The connection pool is closed.'));
    if (this.reaper) clearTimeout(this.reaper);
    const idle = this.idle.splice(0);
    this.size -= idle.length;
    await Promise.all(idle.map((e) => Promise.resolve(this.destroy(e.resource)).catch(() => {})));
  }
}
