// Answers the GET requests that name no API route with the web app: its built files (hashed, cached for a year)
// and, for every page of Metabase's URL space (/, /question/12-…, /dashboard/3?date=…, /public/…, /embed/…),
// index.html, whose script then shows the page. /api/… is never touched: an unknown API path keeps its 404.

import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findWebDir, loadWebBuild, type WebBuild } from './files.js';

/** What the not-found handler asks first: true when the web app answered the request. */
export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

const YEAR = 'public, max-age=31536000, immutable';
const HOUR = 'public, max-age=3600';

/**
 * Framing: the public and embed pages are made to be framed by other sites (as their API routes are); every other
 * page is not. Scripts, styles and data only from this server (Mantine sets inline styles; charts draw SVG).
 */
function pageHeaders(path: string): Record<string, string> {
  const framable = path.startsWith('/public/') || path.startsWith('/embed/');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': framable ? 'no-referrer' : 'strict-origin-when-cross-origin',
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      `frame-ancestors ${framable ? '*' : "'none'"}`,
    ].join('; '),
    ...(framable ? {} : { 'X-Frame-Options': 'DENY' }),
  };
}

function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  return typeof header === 'string' && /\bgzip\b/.test(header);
}

/** A path that looks like a file at the top level (`/robots.txt`): not a page, so a missing one is a plain 404. */
function looksLikeFile(path: string): boolean {
  return path.startsWith('/assets/') || /^\/[^/]+\.[a-z0-9]+$/i.test(path);
}

const NOT_BUILT = "Quarry's web app is not built. Run `npm run build` (or `npm start`, which builds it), then reload.\n";

export function webAppPages(webDir?: string): PageFallback {
  let build: WebBuild | null | undefined;
  const current = (): WebBuild | null => {
    if (build === undefined) {
      const dir = findWebDir(webDir);
      build = dir ? loadWebBuild(dir) : null;
    }
    return build;
  };

  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const path = (request.url.split('?')[0] ?? '/').split('#')[0];
    if (path === '/api' || path.startsWith('/api/')) return false;
    const web = current();
    const file = web?.files.get(path);
    if (file) {
      const gz = file.gzPath && acceptsGzip(request);
      reply
        .code(200)
        .header('Content-Type', file.type)
        .header('Cache-Control', path.startsWith('/assets/') ? YEAR : HOUR)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Vary', 'Accept-Encoding');
      if (gz) reply.header('Content-Encoding', 'gzip');
      reply.send(createReadStream(gz ? file.gzPath! : file.path));
      return true;
    }
    if (looksLikeFile(path)) {
      reply.code(404).type('text/plain; charset=utf-8').header('Cache-Control', 'no-cache').send('Not found.');
      return true;
    }
    if (!web) {
      reply.code(503).type('text/plain; charset=utf-8').header('Cache-Control', 'no-cache').send(NOT_BUILT);
      return true;
    }
    reply.code(200).headers(pageHeaders(path)).send(web.indexHtml);
    return true;
  };
}
