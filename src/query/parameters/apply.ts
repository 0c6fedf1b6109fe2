// Stage "parameters": dashboard/card parameters become MBQL filters (reference §6.4), and template tags get their
// values (§6.1–6.2). A parameter with `"value": null` means "explicitly cleared": no filter, no default.

import type { Clause, DatasetQuery, MbqlQuery, Parameter, TemplateTag } from '../mbql/types.js';
import { isClause, isFieldRef, withFieldOptions } from '../mbql/clauses.js';
import { simplifyFilter } from '../mbql/normalize.js';
import { QueryError, invalidParameter } from '../errors.js';
import { dateParameterFilter } from './dates.js';
import type { StartOfWeek } from '../compile/dialect.js';

/** Values a parameter holds, as a list (multi-select parameters send arrays, single ones a scalar). */
export function parameterValues(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function numeric(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw invalidParameter(`Invalid value for a number parameter: ${JSON.stringify(v)}`);
  return n;
}

/**
 * The filter a parameter of `type` with `value` means on `field` (a field ref or an expression ref); null when the
 * parameter has no value. `caseSensitive` comes from a template tag's options.
 */
export function parameterFilter(field: Clause, type: string, value: unknown, startOfWeek: StartOfWeek, options: Record<string, unknown> | null = null): Clause | null {
  const values = parameterValues(value);
  if (values.length === 0) return null;
  if (values.some((v) => v !== null && typeof v === 'object')) throw invalidParameter(`Invalid value for a ${type} parameter: ${JSON.stringify(value)}`);
  const t = type.toLowerCase();
  if (t.startsWith('date') && t !== 'date/single' && isFieldRef(field)) {
    const clauses = values.map((v) => dateParameterFilter(field, v, startOfWeek));
    return clauses.length === 1 ? clauses[0] : (['or', ...clauses] as Clause);
  }
  if (t === 'date/single' && isFieldRef(field)) return dateParameterFilter(field, values[0], startOfWeek);
  const numberish = t.startsWith('number');
  // a missing bound of a range is open: [10, null] means ">= 10"
  const vals = numberish ? values.map((v) => (t === 'number/between' && v === null ? null : numeric(v))) : values;
  const ci = { 'case-sensitive': options?.['case-sensitive'] === true };
  switch (t) {
    case 'number/!=':
    case 'string/!=':
      return ['!=', field, ...vals];
    case 'number/between':
      if (vals.length < 2) throw invalidParameter('number/between needs two values.');
      if (vals[0] === null && vals[1] === null) return null;
      if (vals[0] === null) return ['<=', field, vals[1]];
      if (vals[1] === null) return ['>=', field, vals[0]];
      return ['between', field, vals[0], vals[1]];
    case 'number/>=':
      return ['>=', field, vals[0]];
    case 'number/<=':
      return ['<=', field, vals[0]];
    case 'string/contains':
    case 'string/does-not-contain':
    case 'string/starts-with':
    case 'string/ends-with': {
      const op = t.slice('string/'.length);
      const clauses = vals.map((v) => [op, field, String(v), ci] as Clause);
      if (clauses.length === 1) return clauses[0];
      return [op === 'does-not-contain' ? 'and' : 'or', ...clauses] as Clause;
    }
    case 'boolean':
      return ['=', field, ...vals.map((v) => v === true || v === 'true')];
    default:
      return ['=', field, ...vals];
  }
}

function stageAt(query: MbqlQuery, stageNumber: number | undefined): MbqlQuery {
  const stages: MbqlQuery[] = [];
  let current: MbqlQuery | undefined = query;
  while (current) {
    stages.unshift(current);
    const sq: unknown = current['source-query'];
    current = sq && typeof sq === 'object' && !('native' in (sq as object)) ? (sq as MbqlQuery) : undefined;
  }
  if (stageNumber === undefined || stageNumber === -1) return stages[stages.length - 1];
  const index = stageNumber < 0 ? stages.length + stageNumber : stageNumber;
  const stage = stages[index];
  if (!stage) throw invalidParameter(`No stage ${stageNumber} in this query.`);
  return stage;
}

/** Adds MBQL parameters to the query (a new copy). Template-tag targets are left for the native stage. */
export function applyMbqlParameters(query: DatasetQuery, parameters: Parameter[], startOfWeek: StartOfWeek): DatasetQuery {
  if (query.type !== 'query' || !query.query || parameters.length === 0) return query;
  const inner: MbqlQuery = structuredClone(query.query);
  // Each stage's new filters are added at once (a dashboard may send thousands of parameters).
  const added = new Map<MbqlQuery, Clause[]>();
  for (const p of parameters) {
    const target = p.target;
    if (!Array.isArray(target) || target[0] !== 'dimension' || !isClause(target[1]) || target[1][0] === 'template-tag') continue;
    const field = target[1] as Clause;
    const stage = stageAt(inner, (target[2] as { 'stage-number'?: number } | undefined)?.['stage-number']);
    if (p.type === 'temporal-unit') {
      const unit = parameterValues(p.value)[0];
      if (typeof unit !== 'string' || !isFieldRef(field)) continue;
      stage.breakout = (stage.breakout ?? []).map((b) =>
        isFieldRef(b) && b[1] === field[1] && (b[2]?.['join-alias'] ?? null) === (field[2]?.['join-alias'] ?? null) ? withFieldOptions(b, { 'temporal-unit': unit }) : b,
      );
      continue;
    }
    const filter = parameterFilter(field, p.type, p.value, startOfWeek, p.options ?? null);
    if (!filter) continue;
    const list = added.get(stage) ?? [];
    list.push(filter);
    added.set(stage, list);
  }
  for (const [stage, filters] of added) stage.filter = simplifyFilter(['and', ...(stage.filter ? [stage.filter] : []), ...filters]) as Clause;
  return { ...query, query: inner };
}

// ----- template tags ----------------------------------------------------------------------------------------------

/** Whether a parameter is aimed at a template tag (`["variable"|"dimension", ["template-tag", …]]`). */
export function targetsTemplateTag(p: Parameter): boolean {
  return Array.isArray(p.target) && isClause(p.target[1], 'template-tag');
}

export interface TagValue {
  value: unknown;
  parameter: Parameter | null;
}

function targetTag(p: Parameter, tags: Record<string, TemplateTag>): { name: string; kind: string } | null {
  const target = p.target;
  if (!Array.isArray(target) || !isClause(target[1], 'template-tag')) return null;
  const ref = target[1][1];
  if (typeof ref === 'string') return { name: ref, kind: String(target[0]) };
  if (ref && typeof ref === 'object' && 'id' in ref) {
    const found = Object.values(tags).find((t) => t.id === (ref as { id: string }).id);
    return found ? { name: found.name, kind: String(target[0]) } : null;
  }
  return null;
}

/** Parameter types each tag or widget type accepts (reference §6.2). */
const COMPATIBLE: Record<string, string[]> = {
  number: ['number', 'number/=', 'id', 'category', 'location/zip_code'],
  text: ['text', 'string/=', 'id', 'category', 'location/city', 'location/state', 'location/zip_code', 'location/country'],
  date: ['date', 'date/single', 'date/all-options', 'id', 'category'],
  'date/single': ['date', 'date/single', 'date/all-options', 'id', 'category'],
  'date/range': ['date/range', 'date/all-options'],
  'date/month-year': ['date/month-year', 'date/all-options'],
  'date/quarter-year': ['date/quarter-year', 'date/all-options'],
  'date/relative': ['date/relative', 'date/all-options'],
  'string/=': ['string/=', 'text', 'id', 'category', 'location/city', 'location/state', 'location/zip_code', 'location/country'],
  'number/=': ['number/=', 'number', 'id', 'category', 'location/zip_code'],
  category: ['category', 'number', 'text', 'date', 'boolean'],
  id: ['id'],
};

/** Whether a parameter of `parameterType` may target a tag of `tagType` (or a field filter with that widget). */
export function compatible(parameterType: string, tagType: string): boolean {
  if (!parameterType || !tagType || tagType === 'none' || tagType === 'dimension') return true;
  if (parameterType === tagType) return true;
  const allowed = COMPATIBLE[parameterType];
  if (!allowed) return false;
  return allowed.includes(tagType) || (tagType.startsWith('location/') && allowed.some((a) => a.startsWith('location/')));
}

/** The value of each template tag: from a parameter targeting it, else the tag's default. Absent = no value. */
export function templateTagValues(
  tags: Record<string, TemplateTag>,
  parameters: Parameter[],
  /** The tags the query declares itself: only their types are checked against the parameters' (not a snippet's guess). */
  declared: Record<string, TemplateTag> = tags,
): Map<string, TagValue> {
  const out = new Map<string, TagValue>();
  const explicit = new Set<string>();
  for (const p of parameters) {
    const target = targetTag(p, tags);
    if (!target) continue;
    const tag = Object.hasOwn(declared, target.name) ? declared[target.name] : undefined;
    if (tag && p.type) {
      const tagType = tag.type === 'dimension' ? tag['widget-type'] ?? 'none' : tag.type;
      if (p.type !== tagType && !compatible(p.type, tagType) && !(tag.type === 'dimension' && compatible(tagType, p.type))) {
        throw new QueryError('invalid-parameter', `Invalid parameter type ${p.type} for the ${tagType} template tag "${target.name}".`);
      }
    }
    explicit.add(target.name);
    const value = p.value === undefined ? p.default : p.value;
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    out.set(target.name, { value, parameter: p });
  }
  for (const [name, tag] of Object.entries(tags)) {
    if (explicit.has(name) || out.has(name)) continue;
    if (tag.default !== null && tag.default !== undefined && !(Array.isArray(tag.default) && tag.default.length === 0)) {
      out.set(name, { value: tag.default, parameter: null });
    }
  }
  return out;
}

