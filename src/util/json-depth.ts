// How deeply a JSON value nests arrays and objects. JSON.parse reads any depth, but everything that walks a value
// afterwards — JSON.stringify included — recurses and overflows the stack somewhere past a few thousand levels. Input
// is refused past MAX_JSON_DEPTH, measured here without recursion.

/**
 * The deepest nesting accepted from outside (request bodies, JSON in query strings and form fields, JSON settings).
 * It is Jackson's default `maxNestingDepth`, so no request Metabase itself accepts is refused, and every walker in the
 * server handles it with room to spare.
 */
export const MAX_JSON_DEPTH = 1000;

/** Whether `value` nests arrays and objects more than `limit` levels deep (a scalar is 0 deep, `[]` 1, `[[]]` 2). */
export function jsonDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
