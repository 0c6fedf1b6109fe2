// Request bodies. JSON everywhere (an empty body is no body; a broken one is Metabase's "Malformed JSON" 400).
// Form-encoded bodies only on the download routes (`…/:export-format`): Metabase's UI downloads results by posting
// an HTML form (`query=<json>`, `parameters=<json>`, `format_rows=true`). Any other body — form-encoded elsewhere,
// text/plain, an unknown type — is a clear 400 rather than being guessed at. A body with no Content-Type is JSON.
// A body nested more than MAX_JSON_DEPTH levels deep is refused here, once for every route, before anything walks it.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import { ApiError, MESSAGES } from './errors.js';
import { throwTooDeep } from './schema.js';
import { jsonDeeperThan } from '../util/json-depth.js';

export const JSON_ONLY = 'Request bodies must be JSON (Content-Type: application/json).';

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, MESSAGES.malformedJson);
  }
  if (jsonDeeperThan(value)) throwTooDeep(['body'], value);
  return value;
}

/** The export routes, whose path ends with the `:export-format` param (any regex the router added after it). */
function acceptsForm(request: FastifyRequest): boolean {
  return /:export_format(\(.*\))?$/.test(request.routeOptions?.url ?? '');
}

export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const json = (_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, json);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'string' }, json);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text === '') return done(null, undefined);
    if (!acceptsForm(request)) return done(new ApiError(400, JSON_ONLY), undefined);
    done(null, parseQueryString(text));
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    // A body sent without any Content-Type is read as JSON; a declared non-JSON type is refused.
    if (request.headers['content-type'] !== undefined) return done(new ApiError(400, JSON_ONLY), undefined);
    try {
      done(null, parseJsonBody(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
