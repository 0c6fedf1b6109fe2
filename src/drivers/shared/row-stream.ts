// Builds the RowStream every engine returns from batches pulled out of a cursor (or the engine's equivalent), and
// ties statement cancellation (AbortSignal, timeout) to the engine's own cancel call.

import type { EncodedRows, ExecuteOptions, ResultColumn, RowStream } from '../driver.js';

export class QueryCancelledError extends Error {
  constructor(readonly reason: 'cancelled' | 'timeout', timeoutMs?: number) {
    super(reason === 'timeout' ? `Query timed out after ${formatDuration(timeoutMs ?? 0)}.` : 'Query cancelled.');
    this.name = 'QueryCancelledError';
  }
}

function formatDuration(ms: number): string {
  if (ms >= 60_000) return `${(ms / 60_000).toFixed(1)} mins`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export interface Cancellation {
  /** Set once the signal fired or the timeout passed. */
  readonly error: QueryCancelledError | null;
  /** Throws the cancellation error if there is one, else `fallback`. */
  translate(fallback: unknown): unknown;
  dispose(): void;
}

/** Calls `cancel` (once) when the signal aborts or the timeout passes; `dispose` when the statement is over. */
export function watchCancellation(options: ExecuteOptions | undefined, cancel: () => void): Cancellation {
  let error: QueryCancelledError | null = null;
  let timer: NodeJS.Timeout | undefined;
  const fire = (e: QueryCancelledError) => {
    if (error) return;
    error = e;
    try {
      cancel();
    } catch {
      // the statement may already be finished; nothing to cancel
    }
  };
  const onAbort = () => fire(new QueryCancelledError('cancelled'));
  if (options?.signal) {
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  }
  if (options?.timeoutMs && options.timeoutMs > 0 && !error) {
    timer = setTimeout(() => fire(new QueryCancelledError('timeout', options.timeoutMs)), options.timeoutMs);
    timer.unref();
  }
  return {
    get error() {
      return error;
    },
    translate(fallback) {
      return error ?? fallback;
    },
    dispose() {
      if (timer) clearTimeout(timer);
      options?.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * A RowStream over `pull`, which returns the next batch of rows or null at the end. `release` runs exactly once,
 * at the end, on error, on `close()`, or when the consumer stops iterating early; `pull` is not called after it.
 * Iterating row by row reads through `nextBatch`.
 */
export function batchedRowStream(
  columns: ResultColumn[],
  pull: () => Promise<unknown[][] | null>,
  release: () => Promise<void>,
): RowStream {
  let ended = false;
  let released = false;
  const finish = async () => {
    ended = true;
    if (released) return;
    released = true;
    await release();
  };
  const nextBatch = async (): Promise<unknown[][] | null> => {
    while (!ended) {
      let next: unknown[][] | null;
      try {
        next = await pull();
      } catch (error) {
        await finish().catch(() => {});
        throw error;
      }
      if (next === null) {
        await finish();
        return null;
      }
      if (next.length) return next;
    }
    return null;
  };
  return {
    columns,
    close: finish,
    nextBatch,
    [Symbol.asyncIterator]() {
      let batch: unknown[][] = [];
      let index = 0;
      return {
        async next(): Promise<IteratorResult<unknown[]>> {
          if (index >= batch.length) {
            const next = await nextBatch();
            if (next === null) return { done: true, value: undefined };
            batch = next;
            index = 0;
          }
          return { done: false, value: batch[index++] };
        },
        async return(): Promise<IteratorResult<unknown[]>> {
          await finish();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Reads a whole stream into memory (for metadata queries and tests — never for user queries). */
export async function collectRows(stream: RowStream): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const row of stream) rows.push(row);
  return rows;
}

/**
 * Gives `stream` its `encoded(plan)` for a driver whose worker runs the row pass: `request(plan)` starts encoding,
 * `request(null)` asks for the next chunk; `more()` tells whether the worker still holds rows. The stream is closed
 * after the last chunk, or on a failure.
 */
export function attachEncoded(
  stream: RowStream,
  more: () => boolean,
  request: (plan: unknown | null) => Promise<{ json?: string; count?: number; summary?: unknown }>,
): void {
  let encoding = false;
  stream.encoded = (plan: unknown): EncodedRows => {
    let summary: unknown = null;
    return {
      next: async () => {
        if (!more() && encoding) {
          await stream.close();
          return null;
        }
        try {
          const reply = await request(encoding ? null : plan);
          encoding = true;
          if (!more()) summary = reply.summary ?? null;
          return { json: reply.json ?? '', count: reply.count ?? 0 };
        } catch (error) {
          await stream.close().catch(() => {});
          throw error;
        }
      },
      summary: () => summary,
    };
  };
}
