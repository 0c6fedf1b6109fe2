// A dashboard's filter values, kept in its URL by slug (`/dashboard/3?state=CA&date=past30days`) so a link carries
// them. With auto-apply on, a change rewrites the URL at once (and the cards rerun); with it off, changes wait in
// a draft until Apply.

import { useCallback, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { Parameter } from '../../api/types';
import { searchWithValues, valuesFromSearch } from './parameters';
import type { FilterValues } from './types';

export interface DashboardFilters {
  /** The values the cards run with. */
  applied: FilterValues;
  /** The values the widgets show (the draft when auto-apply is off). */
  shown: FilterValues;
  set(slug: string, values: string[]): void;
  /** True when a draft differs from the applied values (the Apply button shows). */
  pending: boolean;
  apply(): void;
}

export function useDashboardFilters(parameters: Parameter[], autoApply: boolean): DashboardFilters {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const applied = useMemo(() => valuesFromSearch(parameters, search), [parameters, search]);
  const [draft, setDraft] = useState<FilterValues | null>(null);
  const write = useCallback(
    (values: FilterValues) => {
      const qs = searchWithValues(parameters, search, values);
      navigate(`${location}${qs ? `?${qs}` : ''}${window.location.hash}`, { replace: true });
    },
    [parameters, search, location, navigate],
  );
  const shown = draft ?? applied;
  const set = useCallback(
    (slug: string, values: string[]) => {
      if (autoApply) write({ ...applied, [slug]: values });
      else setDraft({ ...shown, [slug]: values });
    },
    [autoApply, write, applied, shown],
  );
  const apply = useCallback(() => {
    if (draft) write(draft);
    setDraft(null);
  }, [draft, write]);
  const pending = draft !== null && JSON.stringify(draft) !== JSON.stringify(applied);
  return { applied, shown, set, pending, apply };
}
