// Turns anything thrown while handling a request into Metabase's response shapes (reference §2):
// plain-text bodies for simple messages, JSON for structured errors, never a stack trace.

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, MESSAGES } from './errors.js';
import { setApiHeaders } from './headers.js';
import { misfitValue } from '../appdb/portable.js';
import { isClientGone } from './client-gone.js';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  reply.code(error.status);
  if (typeof error.body === 'string') return reply.type('text/plain; charset=utf-8').send(error.body);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(error.body));
}

/** Errors raised by Fastify itself (body parsing, limits) become the nearest Metabase answer. */
function fromFastifyError(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, MESSAGES.malformedJson);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'Request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'Unsupported content type.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, MESSAGES.invalidRequest);
    default:
      break;
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, error.message || MESSAGES.invalidRequest);
  }
  return null;
}

export const VALUE_TOO_LONG = 'A value in the request is too long to be saved.';
export const NUMBER_OUT_OF_RANGE = 'A number in the request is out of range.';

/**
 * A value the app DB refused because it doesn't fit its column (a string over its varchar's size, a number beyond
 * its column's range) came from the request: a 400 saying so, never the database's words. Route schemas cap every
 * string they store (`s.nbstr(…, { max })`) and the domain cuts the names it makes up, so this is the fallback for
 * whatever still slips through — on PostgreSQL and MySQL only, SQLite stores any length.
 */
export function fromAppDbError(error: unknown): ApiError | null {
  switch (misfitValue(error)) {
    case 'too-long':
      return new ApiError(400, { message: VALUE_TOO_LONG });
    case 'out-of-range':
      return new ApiError(400, { message: NUMBER_OUT_OF_RANGE });
    default:
      return null;
  }
}

/**
 * Errors the router raises before any route runs (Fastify's `frameworkErrors` option): a URL whose percent-encoding
 * is broken, a path segment longer than the router allows. Such a path names no endpoint, so the answer is the
 * unknown-route 404, with the same headers as any other API answer.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 404 : 400;
  setApiHeaders(request, reply);
  sendError(reply, new ApiError(status, status === 404 ? MESSAGES.noEndpoint : MESSAGES.invalidRequest));
}

/** How the errors of a family of routes read (public links and embeds answer every error their own way). */
export type ErrorStyle = (error: ApiError) => ApiError;

const styles = new Map<string, ErrorStyle>();

/**
 * Routes whose path starts with `prefix` answer every error — validation, body parsing and failures alike —
 * through `style`, so nothing reaches their callers in another shape.
 */
export function errorStyleFor(prefix: string, style: ErrorStyle): void {
  styles.set(prefix, style);
}

function styled(request: FastifyRequest, error: ApiError): ApiError {
  const path = request.routeOptions?.url ?? request.url;
  for (const [prefix, style] of styles) if (path.startsWith(prefix)) return style(error);
  return error;
}

/**
 * Installs the error handler and the unknown-route answer. `pages` (the web app, src/webapp) may answer a request
 * that names no API route first; what it leaves — every /api/… path, every other method — gets the 404 as before.
 */
export function installErrorHandling(app: FastifyInstance, pages?: (request: FastifyRequest, reply: FastifyReply) => boolean): void {
  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return sendError(reply, styled(request, error));
    const mapped = fromFastifyError(error as FastifyError);
    if (mapped) return sendError(reply, styled(request, mapped));
    const refused = fromAppDbError(error);
    if (refused) {
      // a missing cap somewhere (a warning, not an error: the caller sent too much, and was told so)
      request.log.warn({ err: error, url: request.url, method: request.method }, 'the app DB refused a value that does not fit its column');
      return sendError(reply, styled(request, refused));
    }
    if (isClientGone(error, request, reply)) {
      // Not the server's fault (a download cut off before its first byte): no error in the logs.
      request.log.debug({ err: error, url: request.url, method: request.method }, 'the client went away before the answer was sent');
      return sendError(reply, new ApiError(500, { message: 'Internal server error.' }));
    }
    request.log.error({ err: error, url: request.url, method: request.method }, 'unhandled error');
    return sendError(reply, styled(request, new ApiError(500, { message: 'Internal server error.' })));
  });

  app.setNotFoundHandler((request, reply) => {
    if (pages?.(request, reply)) return reply;
    return sendError(reply, new ApiError(404, MESSAGES.noEndpoint));
  });
}
