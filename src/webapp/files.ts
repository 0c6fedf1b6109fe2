// The built web app's files (dist/web, made by scripts/build-web.mjs), indexed once: URL path → file, its type and
// whether a .gz twin exists. Only files found by walking the build folder are ever served, so no request path can
// reach anything else on disk.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export interface WebFile {
  path: string;
  type: string;
  /** The precompressed twin (`<file>.gz`), when the build made one. */
  gzPath: string | null;
}

export interface WebBuild {
  dir: string;
  /** URL path (`/assets/index-abc.js`, `/favicon.svg`) → file. index.html is not among them. */
  files: Map<string, WebFile>;
  indexHtml: Buffer;
}

/**
 * dist/web: beside the bundle's chunks (`dist/web`, when running `npm start`) or, under tsx, two folders up from
 * this file (`src/webapp/` → `dist/web`). `QUARRY_WEB_DIR` points elsewhere (a build kept out of the tree).
 */
export function findWebDir(override?: string): string | null {
  const candidates = override ? [override] : [fileURLToPath(new URL('./web/', import.meta.url)), fileURLToPath(new URL('../../dist/web/', import.meta.url))];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? null;
}

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

export function loadWebBuild(dir: string): WebBuild {
  const all = walk(dir, []);
  const present = new Set(all);
  const files = new Map<string, WebFile>();
  for (const path of all) {
    const name = relative(dir, path);
    if (path.endsWith('.gz') || name === 'index.html' || name.split(sep).some((part) => part.startsWith('.'))) continue;
    const gz = path + '.gz';
    files.set('/' + name.split(sep).join('/'), { path, type: TYPES[extname(path)] ?? 'application/octet-stream', gzPath: present.has(gz) ? gz : null });
  }
  return { dir, files, indexHtml: readFileSync(join(dir, 'index.html')) };
}
