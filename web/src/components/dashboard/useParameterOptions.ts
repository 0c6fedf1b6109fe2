// The values a filter widget offers, loaded when its list first opens (not for every filter on page load) and again
// when the filters limiting it change; when the list is incomplete (`has_more_values`), what the person types is
// searched for on the server.

import { useEffect, useState } from 'react';
import type { Parameter } from '../../api/types';
import type { ValuesSource } from './valueSources';

export interface ParameterOptions {
  options: string[];
  loading: boolean;
  error: string | null;
}

const optionsOf = (values: unknown[][]) => [...new Set(values.map((v) => (Array.isArray(v) ? String(v[0]) : String(v))))];

export function useParameterOptions(source: ValuesSource, parameter: Parameter, constraints: Record<string, string[]>, typed: string, wanted: boolean): ParameterOptions {
  const [state, setState] = useState<ParameterOptions & { complete: boolean }>({ options: [], loading: false, error: null, complete: true });
  const key = JSON.stringify(constraints);
  const query = state.complete ? '' : typed.trim();
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        setState((s) => ({ ...s, loading: true }));
        source(parameter, JSON.parse(key) as Record<string, string[]>, query || null, controller.signal).then(
          (answer) => setState((s) => ({ options: optionsOf(answer.values), loading: false, error: null, complete: query ? s.complete : !answer.has_more_values })),
          (error: unknown) => !controller.signal.aborted && setState((s) => ({ ...s, loading: false, error: error instanceof Error ? error.message : String(error) })),
        );
      },
      query ? 250 : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [source, parameter, key, query, wanted]);
  return state;
}
