// What a filter may be wired to, and what a filter's value may be (reference §3.3, §6.2).
//
// A dashcard's `parameter_mappings[].target` is one of
//   ["dimension", <field ref | ["expression", name] | ["template-tag", name | {id}]>, options?]
//   ["variable", ["template-tag", name | {id}]]
//   ["text-tag", name]                                   (text and heading cards)
// PUT refuses a new mapping with any other target (400, `checkNewMappingTargets`); a mapping stored before that check
// (or restored from an old revision) makes the card's query fail as an invalid parameter when its filter has a value,
// rather than run unfiltered (`dashcardParameterProblem`).

import { badRequest } from '../http/errors.js';
import { normalizeFieldish } from '../query/mbql/normalize.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonBlank = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const keyword = (v: unknown): string | null => (typeof v === 'string' ? v.toLowerCase().replace(/_/g, '-') : null);

export const TARGET_FORMS = '["dimension", <field reference or ["template-tag", name]>, options?], ["variable", ["template-tag", name]] or ["text-tag", name]';

function isTemplateTagRef(ref: unknown): boolean {
  if (!Array.isArray(ref) || ref.length !== 2 || keyword(ref[0]) !== 'template-tag') return false;
  return nonBlank(ref[1]) || (isObj(ref[1]) && nonBlank(ref[1].id));
}

function isFieldOrExpressionRef(ref: unknown): boolean {
  if (!Array.isArray(ref) || typeof ref[0] !== 'string') return false;
  if (keyword(ref[0]) === 'expression') return ref.length <= 3 && nonBlank(ref[1]) && (ref[2] === undefined || ref[2] === null || isObj(ref[2]));
  let field: unknown;
  try {
    field = normalizeFieldish(ref);
  } catch {
    return false;
  }
  if (!Array.isArray(field) || field[0] !== 'field' || field.length > 3) return false;
  const [, id, options] = field;
  const validId = (typeof id === 'number' && Number.isInteger(id) && id > 0) || nonBlank(id);
  return validId && (options === undefined || options === null || isObj(options));
}

/** Why a mapping target can't be used, or null when it is one of the forms above. */
export function targetProblem(target: unknown): string | null {
  const bad = `Invalid parameter mapping target ${JSON.stringify(target) ?? String(target)}: a target is ${TARGET_FORMS}.`;
  if (!Array.isArray(target)) return bad;
  const [kind, ref, options] = target;
  switch (keyword(kind)) {
    case 'dimension':
      if (target.length > 3 || !(isTemplateTagRef(ref) || isFieldOrExpressionRef(ref))) return bad;
      return options === undefined || options === null || isObj(options) ? null : bad;
    case 'variable':
      return target.length === 2 && isTemplateTagRef(ref) ? null : bad;
    case 'text-tag':
      return target.length === 2 && nonBlank(ref) ? null : bad;
    default:
      return bad;
  }
}

/** 400 for a mapping (not among the dashcard's current ones) whose target is not a usable form. */
export function checkNewMappingTargets(mappings: Obj[], current: unknown[]): void {
  const before = new Set(current.map((m) => JSON.stringify(m)));
  for (const mapping of mappings) {
    if (before.has(JSON.stringify(mapping))) continue;
    const problem = targetProblem(mapping.target);
    if (problem) throw badRequest(`Parameter ${JSON.stringify(mapping.parameter_id)}: ${problem}`);
  }
}

const isScalar = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** A filter value is a scalar or a list of scalars. */
export const isFilterValue = (value: unknown): boolean => isScalar(value) || (Array.isArray(value) && value.every(isScalar));

export function valueProblem(parameter: Obj, definition: Obj | undefined): string | null {
  const value = parameter.value;
  if (value === undefined || isFilterValue(value)) return null;
  const name = typeof definition?.name === 'string' ? definition.name : String(parameter.id);
  return `Invalid value for the filter "${name}": ${JSON.stringify(value)}. A filter's value is a string, a number, a boolean or a list of them.`;
}

const hasValue = (v: unknown) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0);

/** Why one of a dashcard's mapped parameters (`dashcardQueryParameters`) can't apply its value: an unusable target. */
export function mappedTargetProblem(mapped: Obj[]): string | null {
  for (const parameter of mapped) {
    if (!hasValue(parameter.value)) continue;
    const problem = targetProblem(parameter.target);
    if (problem) return `The filter "${String(parameter.name ?? parameter.id)}" is wired to this card through an unusable target. ${problem}`;
  }
  return null;
}

/**
 * Why a dashcard's query can't run with the requested filter values: a value that isn't a scalar or a list of
 * scalars, or a filter with a value wired to this card through a target that is not a usable form. Null when fine.
 */
export function dashcardParameterProblem(requested: Obj[], definitions: Obj[], mapped: Obj[]): string | null {
  const byId = new Map(definitions.map((d) => [d.id, d]));
  for (const parameter of requested) {
    const problem = valueProblem(parameter, byId.get(parameter.id));
    if (problem) return problem;
  }
  return mappedTargetProblem(mapped);
}
