// A native query with its template tags → a SQL fragment: snippets inlined, `{{#N}}` cards inlined as subqueries,
// variables bound as parameters, field filters compiled to predicates on their column (or `1 = 1` without a value).

import { sql, raw, param, join, MAX_SQL_LENGTH, type Sql, type ParamType } from '../compile/sql.js';
import { StageCompiler, type CompileOptions } from '../compile/stage.js';
import type { Clause, NativeQuery, Parameter, TemplateTag } from '../mbql/types.js';
import { isFieldRef } from '../mbql/clauses.js';
import { QueryError, invalidParameter, invalidQuery } from '../errors.js';
import { parseTemplate, substitute, snippetNameOf, cardIdOf } from './template.js';
import { parameterFilter, parameterValues, templateTagValues, type TagValue } from '../parameters/apply.js';
import type { Snippet } from '../sources.js';
import { parseTemporalLiteral, isoLocal } from '../compile/temporal-values.js';

export interface NativeCompileContext extends CompileOptions {
  /** Snippets the query refers to, by id and by lower-cased name. */
  snippets: { byId: Map<number, Snippet>; byName: Map<string, Snippet> };
  /** The SQL of a card referenced as `{{#N}}` (compiled with this database's dialect). */
  cardSql: (cardId: number) => Sql;
}

const MAX_SNIPPET_DEPTH = 10;

function missingValue(tag: TemplateTag | undefined, name: string): QueryError {
  const display = tag?.['display-name'] ?? name;
  return new QueryError('missing-required-parameter', `You'll need to pick a value for '${display}' before this query can run.`, { tag: name });
}

/**
 * Inlines `{{snippet: X}}` tags (snippets may themselves use snippets and tags). The tags of every snippet inlined
 * are collected in `inherited` (the first one of a name wins): a `{{var}}` inside a snippet is a variable of the query.
 * A snippet's own tags name the snippets it inlines (by id, so a renamed one is still found). `budget` counts the
 * characters written at every level: a snippet that uses another several times, which uses another several times…,
 * grows exponentially and is refused once that passes MAX_SQL_LENGTH, before its text is built.
 */
export function expandSnippets(
  text: string,
  tags: Record<string, TemplateTag>,
  snippets: NativeCompileContext['snippets'],
  inherited = new Map<string, TemplateTag>(),
  depth = 0,
  budget = { written: 0 },
): string {
  if (depth > MAX_SNIPPET_DEPTH) throw invalidQuery('Snippets are nested too deeply (or refer to each other).');
  return text.replace(/\{\{\s*(snippet:[^}]*)\}\}/gi, (whole, inner: string) => {
    const name = snippetNameOf(inner)!;
    const tag = tags[inner.trim()] ?? Object.values(tags).find((t) => t.type === 'snippet' && t['snippet-name'] === name);
    const snippet = (tag?.['snippet-id'] !== undefined ? snippets.byId.get(Number(tag['snippet-id'])) : undefined) ?? snippets.byName.get(name.toLowerCase());
    if (!snippet) throw invalidQuery(`Snippet "${name}" does not exist.`);
    for (const [key, own] of Object.entries(snippet.template_tags)) if (!inherited.has(key)) inherited.set(key, own);
    const expanded = expandSnippets(snippet.content, { ...tags, ...snippet.template_tags }, snippets, inherited, depth + 1, budget);
    budget.written += expanded.length;
    if (budget.written > MAX_SQL_LENGTH) throw invalidQuery(`Invalid query: with its snippets written out, its SQL would be longer than ${MAX_SQL_LENGTH.toLocaleString('en-US')} characters.`);
    return expanded;
  });
}

