// The render worker outside tsx: `npm run build` emits dist/render-worker.js, which plain node runs as a worker,
// and a bundle laid out like dist/ (entries and split chunks side by side, scripts/build.mjs's options) finds its
// worker from whichever chunk holds the pool. Both run in child processes without tsx.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { fontFiles } from '../../src/notify/render/font.js';

const ROOT = new URL('../..', import.meta.url).pathname;

function runNode(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env, timeout: 120_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const JOB = {
  card: { name: 'Bundle', display: 'bar', visualization_settings: {} },
  result: { cols: [{ name: 'c', display_name: 'C', base_type: 'type/Text' }, { name: 'n', display_name: 'N', base_type: 'type/Integer' }], rows: [['a', 1], ['b', 2]] },
  options: { timezone: 'UTC' },
};

test('npm run build emits a render worker that plain node runs', () => {
  const built = runNode(['scripts/build.mjs']);
  assert.equal(built.status, 0, built.stderr);
  const worker = join(ROOT, 'dist/render-worker.js');
  assert.ok(existsSync(worker));
  const script = `
    import { Worker } from 'node:worker_threads';
    const w = new Worker(${JSON.stringify(worker)}, { execArgv: [] });
    w.on('message', (m) => { const png = Buffer.from(m.value); console.log(m.error ?? png.subarray(1, 4).toString() + ' ' + png.readUInt32BE(16)); w.terminate(); });
    w.postMessage({ id: 1, kind: 'png', payload: ${JSON.stringify(JOB)} });`;
  const run = runNode(['--input-type=module', '-e', script]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), 'PNG 1200');
});

test('a bundled caller finds render-worker.js beside its chunk and renders through the pool', async () => {
  const dir = join(ROOT, '.tmp', `render-bundle-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { renderCardPng, closeRenderer } from ${JSON.stringify(join(ROOT, 'src/notify/render/index.ts'))};
       const png = await renderCardPng(${JSON.stringify(JOB.card)}, ${JSON.stringify(JOB.result)}, { timezone: 'UTC', width: 400 });
       console.log(png.subarray(1, 4).toString() + ' ' + png.readUInt32BE(16));
       await closeRenderer();`,
    );
    await build({
      entryPoints: [{ in: entry, out: 'main' }, { in: join(ROOT, 'src/notify/render/worker.ts'), out: 'render-worker' }],
      outdir: join(dir, 'out'),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['@resvg/resvg-js'],
      banner: { js: "import { createRequire as __quarryCreateRequire } from 'node:module'; const require = __quarryCreateRequire(import.meta.url);" },
      logLevel: 'error',
    });
    const run = runNode([join(dir, 'out', 'main.js')]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'PNG 400');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A machine without DejaVu installed must still draw text: the fonts ship in resources/fonts and come first.
test('charts are drawn with the DejaVu files shipped in resources/fonts, with their license beside them', () => {
  const shipped = join(ROOT, 'resources/fonts');
  assert.deepEqual(fontFiles(), { regular: join(shipped, 'DejaVuSans.ttf'), bold: join(shipped, 'DejaVuSans-Bold.ttf') });
  assert.ok(existsSync(join(shipped, 'LICENSE')));
});

test('a bundle laid out like dist/ (resources/ beside it) finds the shipped fonts', async () => {
  const dir = join(ROOT, '.tmp', `render-fonts-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    symlinkSync(join(ROOT, 'resources'), join(dir, 'resources'));
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, `import { fontFiles } from ${JSON.stringify(join(ROOT, 'src/notify/render/font.ts'))}; console.log(JSON.stringify(fontFiles()));`);
    await build({ entryPoints: [{ in: entry, out: 'main' }], outdir: join(dir, 'dist'), bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' });
    const run = runNode([join(dir, 'dist', 'main.js')]);
    assert.equal(run.status, 0, run.stderr);
    const files = JSON.parse(run.stdout);
    assert.deepEqual(files, { regular: join(dir, 'resources/fonts/DejaVuSans.ttf'), bold: join(dir, 'resources/fonts/DejaVuSans-Bold.ttf') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
