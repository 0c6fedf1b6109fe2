// What a person types → the query's template tags, recognized as the server recognizes them
// (src/query/native/tag-names.ts): a new `{{name}}` becomes a text variable, a tag already there keeps its id, type,
// field and widget (so changing the SQL around it keeps its settings), a tag no longer in the SQL goes away.

import { templateTagName, snippetNameOf, cardIdOf } from '@quarry-src/query/native/tag-names.js';
import { humanize } from '@quarry-src/databases/humanize.js';
import type { TagType, TemplateTag, TemplateTags } from './types';

function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function freshTag(name: string): TemplateTag {
  const tag: TemplateTag = { id: newId(), name, 'display-name': humanize(name), type: 'text' };
  const snippet = snippetNameOf(name);
  const card = cardIdOf(name);
  if (snippet !== null) Object.assign(tag, { type: 'snippet', 'snippet-name': snippet, 'display-name': `Snippet: ${humanize(snippet)}` });
  else if (card !== null) Object.assign(tag, { type: 'card', 'card-id': card });
  return tag;
}

/** The tags of `sql` in order of appearance; those `previous` had are kept as they were. */
export function syncTemplateTags(sql: string, previous: TemplateTags): TemplateTags {
  const out: TemplateTags = {};
  for (const match of sql.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
    const name = templateTagName(match[1]);
    if (name === null || Object.hasOwn(out, name)) continue;
    out[name] = Object.hasOwn(previous, name) ? previous[name] : freshTag(name);
  }
  return out;
}

/** The tags a person fills in (variables and field filters), not snippets or card references. */
export function valueTags(tags: TemplateTags): TemplateTag[] {
  return Object.values(tags).filter((t) => t.type !== 'snippet' && t.type !== 'card');
}

/** Field-filter widget types by the kind of field (what Metabase offers first). */
export function defaultWidgetType(baseType: string): string {
  if (/Date|Time/.test(baseType)) return 'date/single';
  if (/Integer|Float|Decimal|Number/.test(baseType)) return 'number/=';
  return 'string/=';
}

/** A tag given another type: a field filter gets its field later; other types drop field settings. */
export function withType(tag: TemplateTag, type: TagType): TemplateTag {
  const { dimension: _d, 'widget-type': _w, ...rest } = tag;
  return { ...rest, type };
}

/** A variable's default (what the query uses when its widget is empty): a number for a number tag, none when blank. */
export function withDefault(tag: TemplateTag, text: string): TemplateTag {
  const { default: _old, ...rest } = tag;
  const trimmed = text.trim();
  if (!trimmed) return rest;
  return { ...rest, default: tag.type === 'number' && /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : text };
}
