// A small pool of worker threads that render (./worker.ts runs ./job.ts), so that drawing a 25-card subscription
// never stalls the server's event loop. Workers start on first use, one job at a time each, and stop after a few
// idle minutes; an idle pool doesn't keep the process alive. A worker that dies or hangs is replaced and its job
// fails. `closeRenderPool()` stops them all (the server calls it on close).
//
// The worker's script: in the esbuild bundle (`npm start`) `render-worker.js` beside the chunk holding this code —
// scripts/build.mjs emits it as an entry point of its own; under tsx (tests, dev, benches) ./worker.ts.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export type JobKind = 'png' | 'html';

interface Job {
  id: number;
  kind: JobKind;
  payload: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/** A render that takes longer than this is stuck: its worker is replaced. */
const JOB_TIMEOUT_MS = 120_000;
const IDLE_STOP_MS = 5 * 60_000;

export function poolSize(): number {
  const configured = Number(process.env.QUARRY_RENDER_THREADS);
  if (Number.isInteger(configured) && configured > 0) return Math.min(configured, 16);
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** A render worker: the bundle's render-worker.js, or under tsx the .ts entry with tsx's loader registered first. */
export function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./render-worker.js', here));
  // Node 20 doesn't run `--import tsx` in worker threads, so the worker registers tsx itself.
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', here).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}

export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly size = poolSize()) {}

  run<T>(kind: JobKind, payload: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, kind, payload, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Workers running now (for tests and the bench). */
  get threads(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const job of this.queue.splice(0)) job.reject(new Error('The render pool was closed.'));
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map(async (slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.reject(new Error('The render pool was closed.'));
        slot.job = null;
        await slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.worker.ref();
      slot.timer = setTimeout(() => this.fail(slot as Slot, new Error('Rendering took too long.')), JOB_TIMEOUT_MS);
      slot.worker.postMessage({ id: job.id, kind: job.kind, payload: job.payload });
    }
    this.scheduleIdleStop();
  }

  private spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (message: { id: number; value?: unknown; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      this.finish(slot);
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.value);
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(slot, error));
    worker.on('exit', (code) => this.fail(slot, new Error(`The render worker stopped (exit code ${code}).`)));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
  }

  /** A worker broke: its job fails, the worker goes, and the queue moves on with a fresh one. */
  private fail(slot: Slot, error: Error): void {
    const at = this.slots.indexOf(slot);
    if (at === -1) return;
    this.slots.splice(at, 1);
    const job = slot.job;
    this.finish(slot);
    void slot.worker.terminate();
    job?.reject(error);
    this.dispatch();
  }

  private scheduleIdleStop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.slots.length === 0 || this.slots.some((s) => s.job !== null)) return;
    this.idleTimer = setTimeout(() => void this.close(), IDLE_STOP_MS);
    this.idleTimer.unref();
  }
}
