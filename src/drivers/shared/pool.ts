// A small pool for engines whose client library has none (DuckDB): up to `max` resources, FIFO waiters, idle
// resources kept for reuse. pg and mysql2 bring their own pools.

export class ResourcePool<T> {
  private idle: T[] = [];
  private size = 0;
  private waiters: Array<{ resolve: (r: T) => void; reject: (e: unknown) => void }> = [];
  private closed = false;

  constructor(
    private readonly max: number,
    private readonly create: () => Promise<T>,
    private readonly destroy: (resource: T) => void | Promise<void>,
  ) {}

  async acquire(): Promise<T> {
    if (this.closed) throw new Error('The connection pool is closed.');
    const ready = this.idle.pop();
    if (ready !== undefined) return ready;
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
    else this.idle.push(resource);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('The connection pool is closed.'));
    const idle = this.idle.splice(0);
    this.size -= idle.length;
    await Promise.all(idle.map((r) => Promise.resolve(this.destroy(r)).catch(() => {})));
  }
}
