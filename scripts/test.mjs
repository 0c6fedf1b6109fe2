// `npm test`: runs every test/**/*.test.ts with node's test runner (through tsx), several files at a time.
// Tests use the machine's real PostgreSQL and MariaDB (see test/helpers/databases.ts); .ci/run starts them.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;

function findTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

// The longest files start first, so the run doesn't end with one of them alone on a core. A name missing here only
// costs time; keep the list to the few files that take a minute or more.
const LONGEST_FIRST = [
  'test/foundation/input-sweep-postgres.test.ts',
  'test/foundation/input-sweep-sqlite.test.ts',
  'test/query/matrix.test.ts',
  'test/notify/delivery.test.ts',
  'test/query/injection.test.ts',
  'test/query/bad-input.test.ts',
  'test/notify/cluster.test.ts',
  'test/security/authorization-matrix.test.ts',
];
const rank = (file) => {
  const i = LONGEST_FIRST.indexOf(file);
  return i === -1 ? LONGEST_FIRST.length : i;
};

const only = process.argv.slice(2);
const files = only.length ? only : findTests(join(root, 'test')).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
// The browser tests (test/web) load the built web app: build it first when its sources changed.
if (files.some((f) => f.startsWith('test/web/'))) {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build-web.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const concurrency = process.env.QUARRY_TEST_CONCURRENCY ?? '3';
const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=600000', ...files];
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=4096' } });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
