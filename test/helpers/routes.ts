// Every route a running server answers, read from Fastify's own route tree (`printRoutes`), so tests that sweep the
// whole API see routes however and wherever they were declared.

import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** The router's path: `:name` params, numeric ones with their regex (`:id(^\d+$)`). */
  path: string;
}

/** `├── /api/user (GET, HEAD, POST)` lines, indented four characters per level under their parent. */
const LINE = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/;

export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const out: RouteEntry[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const level = m[1].length / 4;
    // Two params at one position (`/:id(…)|:group_id(…)`) are the same URL for a client: the first one stands for both.
    const segment = m[2].split('|')[0];
    parents.length = level;
    const path = (parents[level - 1] ?? '') + segment;
    parents[level] = path;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) if (method !== 'HEAD') out.push({ method, path });
  }
  return out;
}

/** A concrete URL for a route: numeric params get `id`, the others a value picked by `other(name)`. */
export function fillPath(path: string, id: number | string, other: (name: string) => string): string {
  return path
    .replace(/:([A-Za-z0-9_]+)\(\^\\d\+\$\)/g, () => String(id))
    .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_whole, name: string) => encodeURIComponent(other(name)));
}
