// Running a native query and cancelling it: one run at a time, each with its own AbortController. Cancelling
// aborts the request; the server notices the client went away and stops the statement on the database.

import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import type { QueryResult } from '../../api/types';
import { nativeApi } from './api';
import type { NativeDatasetQuery, RunParameter } from './types';

export type RunState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'cancelled' }
  | { kind: 'done'; result: QueryResult }
  /** The query failed (a 202 with `status: "failed"`, or a 4xx before it ran): the server's message. */
  | { kind: 'failed'; message: string; sql: string };

export function useNativeRun() {
  const [state, setState] = useState<RunState>({ kind: 'idle' });
  const current = useRef<AbortController | null>(null);

  const run = useCallback(async (query: NativeDatasetQuery, parameters: RunParameter[]) => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setState({ kind: 'running' });
    try {
      const result = await nativeApi.run(query, parameters, controller.signal);
      if (controller.signal.aborted) return;
      setState(result.status === 'failed' ? { kind: 'failed', message: result.error ?? 'The query failed.', sql: query.native.query } : { kind: 'done', result });
    } catch (error) {
      if (controller.signal.aborted) return;
      setState({ kind: 'failed', message: error instanceof ApiError || error instanceof Error ? error.message : String(error), sql: query.native.query });
    } finally {
      if (current.current === controller) current.current = null;
    }
  }, []);

  const cancel = useCallback(() => {
    if (!current.current) return;
    current.current.abort();
    current.current = null;
    setState({ kind: 'cancelled' });
  }, []);

  // Leaving the page stops what runs.
  useEffect(() => () => current.current?.abort(), []);

  return { state, run, cancel };
}
