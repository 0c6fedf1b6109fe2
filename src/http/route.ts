// Declaring an API route: its auth level, the schemas of its path params, query string and body, and a handler
// that returns a value. Validation, authentication and the response conventions live here, once:
//   - a returned value is sent as JSON with 200; `undefined`/`null` as an empty 204;
//   - a `Respond` lets a handler pick the status, headers and cookies;
//   - `HANDLED` means the handler wrote the reply itself (streamed results).
// A declared body is also the allow-list of what a client may write: undeclared keys never reach the handler.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Caller } from './caller.js';
import { forbidden, notFound, unauthenticated } from './errors.js';
import { parseParams, throwBodyNotAMap, throwIssues, tryParseParams, type Infer, type Schema } from './schema.js';
import { resolveCaller } from './auth.js';
import { localChangeDone } from './short-cache.js';
import type { RouteDoc } from './json-schema.js';

export type Auth = 'none' | 'user' | 'admin';
type Shape = Record<string, Schema<unknown>>;
type Values<S extends Shape | undefined> = S extends Shape ? { [K in keyof S]: Infer<S[K]> } & Record<string, unknown> : Record<string, unknown>;
/** A declared body holds only the declared keys (the allow-list of what a client may write). */
type BodyValues<S extends Shape | undefined> = S extends Shape ? { [K in keyof S]: Infer<S[K]> } : Record<string, unknown>;

export interface RouteSpec<P extends Shape | undefined, Q extends Shape | undefined, B extends Shape | undefined> {
  auth?: Auth;
  params?: P;
  query?: Q;
  body?: B;
  /** What the OpenAPI document says beyond the schemas (responses, a summary); src/openapi reads it. */
  doc?: RouteDoc;
}

/** A route declared through `routes()`, as src/openapi and the authorization tests read it back. */
export interface DeclaredRoute {
  method: string;
  /** As written (`/api/tiles/:card-id/…`). */
  path: string;
  /** As given to Fastify (`/api/tiles/:card_id(^\d+$)/…`): what its route list and `onRoute` hooks report. */
  url: string;
  auth: Auth;
  spec: RouteSpec<Shape | undefined, Shape | undefined, Shape | undefined>;
}

export interface CookieSpec {
  name: string;
  value: string;
  options: Record<string, unknown>;
}

export class Respond {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly cookies: CookieSpec[] = [],
    readonly raw = false,
  ) {}

  static json(body: unknown, status = 200, cookies: CookieSpec[] = []): Respond {
    return new Respond(status, body, {}, cookies);
  }

  static noContent(cookies: CookieSpec[] = []): Respond {
    return new Respond(204, undefined, {}, cookies);
  }
}

export const HANDLED = Symbol('handled');

export interface RouteInput<P extends Shape | undefined, Q extends Shape | undefined, B extends Shape | undefined> {
  ctx: AppContext;
  /** The caller; always set on routes whose auth is 'user' or 'admin'. */
  caller: Caller;
  /** The caller on routes open to anonymous requests. */
  maybeCaller: Caller | null;
  params: Values<P>;
  query: Values<Q>;
  body: BodyValues<B>;
  /** Which body keys were present (distinguishes "absent" from "null" for partial updates). */
  bodyKeys: Set<string>;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Handler<P extends Shape | undefined, Q extends Shape | undefined, B extends Shape | undefined> = (
  input: RouteInput<P, Q, B>,
) => Promise<unknown> | unknown;

/**
 * `/api/user/:id` → `/api/user/:id(^\d+$)` when the id param is numeric, so `/api/user/abc` is a 404.
 * Hyphenated names (Metabase's `:card-id`) become `card_id` in the router, which reads `-` as a separator.
 */
function routePath(path: string, params: Shape | undefined): string {
  return path.replace(/:([A-Za-z0-9_-]+)/g, (_whole, name: string) => {
    const pattern = params?.[name]?.routePattern;
    const routerName = name.replace(/-/g, '_');
    return pattern ? `:${routerName}(${pattern})` : `:${routerName}`;
  });
}

/** Router params back under the names the route declared (`card_id` → `card-id`). */
function declaredParams(raw: Record<string, string>, params: Shape | undefined): Record<string, unknown> {
  if (!params) return raw;
  const out: Record<string, unknown> = { ...raw };
  for (const name of Object.keys(params)) {
    const routerName = name.replace(/-/g, '_');
    if (routerName !== name && routerName in raw) {
      out[name] = raw[routerName];
      delete out[routerName];
    }
  }
  return out;
}

/**
 * A declared body is the allow-list of what a client may write: the keys it doesn't declare are dropped before the
 * handler runs. Clients copy an object by POSTing what a GET returned (metabase_api_python's `copy_card`), so a body
 * carries `id`, `entity_id`, `created_at`, `creator`… — Metabase ignores those, and so does every route here.
 */
function writableKeys(shape: Shape, parsed: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) if (parsed[key] !== undefined) out[key] = parsed[key];
  return out;
}

