// Every route Fastify registers, however it was declared: through src/http/route.ts (which also keeps its schemas
// and auth) or directly on Fastify (a plugin's route, a stream, a static file). The OpenAPI document is built from
// this list, so a route can't be served without appearing in it.

import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** As given to Fastify: `:name` params, some with a regex (`:id(^\d+$)`), `*` for a wildcard. */
  url: string;
  /** The JSON schemas a route registered directly on Fastify may carry (`params`, `querystring`, `body`). */
  schema?: Record<string, unknown>;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Starts recording routes; install it before any route or plugin that adds routes (src/server.ts does). */
export function recordRoutes(app: FastifyInstance): void {
  const list: RegisteredRoute[] = [];
  registered.set(app, list);
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const schema = options.schema as Record<string, unknown> | undefined;
    for (const method of methods) list.push({ method: method.toUpperCase(), url: options.url, ...(schema ? { schema } : {}) });
  });
}

/**
 * The routes recorded on `app`, without the HEAD twins Fastify adds to every GET (a HEAD route registered on its
 * own stays).
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const list = registered.get(app) ?? [];
  const gets = new Set(list.filter((r) => r.method === 'GET').map((r) => r.url));
  return list.filter((r) => !(r.method === 'HEAD' && gets.has(r.url)));
}
