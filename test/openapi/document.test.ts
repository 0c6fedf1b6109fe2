// GET /api/docs/openapi.json: a valid OpenAPI 3.1 document, open to anyone, listing every route the server serves
// (read back from Fastify's own route tree) and nothing else, each described from the schemas that validate it.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { FastifyInstance } from 'fastify';

type Operation = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** `/api/card/{card-id}` and the router's `/api/card/:card_id(^\d+$)` both → `/api/card/{}`. */
const shapeOfDocPath = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
const PARAM_ALTERNATIVES = /:[A-Za-z0-9_]+(\([^)]*\))?(\|:[A-Za-z0-9_]+(\([^)]*\))?)*/g;

/**
 * Every METHOD + path shape Fastify's router holds, read from its own printout (independent of the onRoute list the
 * document is built from). Routes naming a segment differently print as `:zoom(…)|:card_id(…)`: one segment.
 */
function servedRoutes(app: FastifyInstance): string[] {
  const out: string[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const level = m[1].length / 4;
    parents.length = level;
    parents[level] = (parents[level - 1] ?? '') + m[2];
    const shape = parents[level].replace(PARAM_ALTERNATIVES, '{}').replace(/\*/g, '{}');
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) if (method !== 'HEAD') out.push(`${method} ${shape}`);
  }
  return out;
}

function operations(doc: any): Array<{ method: string; path: string; op: Operation }> {
  const out: Array<{ method: string; path: string; op: Operation }> = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) if (item[method]) out.push({ method: method.toUpperCase(), path, op: item[method] });
  }
  return out;
}

