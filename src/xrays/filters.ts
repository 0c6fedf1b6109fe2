// Dashboard filters of an X-ray: the fields of the template's filter dimensions, ranked by how useful a filter on
// them is (few values, categories, time, places), at most four, each wired to every card of the dashboard.

import { createHash } from 'node:crypto';
import { isa } from '../databases/type-hierarchy.js';
import { fieldKey, isKey, type Bindings } from './bind.js';
import { fieldTitle } from './cards.js';
import { distinctCount, type XField } from './source.js';
import type { Template } from './templates/index.js';

type Obj = Record<string, unknown>;

export const MAX_FILTERS = 4;

export interface XParameter {
  parameter: Obj;
  field: XField;
}

function interest(field: XField): number {
  const distinct = distinctCount(field);
  let score = 0;
  if (distinct !== null && distinct < 10) score++;
  if (distinct !== null && distinct > 20) score--;
  if (isa(field.semanticType, 'type/Category')) score++;
  if (isa(field.effectiveType, 'type/Temporal')) score++;
  if (isa(field.semanticType, 'type/CreationTemporal')) score++;
  if (isa(field.semanticType, 'type/State') || isa(field.semanticType, 'type/Country')) score++;
  return score;
}

function parameterOf(field: XField): Obj {
  const id = createHash('sha1').update(`xray-filter|${fieldKey(field)}`).digest().readUInt32BE(0).toString();
  const base = { id, name: fieldTitle(field), slug: field.viaName ? `${field.viaName}_${field.name}`.replace(/\W+/g, '_') : field.name };
  if (isa(field.effectiveType, 'type/Temporal')) return { ...base, type: 'date/all-options', sectionId: 'date' };
  if (isa(field.effectiveType, 'type/Number')) return { ...base, type: 'number/=', sectionId: 'number' };
  const location = isa(field.semanticType, 'type/Address');
  return { ...base, type: 'string/=', sectionId: location ? 'location' : 'string' };
}

/** The X-ray's filters: none on fields a cell fixes or with fewer than two values. */
export function chooseFilters(template: Template, bindings: Bindings, fixed: Set<string>): XParameter[] {
  const candidates: Array<{ field: XField; order: number; interest: number }> = [];
  let order = 0;
  for (const dimension of template.filters) {
    for (const b of bindings.get(dimension) ?? []) {
      const f = b.field;
      const distinct = distinctCount(f);
      if (fixed.has(fieldKey(f)) || isKey(f) || (distinct !== null && distinct < 2)) continue;
      if (candidates.some((c) => fieldKey(c.field) === fieldKey(f))) continue;
      candidates.push({ field: f, order: order++, interest: interest(f) });
    }
  }
  return candidates
    .sort((a, b) => b.interest - a.interest || a.order - b.order)
    .slice(0, MAX_FILTERS)
    .map((c) => ({ parameter: parameterOf(c.field), field: c.field }));
}

/** A card's mappings: every filter targets its field in the card's query (all cards read the same source). */
export function mappingsFor(parameters: XParameter[], cardId: string): Obj[] {
  return parameters.map((p) => ({ parameter_id: p.parameter.id, card_id: cardId, target: ['dimension', p.field.ref, { 'stage-number': 0 }] }));
}
