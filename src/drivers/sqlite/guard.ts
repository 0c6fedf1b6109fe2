// better-sqlite3 exposes no authorizer and no sqlite3_limit(), so the statements a SQLite data source runs are
// checked twice before they reach a worker:
//
// 1. `checkSqliteStatement` tokenizes the SQL the way SQLite does (whitespace, comments, quoted strings and names,
//    `;` separators), refuses more than one statement, and allows the first keyword only from a list:
//      everywhere        SELECT, VALUES, WITH … (judged by its main statement), EXPLAIN [QUERY PLAN] of an allowed
//                        statement, and PRAGMAs that only read the schema;
//      writable files    INSERT, UPDATE, DELETE, REPLACE (also after WITH), and the DDL uploads need:
//                        CREATE [TEMP] TABLE / [UNIQUE] INDEX / VIEW, DROP TABLE / INDEX / VIEW, ALTER TABLE.
//    Everything else is refused — notably ATTACH/DETACH (open or create other files, e.g. the app database),
//    VACUUM (VACUUM INTO writes a copy anywhere), writing PRAGMAs (writable_schema, journal_mode…), triggers,
//    virtual tables and transaction control. Empty statements (a bare `;`) are trivia, so `;ATTACH …` is judged
//    as ATTACH.
// 2. `checkSqliteProgram` judges the statement compiled with EXPLAIN by the worker that will run it, and refuses
//    any program that attaches, detaches or vacuums, or that would write on a read-only database — whatever the
//    first layer's reading of the text was. (Read-only files are also opened read-only with `query_only`.)
// load_extension() needs no check: better-sqlite3 leaves the SQL function disabled ("not authorized").

const READ_ONLY_PRAGMAS = new Set([
  'table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list',
  'collation_list', 'function_list', 'pragma_list', 'module_list', 'compile_options', 'database_list',
]);

export class RefusedStatementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedStatementError';
  }
}

export type TokenKind = 'word' | 'quoted' | 'string' | 'semicolon' | 'open' | 'close' | 'comma' | 'dot' | 'equals' | 'other';

export interface Token {
  kind: TokenKind;
  /** Upper-cased (ASCII only) text for words; the raw text otherwise. */
  text: string;
  start: number;
}

// SQLite's whitespace is exactly these five characters; anything else that isn't a token is an "other" token,
// which no rule allows — so a character SQLite might treat differently can only make the guard stricter.
const SPACE = new Set([' ', '\t', '\n', '\f', '\r']);
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

function asciiUpper(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

/**
 * Tokens of `sql`, comments and whitespace left out. Unterminated quotes or comments run to the end. Also used by
 * src/assistant to read generated SQL (the same lexing as this guard, so both agree on what a statement is).
 */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = sql.length;
  const until = (close: string, from: number, doubled: boolean): number => {
    let j = from;
    for (;;) {
      const k = sql.indexOf(close, j);
      if (k === -1) return n;
      if (doubled && sql[k + 1] === close) {
        j = k + 2;
        continue;
      }
      return k + close.length;
    }
  };
  while (i < n) {
    const c = sql[i];
    if (SPACE.has(c)) {
      i += 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === "'") {
      const end = until("'", i + 1, true);
      tokens.push({ kind: 'string', text: sql.slice(i, end), start: i });
      i = end;
    } else if (c === '"' || c === '`') {
      const end = until(c, i + 1, true);
      tokens.push({ kind: 'quoted', text: sql.slice(i, end), start: i });
      i = end;
    } else if (c === '[') {
      const end = until(']', i + 1, false);
      tokens.push({ kind: 'quoted', text: sql.slice(i, end), start: i });
      i = end;
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j])) j += 1;
      tokens.push({ kind: 'word', text: asciiUpper(sql.slice(i, j)), start: i });
      i = j;
    } else {
      const kind: TokenKind = c === ';' ? 'semicolon' : c === '(' ? 'open' : c === ')' ? 'close' : c === ',' ? 'comma' : c === '.' ? 'dot' : c === '=' ? 'equals' : 'other';
      tokens.push({ kind, text: c, start: i });
      i += 1;
    }
  }
  return tokens;
}

