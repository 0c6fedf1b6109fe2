// The program of a SQLite worker process (./workers.ts starts it): one better-sqlite3 handle on one file, answering
// one request at a time over the IPC channel. It reads a statement's rows in batches and normalizes their values to
// the drivers' conventions (../driver.ts) before they leave the process. Asked to `encode`, it also runs the query
// engine's row pass (../../query/results/row-processor.ts) on them and sends JSON text instead of values, so that an
// API result's rows never reach the server's event loop as values.
//
// Protocol (each request gets one reply; an `error` reply for anything that throws):
//   run {sql, params, check?} → columns {columns, done}  with `check`, the program is judged first (as `explain` +
//                                                   the guard); the first batch is read and held; a write statement runs
//   next               → rows {rows, done}            values; or, after `encode`: json {json, rows, done, summary?}
//   encode {plan}      → json {json, rows, done, summary?}
//   close              → closed                       drops the statement's iterator

import { setFlagsFromString } from 'node:v8';
import Database, { type SqliteHandle } from '../../util/better-sqlite3.js';
import { RowProcessor, type RowPlan } from '../../query/results/row-processor.js';
import { base64, integerValue, localTimestamp } from '../shared/values.js';
import { sqliteBaseType, sqliteValueKind, type SqliteValueKind } from './types.js';
import { BATCH, MAX_REGEX_PATTERN, MAX_REGEX_TEXT, REFUSED_CODE, type ProgramCheck, type WorkerColumn, type WorkerReply, type WorkerRequest } from './protocol.js';
import { checkSqliteProgram, PROGRAM_OPCODES, RefusedStatementError, type CompiledProgram } from './guard.js';

/** An encoded reply carries at least this much JSON (or the rest of the rows): fewer round trips for big results. */
const JSON_CHUNK = 1024 * 1024;

// ----- SQL functions SQLite lacks --------------------------------------------------------------------------------
// So that MBQL regex and split-part work here as on the other engines (and native SQL may use them): JS regular
// expressions, with the pattern and the text length-limited. A pattern that backtracks exponentially ((a+)+$ on
// "aaa…b") switches to V8's linear-time engine after 50,000 backtracks, as the other engines' regexes never backtrack
// that way (RE2 in DuckDB; MySQL stops at its regexp_time_limit); the few patterns that engine can't run
// (backreferences, lookbehind) are stopped like any statement: the process is killed at the timeout.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const patterns = new Map<string, RegExp>();

function regex(pattern: unknown): RegExp {
  if (typeof pattern !== 'string') throw new Error('A regular expression must be text.');
  if (pattern.length > MAX_REGEX_PATTERN) throw new Error(`Regular expressions are limited to ${MAX_REGEX_PATTERN} characters.`);
  let re = patterns.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    if (patterns.size > 200) patterns.clear();
    patterns.set(pattern, re);
  }
  return re;
}

function text(s: unknown): string | null {
  if (s === null || s === undefined) return null;
  const t = typeof s === 'string' ? s : String(s);
  if (t.length > MAX_REGEX_TEXT) throw new Error(`Regular expressions apply to text of at most ${MAX_REGEX_TEXT} characters.`);
  return t;
}

/** Unicode case mapping a character at a time; a character whose mapping is several characters (ß → SS) stays. */
function mapChars(s: string, f: (c: string) => string): string {
  let out = '';
  for (const c of s) {
    const m = f(c);
    out += [...m].length === 1 ? m : c;
  }
  return out;
}

