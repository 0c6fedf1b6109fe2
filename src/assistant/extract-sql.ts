// The SQL in a model's answer: the first fenced block (```sql, ```postgresql, ``` …), else the answer itself when it
// starts with SELECT or WITH. Null when there is none — the caller says so rather than guessing.

export function extractSql(answer: string): string | null {
  const fenced = /```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/.exec(answer);
  const text = (fenced ? fenced[1] : answer).trim();
  if (!text) return null;
  if (fenced) return text;
  return /^(select|with)\b/i.test(text) ? text : null;
}
