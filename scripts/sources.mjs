// The fingerprint of everything the bundle is built from — the sources, the build scripts, the installed dependency
// versions — so that `npm start` rebuilds only when one of them changed (./start.mjs), whatever the files' dates.
// The web app (dist/web) has its own fingerprint too, so the browser tests rebuild only it when it is stale.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

function files(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, out);
    else out.push(path);
  }
  return out;
}

function hashOf(root, inputs) {
  const hash = createHash('sha256');
  for (const file of inputs) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

export function sourceHash(root) {
  const inputs = [
    ...files(join(root, 'src'), []).sort(),
    ...files(join(root, 'web'), []).sort(),
    join(root, 'scripts/build.mjs'),
    join(root, 'scripts/build-web.mjs'),
    join(root, 'package-lock.json'),
  ];
  return hashOf(root, inputs);
}

/** Where the build records the fingerprint of what it built. */
export const STAMP = 'dist/.sources';

/** Where the web build records its fingerprint and the src/ files it bundled (JSON: {hash, srcFiles}). */
export const WEB_STAMP = 'dist/.web-sources';

/** The web app's fingerprint: web/, its build script, the dependencies, and the src/ files it bundled. */
export function webSourceHash(root, srcFiles) {
  const present = srcFiles.map((f) => join(root, f)).filter((f) => existsSync(f));
  const inputs = [...files(join(root, 'web'), []).sort(), ...present, join(root, 'scripts/build-web.mjs'), join(root, 'package-lock.json')];
  return hashOf(root, inputs) + ':' + present.length;
}
