// Native SQL with template tags (reference §6.1): `{{name}}` variables, `[[ … ]]` optional clauses, `{{snippet: X}}`
// and `{{#12-slug}}` card references. The SQL is parsed into text, tags and optional blocks; substitution turns it
// into a SQL fragment where person-written SQL stays as written and every value is a bound parameter.

import { sql, nativeText, join, type Sql } from '../compile/sql.js';
import { QueryError } from '../errors.js';

export type TemplateNode = { kind: 'text'; text: string } | { kind: 'tag'; name: string; raw: string } | { kind: 'optional'; children: TemplateNode[] };

/** Splits SQL into text, `{{tag}}`s and `[[optional]]` blocks (optional blocks may nest). */
export function parseTemplate(text: string): TemplateNode[] {
  const root: TemplateNode[] = [];
  const stack: TemplateNode[][] = [root];
  let buffer = '';
  const flush = () => {
    if (buffer) stack[stack.length - 1].push({ kind: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('{{', i)) {
      const end = text.indexOf('}}', i + 2);
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

/** `{{snippet: Name}}` → "Name"; null when the tag isn't a snippet reference. */
export function snippetNameOf(tag: string): string | null {
  const m = /^snippet:\s*(.+)$/i.exec(tag.trim());
  return m ? m[1].trim() : null;
}

/** `{{#12-orders}}` → 12; null when the tag isn't a card reference. */
export function cardIdOf(tag: string): number | null {
  const m = /^#(\d+)(-[a-z0-9_-]*)?$/i.exec(tag.trim());
  return m ? Number(m[1]) : null;
}
