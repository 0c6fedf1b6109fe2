// Route paths as OpenAPI spells them: Metabase's `:card-id` (and Fastify's `:id(^\d+$)`, `*`) become `{card-id}`,
// `{path}`; the names come back with them, for the path parameters.

export interface TemplatedPath {
  /** `/api/card/{card-id}/query` */
  path: string;
  /** The parameter names in order (`card-id`). */
  names: string[];
}

/** The name a wildcard (`*`, the rest of the URL) is documented under. */
export const WILDCARD_NAME = 'path';

/**
 * `path` with each `:name` (optionally followed by a router regex in parentheses) as `{name}`. A route declared
 * through src/http/route.ts keeps its hyphenated names (`hyphens`); in a URL given to Fastify directly a hyphen ends
 * a name, as Fastify's router reads it.
 */
export function templatePath(path: string, hyphens: boolean): TemplatedPath {
  const names: string[] = [];
  const nameChar = hyphens ? /[A-Za-z0-9_-]/ : /[A-Za-z0-9_]/;
  let out = '';
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === ':' && path[i + 1] === ':') {
      out += ':'; // `::` is a literal colon to Fastify
      i += 2;
    } else if (c === ':') {
      let name = '';
      i += 1;
      while (i < path.length && nameChar.test(path[i])) name += path[i++];
      if (path[i] === '(') i = skipRegex(path, i);
      names.push(name);
      out += `{${name}}`;
    } else if (c === '*') {
      names.push(WILDCARD_NAME);
      out += `{${WILDCARD_NAME}}`;
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return { path: out, names };
}

/** The index just past the regex that starts at `start` (an opening parenthesis), nested parentheses included. */
function skipRegex(path: string, start: number): number {
  let depth = 0;
  for (let i = start; i < path.length; i++) {
    if (path[i] === '\\') i += 1;
    else if (path[i] === '(') depth += 1;
    else if (path[i] === ')' && --depth === 0) return i + 1;
  }
  return path.length;
}

/** The area a path belongs to, as Metabase tags its operations: `/api/card/{id}` → `/api/card`. */
export function tagOf(path: string): string {
  const m = /^\/api\/([^/{]+)/.exec(path);
  return m ? `/api/${m[1]}` : '/';
}

/** A stable operation id: `GET /api/card/{id}/query` → `get-api-card-id-query`. */
export function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9_]+/).filter(Boolean);
  return [method.toLowerCase(), ...words].join('-');
}
