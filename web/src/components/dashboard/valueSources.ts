// Where a filter widget finds the values it offers. A saved dashboard asks its chain-filter endpoints
// (GET /api/dashboard/:id/params/:key/values and …/search/:query, with the values of the filters that limit it as
// `?<parameter id>=<value>`); an X-ray, which has no id, asks /api/dataset/parameter/values|search for the fields
// its cards wire the filter to.

import { api } from '../../api/client';
import type { Parameter } from '../../api/types';
import type { Dashcard, FilterValues } from './types';

export interface ParameterValuesAnswer {
  values: unknown[][];
  has_more_values?: boolean;
}

export type ValuesSource = (parameter: Parameter, constraints: Record<string, string[]>, query: string | null, signal: AbortSignal) => Promise<ParameterValuesAnswer>;

/** The values of the filters that limit `parameter` (its `filteringParameters`), by parameter id. */
export function linkedConstraints(parameter: Parameter, parameters: Parameter[], values: FilterValues): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const ids = Array.isArray(parameter.filteringParameters) ? (parameter.filteringParameters as string[]) : [];
  for (const other of parameters) if (ids.includes(other.id) && values[other.slug]?.length) out[other.id] = values[other.slug];
  return out;
}

export function dashboardValuesSource(dashboardId: number): ValuesSource {
  return (parameter, constraints, query, signal) => {
    const base = `/api/dashboard/${dashboardId}/params/${encodeURIComponent(parameter.id)}`;
    return api.get<ParameterValuesAnswer>(query ? `${base}/search/${encodeURIComponent(query)}` : `${base}/values`, { signal, query: constraints });
  };
}

/** Field ids a filter is wired to on these dashcards (`["dimension", ["field", id, …]]` targets). */
function mappedFields(dashcards: Dashcard[], parameterId: string): number[] {
  const ids = new Set<number>();
  for (const dc of dashcards)
    for (const m of dc.parameter_mappings ?? []) {
      const ref = Array.isArray(m.target) && m.target[0] === 'dimension' ? m.target[1] : null;
      if (m.parameter_id === parameterId && Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number') ids.add(ref[1]);
    }
  return [...ids];
}

/** X-ray filters limit no other filter (they carry no `filteringParameters`), so there are no constraints to pass. */
export function adhocValuesSource(dashcards: Dashcard[]): ValuesSource {
  return (parameter, _constraints, query, signal) => {
    const body = {
      parameter: { id: parameter.id, type: parameter.type, name: parameter.name, slug: parameter.slug },
      field_ids: mappedFields(dashcards, parameter.id),
    };
    return api.post<ParameterValuesAnswer>(query ? `/api/dataset/parameter/search/${encodeURIComponent(query)}` : '/api/dataset/parameter/values', body, { signal });
  };
}