function registerFunctions(db: SqliteHandle): void {
  const opts = { deterministic: true };
  db.function('regexp_substr', opts, (s: unknown, p: unknown) => {
    const t = text(s);
    if (t === null || p === null) return null;
    const m = regex(p).exec(t);
    return m ? m[0] : null;
  });
  db.function('regexp_replace', opts, (s: unknown, p: unknown, r: unknown) => {
    const t = text(s);
    if (t === null || p === null || r === null) return null;
    // Replacements refer to groups as \1 (the SQL engines' way); JS writes $1.
    const replacement = String(r).replace(/\$/g, '$$$$').replace(/\\(\d)/g, '$$$1');
    return t.replace(regex(p), replacement);
  });
  db.function('regexp_like', opts, (s: unknown, p: unknown) => {
    const t = text(s);
    if (t === null || p === null) return null;
    return regex(p).test(t) ? 1 : 0;
  });
  // x REGEXP y calls regexp(y, x).
  db.function('regexp', opts, (p: unknown, s: unknown) => {
    const t = text(s);
    if (t === null || p === null) return null;
    return regex(p).test(t) ? 1 : 0;
  });
  db.function('unicode_upper', opts, (s: unknown) => (s === null ? null : mapChars(String(s), (c) => c.toUpperCase())));
  db.function('unicode_lower', opts, (s: unknown) => (s === null ? null : mapChars(String(s), (c) => c.toLowerCase())));
  // Floats as their shortest round-trip digits (what PostgreSQL, MySQL and JS write).
  db.function('float_text', opts, (x: unknown) => (x === null ? null : typeof x === 'bigint' ? x.toString() : String(Number(x))));
  db.function('split_part', opts, (s: unknown, d: unknown, n: unknown) => {
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

// ----- values ------------------------------------------------------------------------------------------------------

function convert(value: unknown, kind: SqliteValueKind): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    const n = integerValue(value);
    return kind === 'boolean' && typeof n === 'number' ? n !== 0 : n;
  }
  if (kind === 'boolean' && typeof value === 'number') return value !== 0;
  if (kind === 'timestamp' && typeof value === 'string') return localTimestamp(value);
  if (value instanceof Uint8Array) return base64(value);
  return value;
}

/** Base type of an expression column (no declared type) from the values of the first batch. */
function inferBaseType(rows: unknown[][], index: number): string {
  let sawFloat = false;
  let sawInt = false;
  for (const row of rows) {
    const v = row[index];
    if (v === null || v === undefined) continue;
    if (typeof v === 'bigint') sawInt = true;
    else if (typeof v === 'number') Number.isInteger(v) ? (sawInt = true) : (sawFloat = true);
    else if (typeof v === 'string') return 'type/Text';
    else return 'type/*';
  }
  if (sawFloat) return 'type/Float';
  if (sawInt) return 'type/Integer';
  return 'type/*';
}

// ----- the statement being read ---------------------------------------------------------------------------------

let db: SqliteHandle;
let iterator: IterableIterator<unknown[]> | null = null;
let kinds: SqliteValueKind[] = [];
let held: unknown[][] | null = null;
let processor: RowProcessor | null = null;

function stop(): void {
  if (iterator) iterator.return?.();
  iterator = null;
  held = null;
  processor = null;
}

/** The next rows of the statement as SQLite gives them (up to a batch); empty at the end. */
function readRaw(): unknown[][] {
  const rows: unknown[][] = [];
  while (iterator && rows.length < BATCH) {
    const next = iterator.next();
    if (next.done) iterator = null;
    else rows.push(next.value);
  }
  return rows;
}

/** Values to the drivers' conventions, in place. */
function normalize(rows: unknown[][]): unknown[][] {
  for (const row of rows) for (let i = 0; i < row.length; i++) row[i] = convert(row[i], kinds[i]);
  return rows;
}

/** The next batch of rows, values normalized; empty at the end. */
function readBatch(): unknown[][] {
  if (held) {
    const rows = held;
    held = null;
    return rows;
  }
  return normalize(readRaw());
}

const finished = () => iterator === null && held === null;

function run(sql: string, params: unknown[], check?: ProgramCheck): WorkerReply {
  stop();
  if (check) {
    const compiled = explain(check.body, params, PROGRAM_OPCODES).program ?? null;
    try {
      checkSqliteProgram(compiled, { writable: check.writable });
    } catch (e) {
      if (e instanceof RefusedStatementError) return { type: 'error', message: e.message, code: REFUSED_CODE };
      throw e;
    }
  }
  const statement = db.prepare(sql);
  if (!statement.reader) {
    statement.run(...params);
    return { type: 'columns', columns: [], done: true };
  }
  statement.safeIntegers(true);
  statement.raw(true);
  const declared = statement.columns();
  kinds = declared.map((c) => sqliteValueKind(c.type));
  iterator = statement.iterate(...params) as IterableIterator<unknown[]>;
  const first = readRaw();
  const columns: WorkerColumn[] = declared.map((c, i) => ({
    name: c.name,
    type: c.type,
    baseType: c.type ? sqliteBaseType(c.type) : inferBaseType(first, i),
  }));
  held = first.length ? normalize(first) : null;
  return { type: 'columns', columns, done: finished() };
}

/** Rows encoded as JSON until the chunk is big enough, the rows end or the row limit is reached. */
function encodedChunk(pass: RowProcessor): WorkerReply {
  const parts: string[] = [];
  let size = 0;
  let rows = 0;
  while (size < JSON_CHUNK && !finished() && !pass.full) {
    const before = pass.count;
    const json = pass.json(readBatch());
    rows += pass.count - before;
    if (json) {
      parts.push(json);
      size += json.length;
    }
  }
  if (pass.full && !finished()) stop();
  const done = finished() || pass.full;
  const reply: WorkerReply = { type: 'json', json: parts.join(','), count: rows, done };
  if (done) {
    reply.summary = pass.summary();
    processor = null;
  }
  return reply;
}

/** The statement compiled with EXPLAIN (nothing runs): whether it only reads, and the opcodes the guard looks at. */
function explain(sql: string, params: unknown[], opcodes: readonly string[]): WorkerReply {
  let statement;
  let program: Array<{ opcode: string; p4: unknown }>;
  try {
    statement = db.prepare(sql);
    program = db.prepare('EXPLAIN ' + sql).all(...params) as typeof program;
  } catch (e) {
    const code = String((e as { code?: string }).code ?? '');
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) throw e;
    return { type: 'program', program: null };
  }
  const ops = program.filter((op) => opcodes.includes(op.opcode)).map((op) => ({ opcode: op.opcode, p4: op.p4 }));
  return { type: 'program', program: { readonly: statement.readonly, ops } as CompiledProgram };
}

function answer(message: WorkerRequest): WorkerReply {
  switch (message.type) {
    case 'run':
      return run(message.sql, message.params, message.check);
    case 'encode':
      processor = new RowProcessor(message.plan as RowPlan);
      return encodedChunk(processor);
    case 'next': {
      if (processor) return encodedChunk(processor);
      const rows = readBatch();
      return { type: 'rows', rows, done: finished() };
    }
    case 'close':
      stop();
      return { type: 'closed' };
  }
}

const send = (reply: WorkerReply) => process.send!(reply);

process.on('disconnect', () => process.exit(0));
const setup = JSON.parse(process.env.QUARRY_SQLITE_WORKER ?? '{}') as { file: string; readOnly: boolean };
try {
  db = new Database(setup.file, { readonly: setup.readOnly, fileMustExist: true, timeout: 5000 });
  if (setup.readOnly) db.pragma('query_only = ON');
  registerFunctions(db);
  send({ type: 'ready' });
} catch (e) {
  send({ type: 'error', message: (e as Error).message, code: (e as { code?: string }).code });
}
process.on('message', (message: WorkerRequest) => {
  try {
    send(answer(message));
  } catch (e) {
    stop();
    send({ type: 'error', message: (e as Error).message, code: (e as { code?: string }).code });
  }
});
