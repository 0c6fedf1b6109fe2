// The fingerprint of everything the bundle is built from — the sources, the build script, the installed dependency
// versions — so that `npm start` rebuilds only when one of them changed (./start.mjs), whatever the files' dates.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

function files(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, out);
    else out.push(path);
  }
  return out;
}

export function sourceHash(root) {
  const inputs = [...files(join(root, 'src'), []).sort(), join(root, 'scripts/build.mjs'), join(root, 'package-lock.json')];
  const hash = createHash('sha256');
  for (const file of inputs) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** Where the build records the fingerprint of what it built. */
export const STAMP = 'dist/.sources';
