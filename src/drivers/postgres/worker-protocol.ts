// The messages between the server and its PostgreSQL statement thread (./worker-client.ts ⇄ ./worker-main.ts).

import type { ConnectionDetails } from '../driver.js';

/** What the thread needs to open a pool on a database; plain data, as messages are structured-cloned. */
export interface PoolConfig {
  details: ConnectionDetails;
  connectTimeoutMs: number;
  max: number;
}

export type WorkerRequest =
  | { type: 'run'; id: number; pool: number; config: PoolConfig; sql: string; params: unknown[]; zone: string | null; batch: number }
  | { type: 'next'; id: number }
  | { type: 'encode'; id: number; plan: unknown }
  | { type: 'close'; id: number }
  | { type: 'cancel'; id: number }
  | { type: 'end'; id: number; pool: number };

/** An error as it crossed the thread: its class, message and the fields the server reads (`code`, `position`…). */
export interface WorkerError {
  /** `connect`: the pool couldn't hand out a connection (the server reports it as a ConnectionError). */
  kind: 'connect' | 'statement';
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

/** The pool's connections, sent with every reply so the server can report them. */
export interface PoolFigures {
  total: number;
  idle: number;
  waiting: number;
}

export interface WorkerReply {
  id: number;
  type: 'columns' | 'rows' | 'json' | 'ended' | 'error';
  pool?: number;
  figures?: PoolFigures;
  /** `columns`: the result's columns; null for a statement without rows. */
  fields?: Array<{ name: string; dataTypeID: number }> | null;
  rows?: unknown[][];
  json?: string;
  count?: number;
  summary?: unknown;
  /** No rows are left: the thread has already let the connection go. */
  done?: boolean;
  error?: WorkerError;
}
