// Native SQL with template tags (reference §6.1): `{{name}}` variables, `[[ … ]]` optional clauses, `{{snippet: X}}`
// and `{{#12-slug}}` card references. The SQL is parsed into text, tags and optional blocks; substitution turns it
// into a SQL fragment where person-written SQL stays as written and every value is a bound parameter.

import { sql, nativeText, join, type Sql } from '../compile/sql.js';
import { QueryError } from '../errors.js';

export { snippetNameOf, cardIdOf } from './tag-names.js';

export type TemplateNode = { kind: 'text'; text: string } | { kind: 'tag'; name: string; raw: string } | { kind: 'optional'; children: TemplateNode[] };

/** How deeply `[[optional]]` blocks may nest (the template is walked recursively). */
export const MAX_OPTIONAL_DEPTH = 100;

/**
 * Where the `}}` closing a `{{` at `i` is, or -1. Linear over a whole text: no `}}` after the last one, so a text of
 * 200,000 unclosed `{{` isn't searched to its end 200,000 times.
 */
function closingBraces(text: string, i: number, lastClose: number): number {
  return i + 2 <= lastClose ? text.indexOf('}}', i + 2) : -1;
}

/** The names inside every `{{…}}` of a text, in order (optional blocks are not looked at). */
export function tagsIn(text: string): string[] {
  const out: string[] = [];
  const lastClose = text.lastIndexOf('}}');
  for (let i = text.indexOf('{{'); i !== -1; ) {
    const end = closingBraces(text, i, lastClose);
    if (end === -1) break;
    out.push(text.slice(i + 2, end).trim());
    i = text.indexOf('{{', end + 2);
  }
  return out;
}

/** Splits SQL into text, `{{tag}}`s and `[[optional]]` blocks (optional blocks may nest). */
export function parseTemplate(text: string): TemplateNode[] {
  const root: TemplateNode[] = [];
  const stack: TemplateNode[][] = [root];
  const lastClose = text.lastIndexOf('}}');
  let buffer = '';
  const flush = () => {
    if (buffer) stack[stack.length - 1].push({ kind: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('{{', i)) {
      const end = closingBraces(text, i, lastClose);
      if (end !== -1) {
        flush();
        const raw = text.slice(i, end + 2);
        stack[stack.length - 1].push({ kind: 'tag', name: text.slice(i + 2, end).trim(), raw });
        i = end + 2;
        continue;
      }
    }
    if (text.startsWith('[[', i)) {
      flush();
      if (stack.length > MAX_OPTIONAL_DEPTH) throw new QueryError('invalid-query', `Invalid query: optional clauses [[ … ]] are nested more than ${MAX_OPTIONAL_DEPTH} deep.`);
      const children: TemplateNode[] = [];
      stack[stack.length - 1].push({ kind: 'optional', children });
      stack.push(children);
      i += 2;
      continue;
    }
    if (text.startsWith(']]', i) && stack.length > 1) {
      flush();
      stack.pop();
      i += 2;
      continue;
    }
    buffer += text[i];
    i += 1;
  }
  flush();
  if (stack.length > 1) throw new QueryError('invalid-query', 'Invalid query: found [[ with no matching ]].');
  return root;
}

/** Every tag name in the template, in order of appearance. */
export function tagNames(nodes: TemplateNode[]): string[] {
  const out: string[] = [];
  const visit = (list: TemplateNode[]) => {
    for (const n of list) {
      if (n.kind === 'tag') out.push(n.name);
      else if (n.kind === 'optional') visit(n.children);
    }
  };
  visit(nodes);
  return out;
}

/** What a tag becomes: SQL (with bound values), or `null` when it has no value. */
export type TagSubstitution = (name: string, optional: boolean) => Sql | null;

/**
 * Renders the template: each tag through `substitute`; an optional block is dropped when any tag inside has no
 * value. A tag without value outside optional blocks is the substituter's business (it throws when required).
 */
export function substitute(nodes: TemplateNode[], substitution: TagSubstitution): Sql {
  const render = (list: TemplateNode[], optional: boolean): Sql | null => {
    const parts: Sql[] = [];
    for (const node of list) {
      if (node.kind === 'text') parts.push(nativeText(node.text));
      else if (node.kind === 'tag') {
        const value = substitution(node.name, optional);
        if (value === null) {
          if (optional) return null;
          continue;
        }
        parts.push(value);
      } else {
        const inner = render(node.children, true);
        if (inner) parts.push(inner);
      }
    }
    return join(parts, '');
  };
  return render(nodes, false) ?? sql``;
}
