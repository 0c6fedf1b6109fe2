// SQLite statements run in small worker processes, each with its own handle on the file: a heavy query never
// blocks the server's event loop, several queries run in parallel, and a statement past its timeout (or cancelled)
// is stopped for real by killing its process. (better-sqlite3 exposes no interrupt and is built without a progress
// callback, and a worker thread can't be stopped while SQLite computes, so threads would leave runaway queries
// burning a core.) The worker's program is ./worker-main.ts — `dist/sqlite-worker.js` in the bundle, the TypeScript
// file through tsx when the server runs from its sources; they talk over the IPC channel with structured cloning
// (./protocol.ts).

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ResourcePool } from '../shared/pool.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

/** How to start the worker program: the bundle's own file, or the source through tsx's loader. */
function workerCommand(): string[] {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./worker-main.ts', here))];
  return [fileURLToPath(new URL('./sqlite-worker.js', here))];
}

export class SqliteStatementError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'SqliteError';
  }
}

/** One worker process with one SQLite handle, answering one request at a time. */
export class SqliteWorker {
  private readonly child: ChildProcess;
  private pending: { resolve: (r: WorkerReply) => void; reject: (e: unknown) => void } | null = null;
  private exitError: Error | null = null;
  readonly ready: Promise<void>;

  constructor(file: string, readOnly: boolean) {
    this.child = spawn(process.execPath, workerCommand(), {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      env: { PATH: process.env.PATH ?? '', QUARRY_SQLITE_WORKER: JSON.stringify({ file, readOnly }) },
    });
    this.child.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.pending = { resolve: (r) => (r.type === 'ready' ? resolve() : reject(new SqliteStatementError(r.message ?? 'SQLite worker failed', r.code))), reject };
    });
    this.ready.catch(() => {});
    this.child.on('message', (reply: WorkerReply) => {
      const waiter = this.pending;
      this.pending = null;
      this.idle();
      waiter?.resolve(reply);
    });
    this.child.on('error', (error) => this.fail(error));
    this.child.on('exit', () => this.fail(new Error('The SQLite worker stopped.')));
  }

  private fail(error: Error): void {
    if (!this.exitError) this.exitError = error;
    const waiter = this.pending;
    this.pending = null;
    this.idle();
    waiter?.reject(this.exitError);
  }

  /** While idle, the IPC channel must not keep the process alive. */
  private idle(): void {
    (this.child.channel as unknown as { unref?: () => void } | null | undefined)?.unref?.();
  }

  /** Sends a request and waits for its reply; error replies reject. */
  async request(message: WorkerRequest): Promise<WorkerReply> {
    if (this.exitError) throw this.exitError;
    const reply = await new Promise<WorkerReply>((resolve, reject) => {
      this.pending = { resolve, reject };
      (this.child.channel as unknown as { ref?: () => void } | null | undefined)?.ref?.();
      this.child.send(message, (error) => {
        if (error) this.fail(error);
      });
    });
    if (reply.type === 'error') throw new SqliteStatementError(reply.message ?? 'SQLite error', reply.code);
    return reply;
  }

  /** Kills the process; a request in progress rejects at once with `reason`. */
  stop(reason?: Error): void {
    this.fail(reason ?? new Error('The SQLite worker was stopped.'));
    this.child.kill('SIGKILL');
  }
}

export function workerPool(file: string, readOnly: boolean, max: number): ResourcePool<SqliteWorker> {
  return new ResourcePool<SqliteWorker>(
    max,
    async () => {
      const worker = new SqliteWorker(file, readOnly);
      await worker.ready;
      return worker;
    },
    (worker) => worker.stop(),
    { idleMs: 60_000 },
  );
}
