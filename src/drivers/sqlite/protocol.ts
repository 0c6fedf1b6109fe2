// The messages between the server and its SQLite worker processes (./workers.ts ⇄ ./worker-main.ts).

import type { CompiledProgram } from './guard.js';

/** Rows read from a statement per batch. */
export const BATCH = 500;
/** Limits of the regular-expression functions the workers add to SQLite. */
export const MAX_REGEX_PATTERN = 1000;
export const MAX_REGEX_TEXT = 100_000;

export type WorkerRequest =
  | { type: 'run'; sql: string; params: unknown[]; check?: ProgramCheck }
  | { type: 'next' }
  | { type: 'encode'; plan: unknown }
  | { type: 'close' };

/** `run` first compiles `body` with EXPLAIN and judges the program (./guard.ts's second layer) before anything runs. */
export interface ProgramCheck {
  body: string;
  writable: boolean;
}

/** The error code of a reply refusing a statement after the program check (a RefusedStatementError on the server). */
export const REFUSED_CODE = 'QUARRY_REFUSED';

/** A result column: its declared type, and the base type (from the declaration, else from the first rows' values). */
export interface WorkerColumn {
  name: string;
  type: string | null;
  baseType: string;
}

export interface WorkerReply {
  type: 'ready' | 'program' | 'columns' | 'rows' | 'json' | 'closed' | 'error';
  /** The check's compile (internal to the worker): the statement compiled, not run, or null when it doesn't compile. */
  program?: CompiledProgram | null;
  columns?: WorkerColumn[];
  rows?: unknown[][];
  /** Rows in `json`. */
  count?: number;
  json?: string;
  summary?: unknown;
  done?: boolean;
  message?: string;
  code?: string;
}