forEachAppDb('the OpenAPI document', (server) => {
  let doc: any;

  before(async () => {
    const response = await server().anon.get('/api/docs/openapi.json');
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    doc = response.body;
  });

  test('it is served without signing in, and validates as OpenAPI 3.1', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(doc);
    assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors)?.slice(0, 2000));
    assert.equal(result.valid, true);
  });

  test('every schema in it compiles as JSON Schema 2020-12 (the dialect of OpenAPI 3.1)', () => {
    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    const found: unknown[] = [];
    const walk = (node: unknown, key?: string) => {
      if (!node || typeof node !== 'object') return;
      if (key === 'schema') return found.push(node);
      for (const [k, v] of Object.entries(node)) walk(v, k);
    };
    walk(doc.paths);
    assert.ok(found.length > 500, `${found.length} schemas`);
    for (const schema of found) {
      const withDefs = { ...JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')), $defs: doc.components.schemas };
      assert.doesNotThrow(() => ajv.compile(withDefs), JSON.stringify(schema).slice(0, 300));
    }
  });

  test("every route Fastify serves is in it, and nothing else is", () => {
    const served = servedRoutes(server().server.app);
    const documented = operations(doc).map((o) => `${o.method} ${shapeOfDocPath(o.path)}`);
    assert.equal(new Set(documented).size, documented.length, 'an operation is listed twice');
    assert.deepEqual([...new Set(documented)].sort(), [...new Set(served)].sort());
    assert.ok(documented.length > 300, `${documented.length} operations`);
    assert.ok(documented.includes('GET /api/docs/openapi.json') && documented.includes('GET /api/docs'));
  });

  test('each path parameter of a path is declared by its operation, and operation ids are unique', () => {
    const ids = new Set<string>();
    for (const { method, path, op } of operations(doc)) {
      const inPath = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name).sort();
      assert.deepEqual(declared, inPath, `${method} ${path}`);
      assert.ok(!ids.has(op.operationId), op.operationId);
      ids.add(op.operationId);
    }
  });

  test("parameters carry their schemas: Metabase's :params as {params}, types, bounds, enums, required keys", () => {
    const run = doc.paths['/api/card/{card-id}/query'].post;
    assert.deepEqual(run.parameters[0], {
      name: 'card-id',
      in: 'path',
      required: true,
      description: 'value must be an integer greater than zero.',
      schema: { type: 'integer', minimum: 1, maximum: 2147483647 },
    });
    assert.deepEqual(run.requestBody.content['application/json'].schema.properties.ignore_cache, { anyOf: [{ type: 'boolean' }, { type: 'null' }] });
    assert.ok(run.responses['202'].content['application/json'].schema.properties.data, 'the declared result shape');

    const login = doc.paths['/api/session'].post.requestBody;
    assert.equal(login.required, true);
    const loginSchema = login.content['application/json'].schema;
    assert.deepEqual(loginSchema.required, ['username', 'password']);
    assert.equal(loginSchema.properties.password.maxLength, 1024);
    assert.equal(loginSchema.properties.username.minLength, 1);

    const cache = doc.paths['/api/cache'].get.parameters;
    const sortDirection = cache.find((p: any) => p.name === 'sort_direction');
    assert.deepEqual(sortDirection, { name: 'sort_direction', in: 'query', required: false, description: 'enum of asc, desc', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } });
    const model = cache.find((p: any) => p.name === 'model');
    assert.equal(model.schema.type, 'array');
    assert.equal(model.schema.items.type, 'string');

    const search = doc.paths['/api/session/password_reset_token_valid'].get.parameters;
    assert.deepEqual(search.map((p: any) => [p.name, p.required]), [['token', true]]);

    const exports = doc.paths['/api/card/{card-id}/query/{export-format}'].post;
    assert.deepEqual(exports.parameters[1].schema.enum, ['csv', 'api', 'xlsx', 'json']);
    assert.ok(exports.requestBody.content['application/x-www-form-urlencoded'], 'downloads take form posts');
  });

  test('the auth each operation needs: none for public, embed and setup routes; a session or API key; admin', () => {
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'session', 'sessionCookie']);
    assert.deepEqual(doc.components.securitySchemes.session, {
      type: 'apiKey',
      in: 'header',
      name: 'X-Metabase-Session',
      description: 'A session token: the `id` that `POST /api/session` answers.',
    });
    assert.equal(doc.components.securitySchemes.sessionCookie.name, 'metabase.SESSION');
    assert.equal(doc.components.securitySchemes.apiKey.name, 'X-API-KEY');

    for (const path of ['/api/setup', '/api/session']) {
      assert.deepEqual(doc.paths[path].post.security, [], path);
      assert.equal(doc.paths[path].post.responses['401'], undefined, path);
    }
    const publicCard = Object.keys(doc.paths).find((p) => p.startsWith('/api/public/card/'))!;
    const embedCard = Object.keys(doc.paths).find((p) => p.startsWith('/api/embed/card/'))!;
    for (const path of [publicCard, embedCard]) assert.deepEqual(doc.paths[path].get.security, [], path);

    const card = doc.paths['/api/card/{id}'].get;
    assert.deepEqual(card.security, [{ session: [] }, { sessionCookie: [] }, { apiKey: [] }]);
    assert.equal(card['x-auth'], 'user');
    assert.ok(card.responses['401'] && card.responses['404']);

    const graph = doc.paths['/api/permissions/graph/db/{db-id}'].get;
    assert.equal(graph['x-auth'], 'admin');
    assert.ok(graph.responses['403']);
    assert.ok(graph.responses['400'].content['application/json'].schema.$ref);
  });

  test('what it says is what the server checks: a required key missing, a value outside an enum', async () => {
    const login = doc.paths['/api/session'].post.requestBody.content['application/json'].schema;
    const missing = await server().anon.post('/api/session', { username: 'ada@example.com' });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body.errors), login.required.filter((key: string) => key !== 'username'));

    const admin = await setupAdmin(server());
    const direction = doc.paths['/api/cache'].get.parameters.find((p: any) => p.name === 'sort_direction').schema.enum;
    assert.equal((await admin.get('/api/cache', { query: { sort_direction: direction[1] } })).status, 200);
    const refused = await admin.get('/api/cache', { query: { sort_direction: 'sideways' } });
    assert.equal(refused.status, 400);
    assert.ok(refused.body.errors.sort_direction);
  });
});
