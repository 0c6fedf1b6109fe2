// The check every SQL text a model wrote goes through before the assistant returns it: one statement (the SQLite
// guard's lexing and single-statement rule, src/drivers/sqlite/guard.ts, whatever the engine), a read-only query
// (SELECT or WITH … SELECT, no data-changing word anywhere, no locking clause, no function known to act on the
// server), and every table it reads one the caller may query in this database (or a name its own WITH defines).
// Running the card later goes through the query pipeline's permission checks as any native query does; this check
// is there so the assistant never hands back a statement that changes or reaches outside the data.

import { checkSqliteStatement, RefusedStatementError, statements, tokenize, type Token } from '../drivers/sqlite/guard.js';

export class SqlRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SqlRefusal';
  }
}

export interface QueryableTable {
  schema: string | null;
  name: string;
}

// Once the text is one statement starting with SELECT or WITH, these words can only mean a write inside it (a
// data-modifying WITH, SELECT … INTO, MySQL's INTO OUTFILE) or a second command; other command words (SET, COMMENT,
// LOAD…) can only be identifiers there, and a column may well be called that.
const WRITE_WORDS = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT', 'TRUNCATE', 'DROP', 'ALTER', 'CREATE', 'GRANT', 'REVOKE', 'COPY', 'CALL',
  'EXEC', 'EXECUTE', 'INTO', 'LOCK', 'ATTACH', 'DETACH', 'VACUUM', 'PRAGMA', 'OUTFILE', 'DUMPFILE',
]);

/** Functions that act on the server, its files or other connections rather than compute a value. */
const SERVER_FUNCTIONS = new Set([
  'PG_SLEEP', 'PG_SLEEP_FOR', 'PG_SLEEP_UNTIL', 'PG_TERMINATE_BACKEND', 'PG_CANCEL_BACKEND', 'PG_READ_FILE', 'PG_READ_BINARY_FILE', 'PG_LS_DIR',
  'PG_STAT_FILE', 'PG_RELOAD_CONF', 'PG_ROTATE_LOGFILE', 'LO_IMPORT', 'LO_EXPORT', 'LO_UNLINK', 'LO_CREATE', 'DBLINK', 'DBLINK_EXEC',
  'SET_CONFIG', 'NEXTVAL', 'SETVAL', 'PG_ADVISORY_LOCK', 'PG_ADVISORY_XACT_LOCK', 'TXID_CURRENT', 'QUERY_TO_XML', 'CURSOR_TO_XML',
  'SLEEP', 'BENCHMARK', 'LOAD_FILE', 'GET_LOCK', 'RELEASE_LOCK', 'SYS_EXEC', 'SYS_EVAL',
  'READ_CSV', 'READ_CSV_AUTO', 'READ_PARQUET', 'READ_JSON', 'READ_JSON_AUTO', 'READ_TEXT', 'READ_BLOB', 'GLOB', 'QUERY', 'QUERY_TABLE',
  'LOAD_EXTENSION', 'READFILE', 'WRITEFILE', 'EDIT', 'FTS3_TOKENIZER',
]);

/** Functions whose arguments may contain FROM (`EXTRACT(YEAR FROM x)`, `SUBSTRING(x FROM 2)`, `TRIM(' ' FROM x)`). */
const FROM_ARGUMENT_FUNCTIONS = new Set(['EXTRACT', 'SUBSTRING', 'TRIM', 'OVERLAY', 'POSITION', 'DATE_PART']);

/** Words that can follow a table reference and are not its alias. */
const CLAUSE_WORDS = new Set([
  'WHERE', 'GROUP', 'ORDER', 'HAVING', 'LIMIT', 'OFFSET', 'FETCH', 'UNION', 'EXCEPT', 'INTERSECT', 'JOIN', 'INNER', 'LEFT', 'RIGHT',
  'FULL', 'OUTER', 'CROSS', 'NATURAL', 'ON', 'USING', 'WINDOW', 'QUALIFY', 'FOR', 'TABLESAMPLE', 'LATERAL', 'AS', 'SELECT', 'FROM',
]);

const name = (t: Token) => (t.kind === 'quoted' ? t.text.slice(1, -1).replace(/""/g, '"').replace(/``/g, '`') : t.text);
const isName = (t: Token | undefined) => t !== undefined && (t.kind === 'word' || t.kind === 'quoted');

function refuse(message: string): never {
  throw new SqlRefusal(message);
}

/** Names the statement's WITH clauses define: `name AS (` or `name (cols) AS (`. */
function commonTableNames(tokens: Token[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    if (!isName(tokens[i])) continue;
    let j = i + 1;
    if (tokens[j]?.kind === 'open' && tokens[i - 1] && (tokens[i - 1].text === 'WITH' || tokens[i - 1].text === 'RECURSIVE' || tokens[i - 1].kind === 'comma')) {
      let depth = 0;
      for (; j < tokens.length; j++) {
        if (tokens[j].kind === 'open') depth += 1;
        if (tokens[j].kind === 'close' && --depth === 0) break;
      }
      j += 1;
    }
    if (tokens[j]?.text === 'AS' && tokens[j + 1]?.kind === 'open' && (tokens[i - 1]?.text === 'WITH' || tokens[i - 1]?.text === 'RECURSIVE' || tokens[i - 1]?.kind === 'comma')) {
      out.add(name(tokens[i]).toUpperCase());
    }
  }
  return out;
}

