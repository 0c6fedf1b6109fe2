// The conversation sent to a model: what it is asked to do, the dialect and today's date, and the database's real
// metadata as CREATE TABLE statements (database types, keys, foreign keys, display names and descriptions as
// comments, a few values of list columns), the tables most related to the question first, cut to a budget.

import type { ChatMessage } from './provider.js';
import type { ColumnInfo, DatabaseInfo, TableInfo } from './metadata.js';
import { columnById } from './metadata.js';
import { stem, synonymsOf, words } from './offline/words.js';

/** Characters of schema description sent at most (about 6,000 tokens, Metabase's budget). */
export const PROMPT_BUDGET_CHARS = 24_000;
const VALUES_SHOWN = 12;

export const NATIVE_SQL_VERSION = 'infer_native_sql:quarry-0001';
export const MODEL_SQL_VERSION = 'infer_sql:quarry-0001';

const ENGINE_NAMES: Record<string, string> = { postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB', sqlite: 'SQLite', duckdb: 'DuckDB', h2: 'H2' };

function quote(engine: string, name: string): string {
  return engine === 'mysql' ? '`' + name.replace(/`/g, '``') + '`' : '"' + name.replace(/"/g, '""') + '"';
}

function columnLine(info: DatabaseInfo | null, engine: string, column: ColumnInfo): string {
  let line = `  ${quote(engine, column.name)} ${column.databaseType || column.baseType}`;
  if (column.semanticType === 'type/PK') line += ' PRIMARY KEY';
  const target = info && column.fkTargetFieldId !== null ? columnById(info, column.fkTargetFieldId) : null;
  if (target) line += ` REFERENCES ${quote(engine, target.table.name)}(${quote(engine, target.column.name)})`;
  const notes: string[] = [];
  const plain = (text: string) => text.toLowerCase().replace(/[_\s]+/g, ' ').trim();
  if (column.displayName && plain(column.displayName) !== plain(column.name)) notes.push(column.displayName);
  if (column.description) notes.push(column.description.replace(/\s+/g, ' ').slice(0, 200));
  if (column.values?.length) notes.push(`values: ${column.values.slice(0, VALUES_SHOWN).map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}${column.values.length > VALUES_SHOWN ? ', …' : ''}`);
  return notes.length ? `${line}, -- ${notes.join('; ')}` : `${line},`;
}

export function tableDdl(info: DatabaseInfo | null, engine: string, table: TableInfo): string {
  const name = table.schema && info ? `${quote(engine, table.schema)}.${quote(engine, table.name)}` : quote(engine, table.name);
  const head = table.description ? `-- ${table.description.replace(/\s+/g, ' ').slice(0, 300)}\n` : '';
  const lines = table.columns.map((c) => columnLine(info, engine, c));
  if (lines.length) lines[lines.length - 1] = lines[lines.length - 1].replace(/,( --|$)/, '$1');
  return `${head}CREATE TABLE ${name} (\n${lines.join('\n')}\n);`;
}

function stemsWithSynonyms(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const s = stem(w);
    out.add(s);
    for (const x of synonymsOf(s)) out.add(x);
  }
  return out;
}

/** How much a table has to do with the question: its name, its columns' names and its values that the question uses. */
function relevance(question: Set<string>, table: TableInfo): number {
  const hits = (text: string) => [...stemsWithSynonyms(text)].filter((s) => question.has(s)).length;
  let score = 3 * hits(`${table.name} ${table.displayName}`);
  for (const c of table.columns) {
    score += hits(`${c.name} ${c.displayName}`);
    if (c.values?.some((v) => question.has(stem(v)))) score += 2;
  }
  return score;
}

/** The tables' DDL, most relevant first, within the budget. */
export function schemaForQuestion(info: DatabaseInfo, question: string, budget = PROMPT_BUDGET_CHARS): string {
  const q = stemsWithSynonyms(question);
  const ranked = info.tables
    .filter((t) => t.listed)
    .map((t, i) => ({ t, i, score: relevance(q, t) }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const parts: string[] = [];
  let used = 0;
  for (const { t } of ranked) {
    const ddl = tableDdl(info, info.engine, t);
    if (used + ddl.length > budget) continue;
    parts.push(ddl);
    used += ddl.length + 2;
  }
  return parts.join('\n\n');
}

function system(engine: string, what: string): string {
  const today = new Date().toISOString().slice(0, 10);
  return [
    `You write one read-only SQL query for a ${ENGINE_NAMES[engine] ?? engine} database ${what}.`,
    'Use only the tables and columns described below, spelled and quoted exactly as there; use the dialect of that database.',
    'Write a single SELECT statement (WITH is fine); never change data or the schema.',
    `Today is ${today}.`,
    'Answer with the SQL only, in one ```sql block, without explanation.',
  ].join('\n');
}

export function databaseMessages(info: DatabaseInfo, question: string): ChatMessage[] {
  return [
    { role: 'system', content: system(info.engine, `named '${info.name}'`) },
    { role: 'user', content: `The database's tables:\n\n${schemaForQuestion(info, question)}\n\nQuestion: ${question}` },
  ];
}

export function modelMessages(engine: string, model: TableInfo, question: string): ChatMessage[] {
  return [
    { role: 'system', content: system(engine, `where the data is the table ${quote(engine, model.name)}`) },
    { role: 'user', content: `The table:\n\n${tableDdl(null, engine, model)}\n\nQuestion: ${question}` },
  ];
}
