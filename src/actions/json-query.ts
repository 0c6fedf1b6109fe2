// The json-query handles of HTTP actions (`response_handle`, `error_handle`): paths into the response such as
// `.body.item.title`, `.body.items[0].id` or `.body["odd key"]`; `.` is the whole response. Only paths are supported
// (Metabase compiles full jq; a path covers what handles are for: picking the part of a response to show).

export type JsonQueryStep = string | number;

const STEP = /^(?:\.([A-Za-z_$][\w$-]*)|\.?\[(\d+)\]|\.?\["((?:[^"\\]|\\.)*)"\])/;

/** The steps of a path, or null when it isn't one. */
export function parseJsonQuery(text: string): JsonQueryStep[] | null {
  const query = text.trim();
  if (query === '.') return [];
  if (!query.startsWith('.') && !query.startsWith('[')) return null;
  const steps: JsonQueryStep[] = [];
  let rest = query;
  while (rest.length) {
    const m = STEP.exec(rest);
    if (!m) return null;
    if (m[1] !== undefined) steps.push(m[1]);
    else if (m[2] !== undefined) steps.push(Number(m[2]));
    else steps.push(JSON.parse(`"${m[3]}"`) as string);
    rest = rest.slice(m[0].length);
  }
  return steps;
}

/** The value at the path, or null when the path leads nowhere (as jq gives null). */
export function applyJsonQuery(value: unknown, text: string | null | undefined): unknown {
  const steps = parseJsonQuery(text ?? '.') ?? [];
  let node: unknown = value;
  for (const step of steps) {
    if (node === null || typeof node !== 'object') return null;
    node = typeof step === 'number' ? (Array.isArray(node) ? node[step] : undefined) : (node as Record<string, unknown>)[step];
    if (node === undefined) return null;
  }
  return node;
}
