// Binding fields to a template's dimensions: each field goes to the one dimension whose matchers score it highest
// (earlier dimensions win ties), judged by its semantic type, its base type, its name and its fingerprint. Key
// columns bind only to dimensions that ask for keys.

import { isa } from '../databases/type-hierarchy.js';
import { distinctCount, type XField } from './source.js';
import type { Matcher, Template } from './templates/index.js';

export interface Binding {
  field: XField;
  score: number;
}

/** Dimension name → its fields, best first. */
export type Bindings = Map<string, Binding[]>;

const KEYISH = /^id$|^id_|_id$/i;

export function isKey(field: XField): boolean {
  if (field.semanticType === 'type/PK' || field.semanticType === 'type/FK') return true;
  return isa(field.baseType, 'type/Number') && KEYISH.test(field.name);
}

function isKindOf(field: XField, type: string): boolean {
  return isa(field.semanticType, type) || isa(field.effectiveType, type) || isa(field.baseType, type);
}

function matchScore(m: Matcher, field: XField): number | null {
  if (!isKindOf(field, m.type)) return null;
  const wantsKey = m.type === 'type/PK' || m.type === 'type/FK';
  if (isKey(field) && !wantsKey) return null;
  if (m.named && !new RegExp(m.named, 'i').test(field.name)) return null;
  const distinct = distinctCount(field);
  if (distinct !== null && m.maxDistinct !== undefined && distinct > m.maxDistinct) return null;
  if (distinct !== null && m.minDistinct !== undefined && distinct < m.minDistinct) return null;
  if (m.ownOnly && field.via !== null) return null;
  if (m.linkedTo !== undefined && (field.via === null || field.linkedEntityType !== m.linkedTo)) return null;
  return m.score;
}

/**
 * Binds the source's fields. A field X-ray's own field is the `Field` dimension and binds nowhere else; the fields
 * in `exclude` (fixed by a cell's `=` condition) bind nowhere.
 */
export function bindFields(template: Template, fields: XField[], rootField: XField | null): Bindings {
  const bindings: Bindings = new Map();
  const add = (name: string, b: Binding) => bindings.set(name, [...(bindings.get(name) ?? []), b]);
  if (rootField) add('Field', { field: rootField, score: 100 });
  for (const field of fields) {
    if (rootField && sameField(field, rootField)) continue;
    let best: { name: string; score: number } | null = null;
    for (const dimension of template.dimensions) {
      for (const m of dimension.matchers) {
        const score = matchScore(m, field);
        if (score !== null && (!best || score > best.score)) best = { name: dimension.name, score };
      }
    }
    if (best) add(best.name, { field, score: best.score });
  }
  for (const list of bindings.values()) list.sort((a, b) => b.score - a.score);
  return bindings;
}

export function fieldKey(field: Pick<XField, 'ref'>): string {
  const [, key, opts] = field.ref as [string, unknown, Record<string, unknown> | null];
  return `${String(key)}|${String(opts?.['source-field'] ?? '')}`;
}

export const sameField = (a: XField, b: XField) => fieldKey(a) === fieldKey(b);

/** The key of a field ref as it appears in a query (options other than the FK hop ignored). */
export function refKey(ref: unknown): string | null {
  if (!Array.isArray(ref) || ref[0] !== 'field') return null;
  const opts = ref[2] && typeof ref[2] === 'object' ? (ref[2] as Record<string, unknown>) : null;
  return `${String(ref[1])}|${String(opts?.['source-field'] ?? '')}`;
}
