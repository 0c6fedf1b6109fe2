// A card's parameters (`parameters` of the card, template tags and field filters) as values the query endpoints take.

import type { Parameter } from '../../api/types';
import type { ParameterValue } from '../../lib/runQuery';

/** Values as the page holds them: slug → one or more typed values. */
export type ParameterInput = Record<string, string[]>;

/** Defaults of the card's parameters (what runs before anyone types). */
export function defaultInput(parameters: Parameter[]): ParameterInput {
  const out: ParameterInput = {};
  for (const p of parameters) {
    if (p.default === undefined || p.default === null) continue;
    out[p.slug] = (Array.isArray(p.default) ? p.default : [p.default]).map(String);
  }
  return out;
}

/** `[{id, type, target, value}]` for the parameters that have values: numbers as numbers, dates as one string. */
export function parameterValues(parameters: Parameter[], input: ParameterInput): ParameterValue[] {
  return parameters.flatMap((p) => {
    const values = input[p.slug]?.filter((v) => v !== '') ?? [];
    if (values.length === 0) return [];
    const numeric = p.type.startsWith('number') || p.type === 'id';
    const single = p.type.startsWith('date') || p.type === 'text' || p.type === 'number' || p.type === 'date';
    const typed = numeric ? values.map(Number).filter(Number.isFinite) : values;
    if (typed.length === 0) return [];
    return [{ id: p.id, type: p.type, target: p.target, value: single ? typed[0] : typed }];
  });
}
