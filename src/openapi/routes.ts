// GET /api/docs/openapi.json and GET /api/docs (the page reading it). Like Metabase's, both are open to anyone:
// the document says what the API takes, never what it holds.

import { Respond, type Routes } from '../http/route.js';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './document.js';
import { DOCS_PAGE } from './page.js';

const texts = new WeakMap<FastifyInstance, string>();

export function openApiRoutes(r: Routes) {
  r.get('/api/docs/openapi.json', { auth: 'none', doc: { summary: 'This document (OpenAPI 3.1)' } }, ({ request }) => {
    const app = request.server;
    let text = texts.get(app);
    if (text === undefined) {
      text = JSON.stringify(openApiDocument(app));
      texts.set(app, text);
    }
    return new Respond(200, text, { 'content-type': 'application/json; charset=utf-8' }, [], true);
  });

  r.get(
    '/api/docs',
    { auth: 'none', doc: { summary: 'A page to read this document', responses: { 200: { description: 'An HTML page', contentType: 'text/html', schema: { type: 'string' } } } } },
    () => new Respond(200, DOCS_PAGE, { 'content-type': 'text/html; charset=utf-8' }, [], true),
  );
}
