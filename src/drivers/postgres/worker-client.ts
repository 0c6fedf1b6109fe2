// The server's side of the PostgreSQL statement thread (./worker-main.ts): one worker thread per process, shared by
// every PostgreSQL data source, started on first use. It doesn't keep the process alive while no request waits.
// If it dies, the requests in flight fail and the next statement starts a new one.
//
// The thread's script: in the esbuild bundle, `postgres-worker.js` beside the chunk holding this code (an entry point
// of scripts/build.mjs); under tsx (tests, dev, benches) ./worker-main.ts with tsx registered first.

import { Worker } from 'node:worker_threads';
import pg from 'pg';
import type { PoolFigures, WorkerError, WorkerReply, WorkerRequest } from './worker-protocol.js';

function startThread(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./postgres-worker.js', here));
  // Node 20 doesn't run `--import tsx` in worker threads, so the thread registers tsx itself.
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker-main.ts', here).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}

/** A pool on the thread couldn't hand out a connection; `driverError` is the driver's error, for the connection message. */
export class ThreadConnectError extends Error {
  constructor(readonly driverError: Error) {
    super(driverError.message);
  }
}

const CLASSES: Record<string, new (message: string) => Error> = { TypeError, RangeError, SyntaxError };

/** The error the thread described, rebuilt with its class and fields (run.ts reports the class and the SQL state). */
function revive(e: WorkerError): Error {
  let error: Error;
  if (e.name === 'DatabaseError') error = new pg.DatabaseError(e.message, 0, 'error');
  else error = new (CLASSES[e.name] ?? Error)(e.message);
  Object.assign(error, e.fields);
  return e.kind === 'connect' ? new ThreadConnectError(error) : error;
}

interface Waiter {
  resolve(reply: WorkerReply): void;
  reject(error: unknown): void;
}

class StatementThread {
  private worker: Worker | null = null;
  private readonly waiters = new Map<number, Waiter>();
  private readonly figures = new Map<number, PoolFigures>();
  private lastId = 0;

  newId(): number {
    return ++this.lastId;
  }

  /** The last figures the thread gave for a pool. */
  poolFigures(pool: number): PoolFigures | null {
    return this.figures.get(pool) ?? null;
  }

  get started(): boolean {
    return this.worker !== null;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread();
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      if (reply.pool !== undefined && reply.figures) this.figures.set(reply.pool, reply.figures);
      const waiter = this.waiters.get(reply.id);
      if (!waiter) return;
      this.waiters.delete(reply.id);
      if (this.waiters.size === 0) worker.unref();
      if (reply.type === 'error') waiter.reject(revive(reply.error!));
      else waiter.resolve(reply);
    });
    const crash = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.figures.clear();
      const waiting = [...this.waiters.values()];
      this.waiters.clear();
      for (const waiter of waiting) waiter.reject(error);
    };
    worker.on('error', crash);
    worker.on('exit', () => crash(new Error('The PostgreSQL statement thread stopped.')));
    this.worker = worker;
    return worker;
  }

  /** Sends a request and waits for its reply; error replies reject with the rebuilt error. */
  request(message: WorkerRequest): Promise<WorkerReply> {
    const worker = this.thread();
    return new Promise<WorkerReply>((resolve, reject) => {
      this.waiters.set(message.id, { resolve, reject });
      worker.ref();
      worker.postMessage(message);
    });
  }

  /** Sends a message that gets no reply (close, cancel). */
  post(message: WorkerRequest): void {
    this.worker?.postMessage(message);
  }
}

let shared: StatementThread | null = null;

export function statementThread(): StatementThread {
  return (shared ??= new StatementThread());
}
