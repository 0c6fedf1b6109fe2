// `npm run bench [name…]`: builds, then runs bench/*.ts (or the named ones) one after another. Benches that take long
// (Metabase's load scenario: 38 minutes per stack) run only when named.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const ON_DEMAND = new Set(['mb-load.ts']);
const wanted = process.argv.slice(2);
const files = readdirSync(`${root}bench`)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .filter((f) => (wanted.length === 0 ? !ON_DEMAND.has(f) : wanted.some((w) => f.startsWith(w))))
  .sort();
for (const file of files) {
  console.log(`\n##### bench/${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
