// Dashboard filter values as the query endpoints take them. The URL holds text (`?state=CA&state=NY`,
// `?date=past30days`); a query's `parameters` hold `{id, type, value, target}` with the target of the dashcard's
// mapping. Date strings (past30days, 2024-01-01~2024-02-01, thisyear, …) go through as typed: the server parses them.

import type { Parameter } from '../../api/types';
import type { DashcardCard, Dashcard, FilterValues } from './types';

export const isDateParameter = (p: Parameter) => p.type === 'date' || p.type.startsWith('date/');
const isNumberParameter = (p: Parameter) => p.type === 'number' || p.type.startsWith('number/') || p.type === 'id';

/** The value a query takes for these URL values: one date string; numbers as numbers; otherwise a list of strings. */
export function apiValue(parameter: Parameter, values: string[]): unknown {
  if (isDateParameter(parameter)) return values[0];
  if (isNumberParameter(parameter)) return values.map((v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v));
  return values;
}

export interface QueryParameter {
  id: string;
  type: string;
  value: unknown;
  target?: unknown;
}

/** The parameters of one card's query: the filters with a value that the dashcard wires to that card. */
export function cardParameters(dashcard: Dashcard, card: DashcardCard, parameters: Parameter[], values: FilterValues): QueryParameter[] {
  const out: QueryParameter[] = [];
  for (const mapping of dashcard.parameter_mappings ?? []) {
    if (mapping.card_id !== undefined && mapping.card_id !== card.id) continue;
    const parameter = parameters.find((p) => p.id === mapping.parameter_id);
    const value = parameter && values[parameter.slug];
    if (!parameter || !value?.length) continue;
    out.push({ id: parameter.id, type: parameter.type, value: apiValue(parameter, value), target: mapping.target });
  }
  return out;
}

/** Filter values from a URL query string, by slug: a present key wins (`?state=` clears), else the default. */
export function valuesFromSearch(parameters: Parameter[], search: string): FilterValues {
  const params = new URLSearchParams(search);
  const out: FilterValues = {};
  for (const p of parameters) {
    if (params.has(p.slug)) out[p.slug] = params.getAll(p.slug).filter((v) => v !== '');
    else if (p.default !== undefined && p.default !== null) out[p.slug] = (Array.isArray(p.default) ? p.default : [p.default]).map(String);
  }
  return out;
}

/** The query string for these filter values, keeping the URL's other keys (`tab`): a cleared default stays `slug=`. */
export function searchWithValues(parameters: Parameter[], search: string, values: FilterValues): string {
  const params = new URLSearchParams(search);
  for (const p of parameters) {
    params.delete(p.slug);
    const value = values[p.slug] ?? [];
    if (value.length) for (const v of value) params.append(p.slug, v);
    else if (p.default !== undefined && p.default !== null) params.append(p.slug, '');
  }
  return params.toString();
}

/** Metabase's relative and absolute date strings offered in a date filter's list (any other it parses may be typed). */
export const DATE_SUGGESTIONS = [
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: 'past7days', label: 'Previous 7 days' },
  { value: 'past30days', label: 'Previous 30 days' },
  { value: 'lastweek', label: 'Last week' },
  { value: 'lastmonth', label: 'Last month' },
  { value: 'lastyear', label: 'Last year' },
  { value: 'thisweek', label: 'This week' },
  { value: 'thismonth', label: 'This month' },
  { value: 'thisyear', label: 'This year' },
];
