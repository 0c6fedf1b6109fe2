// The no-cache and security headers Metabase puts on every API response.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const STATIC_HEADERS: Record<string, string> = {
  'Cache-Control': 'max-age=0, no-cache, must-revalidate, proxy-revalidate',
  Expires: 'Tue, 03 Jul 2001 06:00:00 GMT',
  'X-Content-Type-Options': 'nosniff',
  'X-XSS-Protection': '1; mode=block',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'Strict-Transport-Security': 'max-age=31536000',
};

// Last-Modified has a resolution of one second: format the date once per second, not once per request.
let lastModifiedSecond = -1;
let lastModified = '';

function lastModifiedNow(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== lastModifiedSecond) {
    lastModifiedSecond = second;
    lastModified = new Date(now).toUTCString();
  }
  return lastModified;
}

/** Puts the headers on an answer to an `/api/…` request (also used for answers given before routing). */
export function setApiHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (!request.url.startsWith('/api/')) return;
  reply.headers(STATIC_HEADERS);
  reply.header('Last-Modified', lastModifiedNow());
  // Embed and public endpoints are meant to be framed by other sites; everything else is not.
  if (!request.url.startsWith('/api/embed/') && !request.url.startsWith('/api/public/')) {
    reply.header('X-Frame-Options', 'DENY');
  }
}

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => setApiHeaders(request, reply));
}
