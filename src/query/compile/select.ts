// A SELECT statement as data, and its printing: on one line, or laid out clause by clause (`pretty`) the way
// `/api/dataset/native` shows it. Expressions inside are fragments (./sql.ts); only the layout is decided here.

import { sql, ident, columnAlias, raw, join, EMPTY, type Sql } from './sql.js';
import type { SqlDialect } from './dialect.js';

export type FromSource =
  | { kind: 'table'; table: Sql; alias: string | null }
  | { kind: 'query'; select: Select; alias: string }
  | { kind: 'native'; sql: Sql; alias: string };

export interface SelectItem {
  expr: Sql;
  alias: string | null;
}

export interface JoinClause {
  keyword: string;
  source: FromSource;
  on: Sql;
}

export interface Select {
  /** SELECT DISTINCT. */
  distinct?: boolean;
  items: SelectItem[];
  /** Appended after the items: `"source".*` when a source's columns aren't known. */
  star: Sql | null;
  from: FromSource;
  joins: JoinClause[];
  where: Sql | null;
  groupBy: Sql[];
  orderBy: Sql[];
  limit: number | null;
  offset: number | null;
}

export function emptySelect(from: FromSource): Select {
  return { items: [], star: null, from, joins: [], where: null, groupBy: [], orderBy: [], limit: null, offset: null };
}

interface Layout {
  pretty: boolean;
  indent: string;
}

function nl(layout: Layout, extra = ''): Sql {
  return layout.pretty ? raw('\n' + layout.indent + extra) : raw(' ');
}

function renderSource(source: FromSource, dialect: SqlDialect, layout: Layout): Sql {
  switch (source.kind) {
    case 'table':
      return source.alias ? sql`${source.table} AS ${ident(source.alias)}` : source.table;
    case 'query': {
      const inner = renderSelect(source.select, dialect, { pretty: layout.pretty, indent: layout.indent + '    ' });
      return layout.pretty
        ? sql`(${raw('\n' + layout.indent + '    ')}${inner}${raw('\n' + layout.indent + '  ')}) AS ${ident(source.alias)}`
        : sql`(${inner}) AS ${ident(source.alias)}`;
    }
    case 'native':
      return layout.pretty
        ? sql`(${raw('\n')}${source.sql}${raw('\n' + layout.indent + '  ')}) AS ${ident(source.alias)}`
        : sql`(${source.sql}) AS ${ident(source.alias)}`;
  }
}

function list(items: Sql[], layout: Layout): Sql {
  if (!layout.pretty) return join(items, ', ');
  return join(items, ',\n' + layout.indent + '  ');
}

export function renderSelect(select: Select, dialect: SqlDialect, layout: Layout = { pretty: false, indent: '' }): Sql {
  const parts: Sql[] = [];
  const clause = (keyword: string, body: Sql) => {
    parts.push(layout.pretty ? sql`${raw(keyword)}${nl(layout, '  ')}${body}` : sql`${raw(keyword)} ${body}`);
  };
  const items = select.items.map((i) => (i.alias === null ? i.expr : sql`${i.expr} AS ${columnAlias(i.alias)}`));
  if (select.star) items.push(select.star);
  clause(select.distinct ? 'SELECT DISTINCT' : 'SELECT', items.length ? list(items, layout) : raw('*'));
  const from: Sql[] = [renderSource(select.from, dialect, layout)];
  for (const j of select.joins) {
    const src = renderSource(j.source, dialect, layout);
    from.push(layout.pretty ? sql`${raw('\n' + layout.indent + '  ' + j.keyword + ' ')}${src} ON ${j.on}` : sql`${raw(' ' + j.keyword + ' ')}${src} ON ${j.on}`);
  }
  clause('FROM', from.reduce((acc, p) => sql`${acc}${p}`, EMPTY));
  if (select.where) clause('WHERE', select.where);
  if (select.groupBy.length) clause('GROUP BY', list(select.groupBy, layout));
  if (select.orderBy.length) clause('ORDER BY', list(select.orderBy, layout));
  const tail = dialect.limitOffset(select.limit, select.offset);
  if (tail) {
    if (layout.pretty) {
      for (const piece of tail.split(/ (?=OFFSET)/)) {
        const [keyword, ...rest] = piece.split(' ');
        clause(keyword, raw(rest.join(' ')));
      }
    } else parts.push(raw(tail));
  }
  return join(parts, layout.pretty ? '\n' + layout.indent : ' ');
}
