// `npm start`: builds the bundle only when what it is built from changed (on a fresh clone: always), then runs the
// server in this same process — no second Node start-up.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceHash, STAMP } from './sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, STAMP);
const current = existsSync(stamp) && existsSync(join(root, 'dist/main.js')) ? readFileSync(stamp, 'utf8') : null;
if (current !== sourceHash(root)) {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(pathToFileURL(join(root, 'dist/main.js')).href);
