// Request bodies: JSON (an empty body is no body; a broken one is Metabase's "Malformed JSON" 400),
// form-encoded (export downloads post `query=<json>`), and anything else read as text and tried as JSON.

import type { FastifyInstance } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import { ApiError, MESSAGES } from './errors.js';

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, MESSAGES.malformedJson);
  }
}

export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseQueryString(body as string));
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    try {
      done(null, parseJsonBody(text));
    } catch {
      done(null, text);
    }
  });
}
