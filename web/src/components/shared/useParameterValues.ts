// Filter values of a public or embed page live in its URL (`?state=CA&state=NY`), as in Metabase, so a link
// carries them; changing one rewrites the URL in place (the hash options stay).

import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { Parameter } from '../../api/types';
import type { ParameterValues } from './source';

function defaults(parameters: Parameter[]): ParameterValues {
  const out: ParameterValues = {};
  for (const p of parameters) {
    if (p.default === undefined || p.default === null) continue;
    out[p.slug] = (Array.isArray(p.default) ? p.default : [p.default]).map(String);
  }
  return out;
}

export function useParameterValues(parameters: Parameter[]): [ParameterValues, (slug: string, values: string[]) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const values = useMemo(() => {
    const params = new URLSearchParams(search);
    const out = defaults(parameters);
    for (const key of new Set(params.keys())) out[key] = params.getAll(key).filter((v) => v !== '');
    return out;
  }, [search, parameters]);
  const set = useCallback(
    (slug: string, next: string[]) => {
      const params = new URLSearchParams(search);
      params.delete(slug);
      for (const v of next) params.append(slug, v);
      const qs = params.toString();
      navigate(`${location}${qs ? `?${qs}` : ''}${window.location.hash}`, { replace: true });
    },
    [search, location, navigate],
  );
  return [values, set];
}