/** The statements of `tokens`, empty ones (bare `;`) dropped. */
export function statements(tokens: Token[]): Token[][] {
  const out: Token[][] = [];
  let current: Token[] = [];
  for (const t of tokens) {
    if (t.kind === 'semicolon') {
      if (current.length) out.push(current);
      current = [];
    } else {
      current.push(t);
    }
  }
  if (current.length) out.push(current);
  return out;
}

function refuse(message: string): never {
  throw new RefusedStatementError(message);
}

/** "ATTACH statements are" / "Such statements are". */
function describe(token: Token | undefined): string {
  return token?.kind === 'word' ? `${token.text} statements` : 'Such statements';
}

/** Index just past the parenthesized group opening at `tokens[i]` (which must be `(`), or -1. */
function skipGroup(tokens: Token[], i: number): number {
  if (tokens[i]?.kind !== 'open') return -1;
  let depth = 0;
  for (let j = i; j < tokens.length; j++) {
    if (tokens[j].kind === 'open') depth += 1;
    else if (tokens[j].kind === 'close') {
      depth -= 1;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/** Index of the main statement's first token after `WITH [RECURSIVE] name [(cols)] AS [NOT] [MATERIALIZED] (…), …`. */
function afterCommonTableExpressions(tokens: Token[], i: number): number {
  let j = i + 1;
  if (tokens[j]?.kind === 'word' && tokens[j].text === 'RECURSIVE') j += 1;
  for (;;) {
    const name = tokens[j];
    if (!name || (name.kind !== 'word' && name.kind !== 'quoted' && name.kind !== 'string')) return -1;
    j += 1;
    if (tokens[j]?.kind === 'open') j = skipGroup(tokens, j);
    if (j < 0 || tokens[j]?.text !== 'AS') return -1;
    j += 1;
    if (tokens[j]?.text === 'NOT') j += 1;
    if (tokens[j]?.text === 'MATERIALIZED') j += 1;
    j = skipGroup(tokens, j);
    if (j < 0) return -1;
    if (tokens[j]?.kind === 'comma') {
      j += 1;
      continue;
    }
    return j;
  }
}

const READS = new Set(['SELECT', 'VALUES']);
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);

function judgeWrite(tokens: Token[], i: number, writable: boolean): void {
  if (!writable) refuse(`${describe(tokens[i])} are not allowed: this database is read-only.`);
}

/** Data definition that uploads use on writable files: tables, indexes and views, nothing that runs code later. */
function judgeDefinition(tokens: Token[], i: number, writable: boolean): void {
  const verb = tokens[i].text;
  let j = i + 1;
  if (verb === 'CREATE') {
    if (tokens[j]?.text === 'TEMP' || tokens[j]?.text === 'TEMPORARY') j += 1;
    if (tokens[j]?.text === 'UNIQUE') j += 1;
  }
  const object = tokens[j]?.kind === 'word' ? tokens[j].text : '';
  const allowed = verb === 'ALTER' ? object === 'TABLE' : object === 'TABLE' || object === 'INDEX' || object === 'VIEW';
  if (!allowed) refuse(`${verb}${object ? ` ${object}` : ''} statements are not allowed on this database.`);
  if (!writable) refuse(`${verb} statements are not allowed: this database is read-only.`);
}

function judgePragma(tokens: Token[], i: number): void {
  let j = i + 1;
  // PRAGMA [schema.]name
  if (tokens[j + 1]?.kind === 'dot') j += 2;
  const nameToken = tokens[j];
  const name = nameToken && (nameToken.kind === 'word' || nameToken.kind === 'quoted')
    ? (nameToken.kind === 'quoted' ? nameToken.text.slice(1, -1) : nameToken.text).toLowerCase()
    : '';
  const next = tokens[j + 1];
  if (!name || !READ_ONLY_PRAGMAS.has(name) || next?.kind === 'equals') {
    refuse(`PRAGMA ${name || '(unknown)'} is not allowed on this database.`);
  }
}

function judge(tokens: Token[], i: number, writable: boolean): void {
  const first = tokens[i];
  const word = first?.kind === 'word' ? first.text : '';
  if (READS.has(word)) return;
  if (word === 'EXPLAIN') {
    let j = i + 1;
    if (tokens[j]?.text === 'QUERY') {
      if (tokens[j + 1]?.text !== 'PLAN') refuse('EXPLAIN QUERY must be followed by PLAN.');
      j += 2;
    }
    judge(tokens, j, writable);
    return;
  }
  if (word === 'WITH') {
    const main = afterCommonTableExpressions(tokens, i);
    const mainWord = main >= 0 && tokens[main]?.kind === 'word' ? tokens[main].text : '';
    if (READS.has(mainWord)) return;
    if (WRITES.has(mainWord)) {
      judgeWrite(tokens, main, writable);
      return;
    }
    refuse('WITH must be followed by a SELECT, INSERT, UPDATE, DELETE or REPLACE statement here.');
  }
  if (WRITES.has(word)) {
    judgeWrite(tokens, i, writable);
    return;
  }
  if (word === 'CREATE' || word === 'DROP' || word === 'ALTER') {
    judgeDefinition(tokens, i, writable);
    return;
  }
  if (word === 'PRAGMA') {
    judgePragma(tokens, i);
    return;
  }
  refuse(`${describe(first)} are not allowed on this database.`);
}

export interface CheckedStatement {
  /** The text of the statement judged (after EXPLAIN [QUERY PLAN], empty statements before it left out). */
  body: string;
}

/**
 * Refuses (RefusedStatementError) anything but one allowed statement; see the top of this file. `writable`: the
 * data source is not read-only, so data changes and the DDL of uploads are allowed.
 */
export function checkSqliteStatement(sql: string, options: { writable?: boolean } = {}): CheckedStatement {
  const found = statements(tokenize(sql));
  if (found.length === 0) return { body: sql };
  if (found.length > 1) refuse('Only one statement can be run at a time on this database.');
  const tokens = found[0];
  judge(tokens, 0, options.writable === true);
  // For EXPLAIN, the second layer compiles the statement being explained.
  let bodyStart = 0;
  if (tokens[0].text === 'EXPLAIN') bodyStart = tokens[1]?.text === 'QUERY' ? 3 : 1;
  const start = tokens[bodyStart]?.start ?? tokens[0].start;
  return { body: sql.slice(start) };
}

const FILE_FUNCTIONS = /^sqlite_(attach|detach)\b/i;
const REFUSED_OPCODES = new Set(['Vacuum']);

/** The opcodes the second layer looks at: a worker compiling a statement reports only these. */
export const PROGRAM_OPCODES: readonly string[] = ['Vacuum', 'Function', 'PureFunc'];

/** A statement compiled by a worker (`EXPLAIN`, nothing run): whether it only reads, and its PROGRAM_OPCODES. */
export interface CompiledProgram {
  readonly: boolean;
  ops: Array<{ opcode: string; p4: unknown }>;
}

/**
 * Second layer: refuses a compiled program that attaches, detaches or vacuums, or — on a read-only database — one
 * that writes. The statement is compiled by the worker that will run it (`SqliteWorker.explain`), never in the
 * server's process: SQLite can take seconds to plan a statement of 50,000 terms, which must not stall the server
 * (a worker is stopped at the query's timeout). `null`: the statement didn't compile, which the run reports the
 * usual way (the same SQL fails the same way).
 */
export function checkSqliteProgram(program: CompiledProgram | null, options: { writable?: boolean } = {}): void {
  if (!program) return;
  for (const op of program.ops) {
    if (REFUSED_OPCODES.has(op.opcode)) refuse('This statement is not allowed on this database.');
    if ((op.opcode === 'Function' || op.opcode === 'PureFunc') && typeof op.p4 === 'string' && FILE_FUNCTIONS.test(op.p4)) {
      refuse('ATTACH and DETACH are not allowed on this database.');
    }
  }
  if (!options.writable && !program.readonly) refuse('This statement would change the database, which is read-only.');
}
