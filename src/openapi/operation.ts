// One route → one OpenAPI operation. A route declared through src/http/route.ts brings everything: its path
// params, query string and body from the schemas that validate them, its auth level, its documented responses. A
// route registered on Fastify directly brings what Fastify knows: its path, and the JSON schemas it may carry.

import type { DeclaredRoute } from '../http/route.js';
import type { JsonSchema, RouteDoc } from '../http/json-schema.js';
import { jsonOf, objectJson, type Schema } from '../http/schema.js';
import type { RegisteredRoute } from './registry.js';
import { operationIdOf, tagOf, templatePath } from './paths.js';
import { ref, SIGNED_IN, text } from './components.js';

type Shape = Record<string, Schema<unknown>>;
type Json = Record<string, unknown>;

export interface DocumentedOperation {
  method: string;
  path: string;
  operation: Json;
}

export function operationFor(route: RegisteredRoute, declared: DeclaredRoute | undefined): DocumentedOperation {
  const { path, names } = templatePath(declared?.path ?? route.url, declared !== undefined);
  const spec = declared?.spec ?? {};
  const parameters = [
    ...names.map((name) => parameter('path', name, paramSchema(spec.params, route.schema?.params, name), true)),
    ...queryParameters(spec.query, route.schema?.querystring),
  ];
  const body = requestBody(declared, route);
  const operation: Json = {
    tags: [tagOf(path)],
    operationId: operationIdOf(route.method, path),
    ...(spec.doc?.summary ? { summary: spec.doc.summary } : {}),
    ...security(declared),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(route.method, declared, parameters.length > 0 || body !== undefined, names.length > 0),
  };
  return { method: route.method.toLowerCase(), path, operation };
}

function parameter(where: 'path' | 'query', name: string, schema: JsonSchema, required: boolean): Json {
  const { description, ...rest } = withoutNull(schema);
  return { name, in: where, required, ...(description ? { description } : {}), schema: rest };
}

/** A URL can't carry a null: a nullable param is just an optional one there. */
function withoutNull(schema: JsonSchema): JsonSchema {
  const { anyOf, ...rest } = schema;
  const others = anyOf?.filter((s) => s.type !== 'null');
  if (!anyOf || !others || others.length !== 1) return schema;
  return { ...others[0], ...rest };
}

function paramSchema(declared: Shape | undefined, raw: unknown, name: string): JsonSchema {
  if (declared?.[name]) return jsonOf(declared[name]);
  return rawProperties(raw)?.[name] ?? { type: 'string' };
}

function queryParameters(declared: Shape | undefined, raw: unknown): Json[] {
  if (declared) return Object.entries(declared).map(([name, schema]) => parameter('query', name, jsonOf(schema), !schema.isOptional));
  const properties = rawProperties(raw);
  if (!properties) return [];
  const required = new Set(((raw as JsonSchema).required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => parameter('query', name, schema, required.has(name)));
}

/** The properties of a JSON object schema a route gave Fastify, if that is what it gave. */
function rawProperties(raw: unknown): Record<string, JsonSchema> | undefined {
  return raw && typeof raw === 'object' && 'properties' in raw ? (raw as JsonSchema).properties : undefined;
}

function requestBody(declared: DeclaredRoute | undefined, route: RegisteredRoute): Json | undefined {
  const doc: RouteDoc = declared?.spec.doc ?? {};
  const content: Json = {};
  let schema: JsonSchema | undefined;
  if (declared?.spec.body) schema = objectJson(declared.spec.body);
  else if (doc.body) schema = doc.body;
  else if (route.schema?.body) schema = route.schema.body as JsonSchema;
  if (schema) content['application/json'] = { schema };
  if (declared?.path.endsWith(':export-format')) {
    // Downloads also take their options as form fields (src/http/body-parsers.ts), as Metabase's UI posts them.
    const options = schema ?? { type: 'object' };
    content['application/json'] = { schema: options };
    content['application/x-www-form-urlencoded'] = { schema: options };
  }
  if (doc.multipart) {
    content['multipart/form-data'] = { schema: { type: 'object', properties: doc.multipart, required: Object.keys(doc.multipart) } };
    schema ??= { required: Object.keys(doc.multipart) };
  }
  if (!Object.keys(content).length) return undefined;
  return { required: (schema?.required?.length ?? 0) > 0, content };
}

/** Public, embed and setup routes need nobody; the others take any of the three credentials. */
function security(declared: DeclaredRoute | undefined): Json {
  if (!declared) return { 'x-auth': 'route' }; // checked by the route itself: the document's default applies
  return { security: declared.auth === 'none' ? [] : SIGNED_IN, 'x-auth': declared.auth };
}

function responses(method: string, declared: DeclaredRoute | undefined, validated: boolean, hasPathParams: boolean): Json {
  const out: Json = {};
  const documented = declared?.spec.doc?.responses;
  if (documented) {
    for (const [status, r] of Object.entries(documented)) {
      out[status] = { description: r.description, ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } } : {}) };
    }
  } else if (method === 'GET') {
    out['200'] = { description: 'The result', content: { 'application/json': { schema: {} } } };
  } else {
    out['2XX'] = { description: 'Done: a JSON result, or 204 with no body' };
  }
  if (validated) {
    out['400'] = { description: 'A param or body key failed its schema', content: { 'application/json': { schema: ref('ValidationError') } } };
  }
  const auth = declared?.auth;
  if (auth === 'user' || auth === 'admin') out['401'] = text('No valid session or API key was sent (`Unauthenticated`)');
  if (auth === 'admin') out['403'] = text('Only admins may do this');
  if (hasPathParams) out['404'] = text('Nothing has that id (`Not found.`)');
  out.default = {
    description: "Any other error, in Metabase's shape: a plain-text message, or JSON with a `message` or `errors`",
  };
  return out;
}