export function compileNative(native: NativeQuery | { query: string; 'template-tags'?: Record<string, TemplateTag> }, parameters: Parameter[], context: NativeCompileContext): Sql {
  const declared = native['template-tags'] ?? {};
  if (typeof native.query !== 'string') throw invalidQuery('A native query needs its SQL in "query".');
  const inherited = new Map<string, TemplateTag>();
  const text = expandSnippets(native.query, declared, context.snippets, inherited);
  // the query's own declaration of a tag wins over the one a snippet brings
  const tags: Record<string, TemplateTag> = { ...Object.fromEntries(inherited), ...declared };
  const values = templateTagValues(tags, parameters, declared);
  const nodes = parseTemplate(text);
  return substitute(nodes, (name, optional) => {
    const cardId = cardIdOf(name);
    if (cardId !== null) return sql`(${context.cardSql(cardId)})`;
    const tag = tags[name];
    const value = values.get(name);
    if (tag?.type === 'dimension') {
      if (!value) {
        if (optional) return null;
        if (tag.required) throw missingValue(tag, name);
        return raw('1 = 1');
      }
      return fieldFilter(tag, value, context);
    }
    if (!value) {
      if (optional) return null;
      throw missingValue(tag, name);
    }
    return variable(tag, name, value);
  });
}

/** A raw-value tag (text, number, date, boolean) → bound parameter(s). */
function variable(tag: TemplateTag | undefined, name: string, value: TagValue): Sql {
  const type = tag?.type ?? 'text';
  const list = parameterValues(value.value);
  // Values are scalars: an object or a nested list would bind as "[object Object]" or worse.
  for (const v of list) {
    if (v !== null && typeof v === 'object') throw invalidParameter(`Invalid value for the ${type} variable '${tag?.['display-name'] ?? name}': ${JSON.stringify(v)}`);
  }
  switch (type) {
    case 'number': {
      const numbers = list.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).map((v) => {
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN;
        if (!Number.isFinite(n)) throw invalidParameter(`Invalid value for the number variable '${tag?.['display-name'] ?? name}': ${JSON.stringify(v)}`);
        return sql`${param(n, Number.isSafeInteger(n) ? 'integer' : 'float')}`;
      });
      return join(numbers, ', ');
    }
    case 'date': {
      const v = list[0];
      const parsed = typeof v === 'string' ? parseTemporalLiteral(v, null) : null;
      if (!parsed) throw invalidParameter(`Invalid value for the date variable '${tag?.['display-name'] ?? name}': ${JSON.stringify(v)}`);
      const kind: ParamType = parsed.hasTime ? 'datetime' : 'date';
      return sql`${param(isoLocal(parsed.value, parsed.hasTime ? 'datetime' : 'date'), kind)}`;
    }
    case 'boolean':
      return join(
        list.map((v) => {
          if (v !== true && v !== false && v !== 'true' && v !== 'false') throw invalidParameter(`Invalid value for the boolean variable '${tag?.['display-name'] ?? name}': ${JSON.stringify(v)}`);
          return sql`${param(v === true || v === 'true', 'boolean')}`;
        }),
        ', ',
      );
    default:
      return join(list.map((v) => sql`${param(String(v), 'text')}`), ', ');
  }
}

/** A field filter: the parameter's filter on the tag's field, compiled against the field's table. */
function fieldFilter(tag: TemplateTag, value: TagValue, context: NativeCompileContext): Sql {
  const dimension = tag.dimension;
  if (!isFieldRef(dimension) || typeof dimension[1] !== 'number') throw invalidQuery(`Template tag "${tag.name}" has no valid field.`);
  const field = context.metadata.field(dimension[1]);
  const table = context.metadata.table(field.table_id);
  const type = value.parameter?.type ?? tag['widget-type'] ?? 'category';
  const filter = parameterFilter(dimension as Clause, type === 'none' ? 'category' : type, value.value, context.startOfWeek, tag.options ?? null);
  if (!filter) return raw('1 = 1');
  const compiler = new StageCompiler({ 'source-table': table.id }, context).useTable(table, tag.alias ? [tag.alias] : undefined);
  return compiler.exprs.condition(filter);
}


