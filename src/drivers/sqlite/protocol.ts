// The messages between the server and its SQLite worker processes (./workers.ts ⇄ ./worker-main.ts).

import type { CompiledProgram } from './guard.js';

/** Rows read from a statement per batch. */
export const BATCH = 500;
/** Limits of the regular-expression functions the workers add to SQLite. */
export const MAX_REGEX_PATTERN = 1000;
export const MAX_REGEX_TEXT = 100_000;

export type WorkerRequest =
  | { type: 'explain'; sql: string; params: unknown[]; opcodes: readonly string[] }
  | { type: 'run'; sql: string; params: unknown[] }
  | { type: 'next' }
  | { type: 'encode'; plan: unknown }
  | { type: 'close' };

/** A result column: its declared type, and the base type (from the declaration, else from the first rows' values). */
export interface WorkerColumn {
  name: string;
  type: string | null;
  baseType: string;
}

export interface WorkerReply {
  type: 'ready' | 'program' | 'columns' | 'rows' | 'json' | 'closed' | 'error';
  /** `explain`: the statement compiled (not run), or null when it doesn't compile. */
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
