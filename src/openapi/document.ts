// The OpenAPI 3.1 document of a running server: every route Fastify registered (src/openapi/registry.ts), each
// described from its declaration when it has one (src/http/route.ts). Built once, on first request: by then every
// route is registered, and Fastify refuses new ones.

import type { FastifyInstance } from 'fastify';
import { declaredRoutes, type DeclaredRoute } from '../http/route.js';
import { METABASE_COMPATIBLE_VERSION, QUARRY_VERSION } from '../version.js';
import { registeredRoutes } from './registry.js';
import { operationFor } from './operation.js';
import { SCHEMAS, SECURITY_SCHEMES, SIGNED_IN } from './components.js';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };

const built = new WeakMap<FastifyInstance, OpenApiDocument>();

export function openApiDocument(app: FastifyInstance): OpenApiDocument {
  let document = built.get(app);
  if (!document) {
    document = buildDocument(app);
    built.set(app, document);
  }
  return document;
}

const PARAM = /\{([^}]*)\}/g;

/**
 * OpenAPI allows one spelling per path: routes that name the same segment differently (`/api/action/:id` for GET,
 * `/api/action/:action-id` for PUT) are listed under the first one's names, their own path parameters renamed.
 */
function renamePathParams(operation: Record<string, unknown>, from: string, to: string): void {
  const oldNames = [...from.matchAll(PARAM)].map((m) => m[1]);
  const newNames = [...to.matchAll(PARAM)].map((m) => m[1]);
  for (const parameter of (operation.parameters ?? []) as Array<{ in: string; name: string }>) {
    const i = oldNames.indexOf(parameter.name);
    if (parameter.in === 'path' && i >= 0) parameter.name = newNames[i];
  }
}

function buildDocument(app: FastifyInstance): OpenApiDocument {
  const declared = new Map<string, DeclaredRoute>();
  for (const route of declaredRoutes(app)) declared.set(`${route.method} ${route.url}`, route);
  const paths: OpenApiDocument['paths'] = {};
  const spellings = new Map<string, string>();
  const tags = new Set<string>();
  for (const route of registeredRoutes(app)) {
    const { method, path, operation } = operationFor(route, declared.get(`${route.method} ${route.url}`));
    const shape = path.replace(PARAM, '{}');
    const spelling = spellings.get(shape) ?? path;
    spellings.set(shape, spelling);
    if (spelling !== path) renamePathParams(operation, path, spelling);
    (paths[spelling] ??= {})[method] = operation;
    for (const tag of operation.tags as string[]) tags.add(tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quarry API',
      version: QUARRY_VERSION.tag,
      description:
        `Quarry speaks Metabase's HTTP API (as Metabase ${METABASE_COMPATIBLE_VERSION.tag}). This document is generated ` +
        'from the routes the server registered and the schemas that validate their requests. Sign in with ' +
        '`POST /api/session` and send the `id` it answers as the `X-Metabase-Session` header, or use an API key.',
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { securitySchemes: SECURITY_SCHEMES, schemas: SCHEMAS },
    security: SIGNED_IN,
  };
}
