// Every API route the server registered, read back from Fastify's route tree, so that the authorization matrix
// covers new endpoints the day they are added.

import type { FastifyInstance } from 'fastify';
import { declaredRoutes } from '../../src/http/route.js';

export interface RegisteredRoute {
  method: string;
  /** The path as declared, with Quarry's names (`:card-id`) and without the numeric-id patterns. */
  path: string;
}

/** Parses `printRoutes({commonPrefix: false})`: one node per line, children indented by four columns. */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const text = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const out: RegisteredRoute[] = [];
  for (const line of text.split('\n')) {
    const m = /^([│ ├└─]*)(\S.*?)(?: \(([^)]*)\))?$/.exec(line.replace(/\s+$/, ''));
    if (!m || !m[2]) continue;
    const depth = Math.floor(m[1].length / 4);
    stack.length = depth;
    stack[depth] = m[2];
    const methods = (m[3] ?? '').split(',').map((x) => x.trim()).filter((x) => x && x !== '-' && x !== 'HEAD' && x !== 'OPTIONS');
    const full = stack.join('');
    for (const method of methods) out.push({ method, path: resolveMerged(app, method, full) });
  }
  return out.filter((r) => r.path.startsWith('/api/')).sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/**
 * Routes whose parameters share a node with another route's differently named ones print as `:zoom|:card_id`; the
 * first name stands for them, unless that names two parameters alike (`/api/tiles/:zoom/:x/:y/:y/…`): then the
 * declared route of that method whose every segment is the printed one or one of its alternatives is the route.
 */
function resolveMerged(app: FastifyInstance, method: string, printed: string): string {
  const first = normalize(printed);
  const names = first.match(/:[A-Za-z0-9-]+/g) ?? [];
  if (new Set(names).size === names.length) return first;
  const segments = printed.split('/').map((segment) => segment.split('|').map(normalize));
  const match = declaredRoutes(app).find(
    (r) => r.method === method && r.path.split('/').length === segments.length && r.path.split('/').every((part, i) => segments[i].includes(part)),
  );
  return match ? match.path : first;
}

/** `/api/card/:card_id(^\d+$)/query` → `/api/card/:card-id/query`. */
function normalize(path: string): string {
  return path
    .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_m, name: string) => `:${name.replace(/_/g, '-')}`)
    .replace(/(:[A-Za-z0-9-]+)(\|:[A-Za-z0-9-]+)+/g, '$1'); // two routes naming the same segment differently
}