/**
 * Returns the SQL (trimmed, without a final `;`) when it is one read-only statement reading only `tables` (and
 * `extraNames`, e.g. a model's name); throws a SqlRefusal saying why not.
 */
export function checkGeneratedSql(sql: string, options: { engine: string; tables: QueryableTable[]; extraNames?: string[] }): string {
  const text = sql.trim().replace(/;\s*$/, '').trim();
  if (!text) refuse('The answer holds no SQL.');
  if (options.engine === 'mysql' && text.includes('/*!')) refuse('MySQL executable comments are not allowed.');
  try {
    checkSqliteStatement(text, { writable: false });
  } catch (error) {
    if (error instanceof RefusedStatementError) refuse(error.message.replace(/ on this database| this database is read-only/g, (m) => (m.startsWith(' on') ? '' : ' only queries that read data are.')));
    throw error;
  }
  const found = statements(tokenize(text));
  if (found.length !== 1) refuse('Only one statement is allowed.');
  const tokens = found[0];
  if (tokens[0].text !== 'SELECT' && tokens[0].text !== 'WITH') refuse(`${tokens[0].text} statements are not allowed: only SELECT queries are.`);

  const ctes = commonTableNames(tokens);
  const extra = new Set((options.extraNames ?? []).map((n) => n.toUpperCase()));
  const allowed = (parts: string[]): boolean => {
    const [tableName, schema] = [parts[parts.length - 1].toUpperCase(), parts.length > 1 ? parts[parts.length - 2].toUpperCase() : null];
    if (schema === null && (ctes.has(tableName) || extra.has(tableName))) return true;
    return options.tables.some((t) => t.name.toUpperCase() === tableName && (schema === null || (t.schema ?? '').toUpperCase() === schema));
  };

  // the word before each open parenthesis, to know when FROM is an argument (EXTRACT(YEAR FROM x))
  const openers: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'open') openers.push(tokens[i - 1]?.kind === 'word' ? tokens[i - 1].text : '');
    else if (t.kind === 'close') openers.pop();
    if (t.kind !== 'word') continue;
    const called = tokens[i + 1]?.kind === 'open';
    if (WRITE_WORDS.has(t.text)) refuse(`${t.text} is not allowed: only queries that read data are.`);
    if (t.text === 'FOR' && ['UPDATE', 'SHARE', 'NO', 'KEY'].includes(tokens[i + 1]?.text ?? '')) refuse('Locking clauses (FOR UPDATE/SHARE) are not allowed.');
    if (called && SERVER_FUNCTIONS.has(t.text)) refuse(`The function ${t.text.toLowerCase()} is not allowed.`);
    const isTableKeyword = t.text === 'JOIN' || (t.text === 'FROM' && !FROM_ARGUMENT_FUNCTIONS.has(openers[openers.length - 1] ?? '') && tokens[i - 1]?.text !== 'DISTINCT');
    if (isTableKeyword) readTableList(tokens, i + 1, t.text === 'FROM', allowed);
  }
  return text;
}

/** Reads the table references after FROM (a comma list) or JOIN (one), refusing one that isn't allowed. */
function readTableList(tokens: Token[], start: number, list: boolean, allowed: (parts: string[]) => boolean): void {
  let i = start;
  for (;;) {
    while (tokens[i]?.kind === 'word' && (tokens[i].text === 'LATERAL' || tokens[i].text === 'ONLY')) i += 1;
    if (tokens[i]?.kind === 'string') refuse('Reading from a file or string is not allowed; only tables are.');
    if (tokens[i]?.kind === 'open') {
      // a subquery: its own FROM is read where it appears; skip to its end
      let depth = 0;
      for (; i < tokens.length; i++) {
        if (tokens[i].kind === 'open') depth += 1;
        if (tokens[i].kind === 'close' && --depth === 0) break;
      }
      i += 1;
    } else {
      if (!isName(tokens[i])) return;
      const parts = [name(tokens[i])];
      i += 1;
      while (tokens[i]?.kind === 'dot' && isName(tokens[i + 1])) {
        parts.push(name(tokens[i + 1]));
        i += 2;
      }
      if (tokens[i]?.kind === 'open') refuse(`Reading from the function ${parts.join('.')}() is not allowed; only tables are.`);
      if (!allowed(parts)) refuse(`The query reads ${parts.join('.')}, which is not a table you can query in this database.`);
    }
    if (!list) return;
    // alias: [AS] name
    if (tokens[i]?.text === 'AS') i += 1;
    if (isName(tokens[i]) && !(tokens[i].kind === 'word' && CLAUSE_WORDS.has(tokens[i].text))) i += 1;
    if (tokens[i]?.kind !== 'comma') return;
    i += 1;
  }
}
