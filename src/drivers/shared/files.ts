// Resolving the file of a file-based engine (SQLite, DuckDB): relative to the data directory, never the app
// database itself, and it must already exist (a typo must not silently create an empty database).

import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConnectionError } from './connect-errors.js';

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export function resolveDatabaseFile(path: string, dataDir: string, protectedPaths: readonly string[] = []): string {
  const absolute = resolve(dataDir, path);
  const real = canonical(absolute);
  for (const p of protectedPaths) {
    const guarded = canonical(p);
    if (real === guarded || real.startsWith(`${guarded}-`)) throw new ConnectionError("That file is Quarry's own application database and can't be added as a data source.", 'db');
  }
  if (!existsSync(real)) throw new ConnectionError(`Database file "${absolute}" does not exist.`, 'db');
  if (!statSync(real).isFile()) throw new ConnectionError(`"${absolute}" is not a file.`, 'db');
  return real;
}
