// The template tags a piece of native SQL uses, recognized as Metabase recognizes them (reference §6.1):
// `{{name}}` (letters, digits, `_` and `.`) is a text variable, `{{snippet: Name}}` a snippet, `{{#12-slug}}` a card;
// anything else between double braces is not a tag. Snippets keep the tags of their content this way
// (`template_tags`), and a query that inlines a snippet takes them as its own.

import { randomUUID } from 'node:crypto';
import type { TemplateTag } from '../mbql/types.js';
import { humanize } from '../../databases/humanize.js';
import { cardIdOf, snippetNameOf, templateTagName } from './tag-names.js';

function recognizedTag(name: string, previous: TemplateTag | undefined): TemplateTag {
  const tag: TemplateTag = { id: typeof previous?.id === 'string' ? previous.id : randomUUID(), name, 'display-name': humanize(name), type: 'text' };
  const snippetName = snippetNameOf(name);
  const cardId = cardIdOf(name);
  if (snippetName !== null) {
    tag.type = 'snippet';
    tag['snippet-name'] = snippetName;
    if (previous?.type === 'snippet' && typeof previous['snippet-id'] === 'number') tag['snippet-id'] = previous['snippet-id'];
  } else if (cardId !== null) {
    tag.type = 'card';
    tag['card-id'] = cardId;
  }
  return tag;
}

/**
 * The tags of `text`, in order of appearance. A tag `previous` already had keeps its id (so what points at it by id
 * still does) and a snippet tag its `snippet-id` (a reference to a snippet renamed since).
 */
export function recognizeTemplateTags(text: string, previous: Record<string, TemplateTag> = {}): Record<string, TemplateTag> {
  const tags = new Map<string, TemplateTag>();
  // `{{` up to the next `}}`, as parseTemplate splits SQL
  for (const match of text.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
    const name = templateTagName(match[1]);
    if (name !== null && !tags.has(name)) tags.set(name, recognizedTag(name, Object.hasOwn(previous, name) ? previous[name] : undefined));
  }
  // fromEntries defines each key as an own property, `__proto__` included
  return Object.fromEntries(tags);
}

/** The snippet names `tags` refer to. */
export function snippetNames(tags: Record<string, TemplateTag>): string[] {
  return Object.values(tags).flatMap((tag) => (tag.type === 'snippet' ? [String(tag['snippet-name'])] : []));
}

/** Points each snippet tag at the snippet of its name, when `idByName` has one (else it keeps what it had). */
export function setSnippetIds(tags: Record<string, TemplateTag>, idByName: ReadonlyMap<string, number>): void {
  for (const tag of Object.values(tags)) {
    const id = tag.type === 'snippet' ? idByName.get(String(tag['snippet-name'])) : undefined;
    if (id !== undefined) tag['snippet-id'] = id;
  }
}
