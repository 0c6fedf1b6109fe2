// SQLite statements run in small worker processes, each with its own handle on the file: a heavy query never
// blocks the server's event loop, several queries run in parallel, and a statement past its timeout (or cancelled)
// is stopped for real by killing its process. (better-sqlite3 exposes no interrupt and is built without a progress
// callback, and a worker thread can't be stopped while SQLite computes, so threads would leave runaway queries
// burning a core.) The worker's code is a string run with `node -e`, so it works the same from the sources and from
// the bundle, loading better-sqlite3 by its resolved path; it talks over the IPC channel with structured cloning.

import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { ResourcePool } from '../shared/pool.js';
import { PROGRAM_OPCODES, type CompiledProgram } from './guard.js';

export const BATCH = 500;
/** Limits of the regular-expression functions the workers add to SQLite. */
export const MAX_REGEX_PATTERN = 1000;
export const MAX_REGEX_TEXT = 100_000;

const WORKER_SOURCE = `
const workerData = JSON.parse(process.env.QUARRY_SQLITE_WORKER);
const parentPort = { postMessage: (m) => process.send(m), on: (e, f) => process.on(e, f) };
process.on('disconnect', () => process.exit(0));
const Database = require(workerData.modulePath);
let db;
let iterator = null;
// SQL functions SQLite lacks, so that MBQL regex and split-part work here as on the other engines (and native SQL
// may use them): JS regular expressions, with the pattern and the text length-limited. A pattern that backtracks
// exponentially ((a+)+$ on "aaa…b") switches to V8's linear-time engine after 50,000 backtracks, as the other
// engines' regexes never backtrack that way (RE2 in DuckDB; MySQL stops at its regexp_time_limit); the few patterns
// that engine can't run (backreferences, lookbehind) are stopped like any statement: the process is killed at the
// timeout.
require('v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
const MAX_PATTERN = ${MAX_REGEX_PATTERN};
const MAX_TEXT = ${MAX_REGEX_TEXT};
const patterns = new Map();
function regex(pattern) {
  if (typeof pattern !== 'string') throw new Error('A regular expression must be text.');
  if (pattern.length > MAX_PATTERN) throw new Error('Regular expressions are limited to ' + MAX_PATTERN + ' characters.');
  let re = patterns.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    if (patterns.size > 200) patterns.clear();
    patterns.set(pattern, re);
  }
  return re;
}
function text(s) {
  if (s === null || s === undefined) return null;
  const t = typeof s === 'string' ? s : String(s);
  if (t.length > MAX_TEXT) throw new Error('Regular expressions apply to text of at most ' + MAX_TEXT + ' characters.');
  return t;
}
function registerFunctions(db) {
  const opts = { deterministic: true };
  db.function('regexp_substr', opts, (s, p) => {
    const t = text(s);
    if (t === null || p === null) return null;
    const m = regex(p).exec(t);
    return m ? m[0] : null;
  });
  db.function('regexp_replace', opts, (s, p, r) => {
    const t = text(s);
    if (t === null || p === null || r === null) return null;
    // Replacements refer to groups as \\1 (the SQL engines' way); JS writes $1.
    const replacement = String(r).replace(/\\$/g, '$$$$').replace(/\\\\(\\d)/g, '$$$1');
    return t.replace(regex(p), replacement);
  });
  db.function('regexp_like', opts, (s, p) => {
    const t = text(s);
    if (t === null || p === null) return null;
    return regex(p).test(t) ? 1 : 0;
  });
  // x REGEXP y calls regexp(y, x).
  db.function('regexp', opts, (p, s) => {
    const t = text(s);
    if (t === null || p === null) return null;
    return regex(p).test(t) ? 1 : 0;
  });
  // Unicode case mapping a character at a time; a character whose mapping is several characters (ß → SS) stays.
  const mapChars = (s, f) => {
    let out = '';
    for (const c of s) {
      const m = f(c);
      out += [...m].length === 1 ? m : c;
    }
    return out;
  };
  db.function('unicode_upper', opts, (s) => (s === null ? null : mapChars(String(s), (c) => c.toUpperCase())));
  db.function('unicode_lower', opts, (s) => (s === null ? null : mapChars(String(s), (c) => c.toLowerCase())));
  // Floats as their shortest round-trip digits (what PostgreSQL, MySQL and JS write).
  db.function('float_text', opts, (x) => (x === null ? null : typeof x === 'bigint' ? x.toString() : String(Number(x))));
  db.function('split_part', opts, (s, d, n) => {
    if (s === null || d === null || n === null) return null;
    const str = String(s);
    const delimiter = String(d);
    const i = Number(n);
    if (!Number.isInteger(i) || i < 1) return '';
    if (delimiter === '') return i === 1 ? str : '';
    const parts = str.split(delimiter);
    return i <= parts.length ? parts[i - 1] : '';
  });
}
try {
  db = new Database(workerData.file, { readonly: workerData.readOnly, fileMustExist: true, timeout: 5000 });
  if (workerData.readOnly) db.pragma('query_only = ON');
  registerFunctions(db);
  parentPort.postMessage({ type: 'ready' });
} catch (e) {
  parentPort.postMessage({ type: 'error', message: e.message, code: e.code });
}
function batch(columns) {
  const rows = [];
  let done = false;
  while (rows.length < ${BATCH}) {
    const next = iterator.next();
    if (next.done) { done = true; break; }
    rows.push(next.value);
  }
  if (done) iterator = null;
  parentPort.postMessage({ type: 'rows', columns, rows, done });
}
parentPort.on('message', (msg) => {
  try {
    if (msg.type === 'explain') {
      // The statement compiled, not run, for the guard's second layer (src/drivers/sqlite/guard.ts).
      let statement, program;
      try {
        statement = db.prepare(msg.sql);
        program = db.prepare('EXPLAIN ' + msg.sql).all(...msg.params);
      } catch (e) {
        const code = String(e.code || '');
        if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) throw e;
        parentPort.postMessage({ type: 'program', program: null });
        return;
      }
      const ops = program.filter((op) => msg.opcodes.includes(op.opcode)).map((op) => ({ opcode: op.opcode, p4: op.p4 }));
      parentPort.postMessage({ type: 'program', program: { readonly: statement.readonly, ops } });
    } else if (msg.type === 'run') {
      if (iterator) { iterator.return(); iterator = null; }
      const statement = db.prepare(msg.sql);
      if (!statement.reader) {
        statement.run(...msg.params);
        parentPort.postMessage({ type: 'rows', columns: [], rows: [], done: true });
        return;
      }
      statement.safeIntegers(true);
      statement.raw(true);
      const columns = statement.columns().map((c) => ({ name: c.name, type: c.type }));
      iterator = statement.iterate(...msg.params);
      batch(columns);
    } else if (msg.type === 'next') {
      if (!iterator) parentPort.postMessage({ type: 'rows', columns: null, rows: [], done: true });
      else batch(null);
    } else if (msg.type === 'close') {
      if (iterator) { iterator.return(); iterator = null; }
      parentPort.postMessage({ type: 'closed' });
    }
  } catch (e) {
    iterator = null;
    parentPort.postMessage({ type: 'error', message: e.message, code: e.code });
  }
});
`;

export interface WorkerReply {
  type: 'ready' | 'rows' | 'closed' | 'error' | 'program';
  program?: CompiledProgram | null;
  columns?: Array<{ name: string; type: string | null }> | null;
  rows?: unknown[][];
  done?: boolean;
  message?: string;
  code?: string;
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
    const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
    this.child = spawn(process.execPath, ['-e', WORKER_SOURCE], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      env: { PATH: process.env.PATH ?? '', QUARRY_SQLITE_WORKER: JSON.stringify({ file, readOnly, modulePath }) },
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
  async request(message: Record<string, unknown>): Promise<WorkerReply> {
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

  /** `sql` compiled (not run) with EXPLAIN, for the guard's second layer; null when it doesn't compile. */
  async explain(sql: string, params: unknown[]): Promise<CompiledProgram | null> {
    const reply = await this.request({ type: 'explain', sql, params, opcodes: PROGRAM_OPCODES });
    return reply.program ?? null;
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
