// Where in the SQL a database's error message points, when it says: a line number ("at line 3", DuckDB's
// "LINE 3:") or the text it stumbled on (PostgreSQL's `at or near "FORM"`, SQLite's `near "FORM"`, MySQL's
// `near 'FORM x' at line 1`). Returns the 1-based line of the SQL to highlight, or null when the message doesn't say.

export function errorLine(message: string, sql: string): number | null {
  const lines = sql.split('\n').length;
  const numbered = /\bLINE (\d+):|\bat line (\d+)\b/i.exec(message);
  const near = /\bnear "([^"]+)"|\bnear '([^']{1,40})/i.exec(message);
  if (near) {
    const token = (near[1] ?? near[2]).trim();
    if (token) {
      // MySQL quotes the rest of the statement from the error on; its first line is the place.
      const needle = token.split('\n')[0];
      const from = numbered ? offsetOfLine(sql, Number(numbered[1] ?? numbered[2])) : 0;
      const at = indexIgnoringCase(sql, needle, from);
      const found = at >= 0 ? at : indexIgnoringCase(sql, needle, 0);
      if (found >= 0) return sql.slice(0, found).split('\n').length;
    }
  }
  if (numbered) {
    const line = Number(numbered[1] ?? numbered[2]);
    if (line >= 1 && line <= lines) return line;
  }
  return null;
}

function offsetOfLine(sql: string, line: number): number {
  let offset = 0;
  for (let i = 1; i < line; i++) {
    const next = sql.indexOf('\n', offset);
    if (next < 0) return 0;
    offset = next + 1;
  }
  return offset;
}

function indexIgnoringCase(haystack: string, needle: string, from: number): number {
  return haystack.toLowerCase().indexOf(needle.toLowerCase(), from);
}
