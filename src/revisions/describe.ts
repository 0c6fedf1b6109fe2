// Metabase's revision descriptions: one fragment per changed key, the first naming the object ("this Card"), later
// ones "it", joined as "a.", "a and b.", "a, b and c.".

export interface NameLookup {
  collection(id: number): string | null;
  dashboard(id: number): string | null;
}

type Obj = Record<string, unknown>;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** `{before, after}` with only what differs (nested maps are diffed key by key, like clojure.data/diff). */
export function diffMap(before: Obj, after: Obj): { before: Obj | null; after: Obj | null } {
  const b: Obj = {};
  const a: Obj = {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    const x = before[key];
    const y = after[key];
    if (same(x, y)) continue;
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
      const inner = diffMap(x as Obj, y as Obj);
      if (inner.before) b[key] = inner.before;
      if (inner.after) a[key] = inner.after;
    } else {
      if (x !== undefined && x !== null) b[key] = x;
      if (y !== undefined && y !== null) a[key] = y;
    }
  }
  return { before: Object.keys(b).length ? b : null, after: Object.keys(a).length ? a : null };
}

function fragment(key: string, v1: unknown, v2: unknown, identifier: string, names: NameLookup): string | null {
  switch (key) {
    case 'name':
      return `renamed ${identifier} from "${v1}" to "${v2}"`;
    case 'description':
      return v1 === null || v1 === undefined ? 'added a description' : 'changed the description';
    case 'public_uuid':
      return v2 === null || v2 === undefined ? `made ${identifier} private` : v1 === null || v1 === undefined ? `made ${identifier} public` : null;
    case 'enable_embedding':
      return v2 ? 'enabled embedding' : 'disabled embedding';
    case 'embedding_type':
      return 'changed the embedding type';
    case 'parameters':
      return 'changed the filters';
    case 'embedding_params':
      return 'changed the embedding parameters';
    case 'archived':
      return v2 ? `trashed ${identifier}` : `untrashed ${identifier}`;
    case 'collection_position':
      return 'changed pin position';
    case 'collection_id': {
      const to = typeof v2 === 'number' ? names.collection(v2) : 'Our analytics';
      if (typeof v1 === 'number') return `moved ${identifier} from ${names.collection(v1)} to ${to}`;
      return `moved ${identifier} to ${to}`;
    }
    case 'visualization_settings':
      return 'changed the visualization settings';
    case 'parameter_mappings':
      return 'changed the filter mapping';
    case 'collection_preview':
      return v2 ? 'enabled collection review' : 'disabled collection preview';
    case 'dataset_query':
      return 'modified the query';
    case 'type':
      if (v1 === 'question' && v2 === 'model') return 'turned this to a model';
      return `type changed from ${v1} to ${v2}`;
    case 'display':
      return `changed the display from ${v1} to ${v2}`;
    case 'result_metadata':
      return 'edited the metadata';
    case 'dashboard_id': {
      const from = typeof v1 === 'number' ? names.dashboard(v1) : null;
      const to = typeof v2 === 'number' ? names.dashboard(v2) : null;
      if (v1 && v2) return `moved from dashboard ${from} to ${to}`;
      if (!v1) return `moved this question into ${to}`;
      return `moved this question from ${from}`;
    }
    case 'width':
      return v1 && v2 ? `changed the width setting from ${v1} to ${v2}` : 'changed the width setting';
    default:
      return null;
  }
}

export function buildSentence(parts: string[]): string {
  if (parts.length === 0) return '';
  if (parts.length === 1) return `${parts[0]}.`;
  if (parts.length === 2) return `${parts[0]} and ${parts[1]}.`;
  return `${parts[0]}, ${buildSentence(parts.slice(1))}`;
}

/**
 * A model's own wording for some keys (dashboards: "added a card", "rearranged the tabs"…): return the fragment,
 * null to say nothing about the key, or undefined to use the common wording.
 */
export type KeyDescriber = (key: string, before: unknown, after: unknown, identifier: string) => string | null | undefined;

export function changeFragments(model: string, before: Obj, after: Obj, names: NameLookup, describeKey?: KeyDescriber): string[] {
  const diff = diffMap(before, after);
  let keys = Object.keys(diff.after ?? diff.before ?? {});
  for (const k of Object.keys(diff.before ?? {})) if (!keys.includes(k)) keys.push(k);
  if (model === 'Card' && !same(before.dashboard_id, after.dashboard_id)) keys = keys.filter((k) => k !== 'collection_id');
  const parts: string[] = [];
  for (const key of keys) {
    const identifier = parts.length === 0 ? `this ${model}` : 'it';
    const own = describeKey?.(key, before[key], after[key], identifier);
    const text = own === undefined ? fragment(key, before[key], after[key], identifier, names) : own;
    if (text) parts.push(text);
  }
  return parts;
}

export function describeChange(
  model: string,
  input: { isCreation: boolean; isReversion: boolean; before: Obj | null; after: Obj; names: NameLookup; describeKey?: KeyDescriber },
): { description: string; hasMultipleChanges: boolean } {
  let parts: string[];
  if (input.isCreation) parts = ['created this'];
  else if (input.isReversion) parts = ['reverted to an earlier version'];
  else if (!input.before) parts = ['modified this'];
  else parts = changeFragments(model, input.before, input.after, input.names, input.describeKey);
  return {
    description: parts.length ? buildSentence(parts) : 'created a revision with no change.',
    hasMultipleChanges: parts.length > 1,
  };
}
