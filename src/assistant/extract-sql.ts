// The SQL in a model's answer: the first fenced block (```sql, ```postgresql, ``` …), else the answer itself when it
// starts like a SQL statement — any statement, so that a DELETE is refused by name rather than read as prose. Null
// when there is none; the caller says so rather than guessing.

export function extractSql(answer: string): string | null {
  const fenced = /```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/.exec(answer);
  const text = (fenced ? fenced[1] : answer).trim();
  if (!text) return null;
  if (fenced) return text;
  return /^(select|with|values|insert|update|delete|merge|replace|truncate|drop|create|alter|grant|revoke|attach|detach|pragma|explain|copy|call|set|vacuum)\b/i.test(text) ? text : null;
}
