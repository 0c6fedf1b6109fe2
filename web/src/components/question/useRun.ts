// Runs a question and keeps its latest result: a newer run cancels the older one, `cancel` aborts the request
// (the server stops the query when the client goes away).

import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueryResult } from '../../api/types';
import { isAbort, runQuery, type RunTarget } from '../../lib/runQuery';

export interface RunState {
  result: QueryResult | null;
  running: boolean;
  error: string | null;
  run(target: RunTarget): void;
  cancel(): void;
}

export function useRun(): RunState {
  const [state, setState] = useState<{ result: QueryResult | null; running: boolean; error: string | null }>({ result: null, running: false, error: null });
  const current = useRef<{ cancel(): void } | null>(null);
  const run = useCallback((target: RunTarget) => {
    current.current?.cancel();
    const running = runQuery(target);
    current.current = running;
    setState((s) => ({ ...s, running: true, error: null }));
    running.result.then(
      (result) => current.current === running && setState({ result, running: false, error: null }),
      (error: unknown) => {
        if (current.current !== running) return;
        setState((s) => ({ ...s, running: false, error: isAbort(error) ? 'The query was cancelled.' : (error as Error).message }));
      },
    );
  }, []);
  const cancel = useCallback(() => current.current?.cancel(), []);
  useEffect(() => () => current.current?.cancel(), []);
  return { ...state, run, cancel };
}
