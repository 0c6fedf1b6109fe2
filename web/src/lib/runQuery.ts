// Running a question: a saved card (POST /api/card/:id/query, or /api/card/pivot/:id/query) or an ad-hoc query
// (POST /api/dataset, /api/dataset/pivot), with an AbortController. Cancelling aborts the request; the server stops
// the query when the client goes away.

import { api } from '../api/client';
import type { QueryResult } from '../api/types';

/** A parameter value as the query endpoints take it. */
export interface ParameterValue {
  id: string;
  type: string;
  target: unknown;
  value: unknown;
}

export type RunTarget =
  | { kind: 'card'; cardId: number; parameters: ParameterValue[]; pivot?: boolean }
  | { kind: 'dataset'; query: Record<string, unknown>; parameters?: ParameterValue[]; pivot?: boolean };

export interface RunningQuery {
  result: Promise<QueryResult>;
  cancel(): void;
}

export function runQuery(target: RunTarget): RunningQuery {
  const controller = new AbortController();
  const options = { signal: controller.signal };
  const result =
    target.kind === 'card'
      ? api.post<QueryResult>(target.pivot ? `/api/card/pivot/${target.cardId}/query` : `/api/card/${target.cardId}/query`, { parameters: target.parameters }, options)
      : api.post<QueryResult>(target.pivot ? '/api/dataset/pivot' : '/api/dataset', target.parameters?.length ? { ...target.query, parameters: target.parameters } : target.query, options);
  return { result, cancel: () => controller.abort() };
}

/** True for the error a cancelled run rejects with. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
