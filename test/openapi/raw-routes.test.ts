// Routes registered on Fastify directly (a plugin's, a stream's, a static file's) appear in the document too, with
// what Fastify knows of them: their path parameters and the JSON schemas they carry.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { AppContext } from '../../src/context.js';
import { routes } from '../../src/http/route.js';
import { s } from '../../src/http/schema.js';
import { recordRoutes } from '../../src/openapi/registry.js';
import { openApiDocument } from '../../src/openapi/document.js';

test('raw Fastify routes are documented beside declared ones', async () => {
  const app = Fastify();
  recordRoutes(app);
  const r = routes(app, {} as AppContext);
  r.get('/api/thing/:id', { params: { id: s.posInt() }, query: { kind: s.maybe(s.enum(['a', 'b'] as const)) } }, () => ({}));
  app.get('/api/stream/:job-:part', async () => 'ok');
  app.post(
    '/api/raw',
    { schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' } }, required: ['limit'] }, body: { type: 'object', properties: { name: { type: 'string' } } } } },
    async () => ({}),
  );
  await app.register(async (child) => {
    child.get('/static/*', async () => 'file');
  });
  await app.register(
    async (child) => {
      child.route({ method: ['GET', 'POST'], url: '/:id(^\\d+$)/rows', handler: async () => [] });
    },
    { prefix: '/api/prefixed' },
  );
  await app.ready();

  const doc = openApiDocument(app) as any;
  assert.equal((await new Validator().validate(doc)).valid, true);
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/api/prefixed/{id}/rows', '/api/raw', '/api/stream/{job}-{part}', '/api/thing/{id}', '/static/{path}']);
  assert.deepEqual(Object.keys(doc.paths['/api/prefixed/{id}/rows']).sort(), ['get', 'post']);

  const thing = doc.paths['/api/thing/{id}'].get;
  assert.equal(thing['x-auth'], 'user');
  assert.deepEqual(thing.parameters[1], { name: 'kind', in: 'query', required: false, description: 'enum of a, b', schema: { type: 'string', enum: ['a', 'b'] } });

  const stream = doc.paths['/api/stream/{job}-{part}'].get;
  assert.equal(stream['x-auth'], 'route', 'a raw route checks its callers itself: the default security applies');
  assert.equal(stream.security, undefined);
  assert.deepEqual(stream.parameters.map((p: any) => [p.name, p.in, p.schema.type]), [['job', 'path', 'string'], ['part', 'path', 'string']]);

  const raw = doc.paths['/api/raw'].post;
  assert.deepEqual(raw.parameters, [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer' } }]);
  assert.deepEqual(raw.requestBody.content['application/json'].schema.properties, { name: { type: 'string' } });

  assert.equal(doc.paths['/static/{path}'].get.tags[0], '/');
  assert.equal(doc.paths['/api/thing/{id}'].head, undefined, "Fastify's HEAD twin of a GET isn't listed");
  await app.close();
});
