// Files shipped in resources/ (built-in maps, fonts). resources/ sits beside both src/ and dist/, and this module is
// one folder deeper in src/ (src/util/) than in the bundle (dist/, where split chunks sit beside the entries).

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The path of resources/<relative>, or null when it isn't there. */
export function shippedResource(relative: string): string | null {
  for (const prefix of ['../resources/', '../../resources/']) {
    const path = fileURLToPath(new URL(prefix + relative, import.meta.url));
    if (existsSync(path)) return path;
  }
  return null;
}