/** Path params: an id too large for any row names nothing, so it is a 404 like an id that doesn't exist. */
function pathParams(shape: Shape, raw: Record<string, unknown>): Record<string, unknown> {
  const r = tryParseParams(shape, raw, true);
  if (r.ok) return r.value;
  if (r.issues.some((issue) => issue.outOfRange)) throw notFound();
  return throwIssues(r.issues);
}

export function sendValue(reply: FastifyReply, value: unknown): FastifyReply | void {
  if (value === HANDLED) return;
  if (value instanceof Respond) {
    for (const [k, v] of Object.entries(value.headers)) reply.header(k, v);
    for (const c of value.cookies) reply.setCookie(c.name, c.value, c.options);
    reply.code(value.status);
    if (value.status === 204 || value.body === undefined) return reply.send();
    if (value.raw) return reply.send(value.body);
    if (typeof value.body === 'string' && reply.getHeader('content-type')?.toString().startsWith('text/')) {
      return reply.send(value.body);
    }
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(value.body));
  }
  if (value === undefined || value === null) return reply.code(204).send();
  return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(value));
}

const declared = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/**
 * Every route declared through `routes()`, with its path as written (`/api/tiles/:card-id/…`): Fastify's own route
 * tree merges parameters of different names at the same position, so only this list says which name each route
 * gave them (the authorization matrix reads it).
 */
export function declaredRoutes(app: FastifyInstance): ReadonlyArray<DeclaredRoute> {
  return declared.get(app) ?? [];
}

export function routes(app: FastifyInstance, ctx: AppContext) {
  const list: DeclaredRoute[] = declared.get(app) ?? [];
  declared.set(app, list);
  function register<P extends Shape | undefined, Q extends Shape | undefined, B extends Shape | undefined>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    spec: RouteSpec<P, Q, B>,
    handler: Handler<P, Q, B>,
  ) {
    const auth = spec.auth ?? 'user';
    const url = routePath(path, spec.params);
    list.push({ method, path, url, auth, spec });
    app.route({
      method,
      url,
      handler: async (request, reply) => {
        const maybeCaller = await resolveCaller(ctx, request);
        if (auth !== 'none' && !maybeCaller) throw unauthenticated();
        if (auth === 'admin' && !maybeCaller!.isSuperuser) throw forbidden();
        const rawParams = declaredParams(request.params as Record<string, string>, spec.params);
        const params = spec.params ? pathParams(spec.params, rawParams) : rawParams;
        const query = spec.query ? parseParams(spec.query, request.query, true) : (request.query as Record<string, unknown>);
        const rawBody = request.body;
        const bodyObject = rawBody && typeof rawBody === 'object' && !Array.isArray(rawBody) ? (rawBody as Record<string, unknown>) : {};
        // A route that declares body keys takes a JSON object (`null` counts as no body).
        if (spec.body && rawBody !== undefined && rawBody !== null && rawBody !== bodyObject) {
          throwBodyNotAMap(rawBody);
        }
        const body = spec.body ? writableKeys(spec.body, parseParams(spec.body, bodyObject, false)) : (rawBody as Record<string, unknown>);
        const input = {
          ctx,
          caller: maybeCaller as Caller,
          maybeCaller,
          params: params as Values<P>,
          query: query as Values<Q>,
          body: body as BodyValues<B>,
          bodyKeys: new Set(Object.keys(bodyObject).filter((key) => !spec.body || Object.hasOwn(spec.body, key))),
          request,
          reply,
        };
        if (method === 'GET') return sendValue(reply, await handler(input));
        // A request that may have changed something clears the caches of derived facts before it is answered
        // (src/http/short-cache.ts), also when it failed part-way.
        let value: unknown;
        try {
          value = await handler(input);
        } finally {
          localChangeDone();
        }
        return sendValue(reply, value);
      },
    });
  }
  return {
    get: <P extends Shape | undefined, Q extends Shape | undefined>(path: string, spec: RouteSpec<P, Q, undefined>, handler: Handler<P, Q, undefined>) =>
      register('GET', path, spec, handler),
    post: <P extends Shape | undefined, Q extends Shape | undefined, B extends Shape | undefined>(path: string, spec: RouteSpec<P, Q, B>, handler: Handler<P, Q, B>) =>
      register('POST', path, spec, handler),
    put: <P extends Shape | undefined, Q extends Shape | undefined, B extends Shape | undefined>(path: string, spec: RouteSpec<P, Q, B>, handler: Handler<P, Q, B>) =>
      register('PUT', path, spec, handler),
    delete: <P extends Shape | undefined, Q extends Shape | undefined, B extends Shape | undefined>(path: string, spec: RouteSpec<P, Q, B>, handler: Handler<P, Q, B>) =>
      register('DELETE', path, spec, handler),
  };
}

export type Routes = ReturnType<typeof routes>;
