// SQLite has no authorizer in better-sqlite3, so statements that could reach outside the database file are refused
// before they are prepared: ATTACH/DETACH (open or create other files), VACUUM (VACUUM INTO writes a copy anywhere),
// and PRAGMAs other than a read-only allow-list (writing pragmas change how the file is written or checked).
// load_extension() needs no check: better-sqlite3 leaves the SQL function disabled ("not authorized").
// better-sqlite3 prepares exactly one statement at a time, so looking at the first keyword is enough.

const READ_ONLY_PRAGMAS = new Set([
  'table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list',
  'collation_list', 'function_list', 'pragma_list', 'module_list', 'compile_options', 'database_list',
]);

/** The SQL with leading whitespace and comments removed. */
function skipTrivia(sql: string): string {
  let rest = sql;
  for (;;) {
    const before = rest;
    rest = rest.replace(/^\s+/, '');
    if (rest.startsWith('--')) {
      const end = rest.indexOf('\n');
      rest = end === -1 ? '' : rest.slice(end + 1);
    } else if (rest.startsWith('/*')) {
      const end = rest.indexOf('*/', 2);
      rest = end === -1 ? '' : rest.slice(end + 2);
    }
    if (rest === before) return rest;
  }
}

function nextWord(sql: string): { word: string; rest: string } {
  const trimmed = skipTrivia(sql);
  const m = /^[A-Za-z_]+/.exec(trimmed);
  return m ? { word: m[0].toUpperCase(), rest: trimmed.slice(m[0].length) } : { word: '', rest: trimmed };
}

export class RefusedStatementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedStatementError';
  }
}

export function checkSqliteStatement(sql: string): void {
  let { word, rest } = nextWord(sql);
  // EXPLAIN [QUERY PLAN] <statement>: judge the statement being explained.
  if (word === 'EXPLAIN') {
    ({ word, rest } = nextWord(rest));
    if (word === 'QUERY') {
      ({ rest } = nextWord(rest)); // PLAN
      ({ word, rest } = nextWord(rest));
    }
  }
  if (word === 'ATTACH' || word === 'DETACH') throw new RefusedStatementError(`${word} is not allowed on this database.`);
  if (word === 'VACUUM') throw new RefusedStatementError('VACUUM is not allowed on this database.');
  if (word === 'PRAGMA') {
    const afterPragma = skipTrivia(rest);
    const m = /^(?:(?:"[^"]*"|\w+)\s*\.\s*)?("?)(\w+)\1/.exec(afterPragma);
    const name = m ? m[2].toLowerCase() : '';
    const tail = skipTrivia(afterPragma.slice(m ? m[0].length : 0));
    const isWrite = tail.startsWith('=');
    if (isWrite || !READ_ONLY_PRAGMAS.has(name)) {
      throw new RefusedStatementError(`PRAGMA ${name || '(unknown)'} is not allowed on this database.`);
    }
  }
}
