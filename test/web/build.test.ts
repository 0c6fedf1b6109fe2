// The web app's build: its TypeScript checks (Vite doesn't type-check), and its first download stays within the
// budget — the entry script and the modules index.html preloads, gzipped, under 400 KB (the pages, ECharts and
// CodeMirror load on demand).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { ensureWebBuilt, ROOT } from './browser.js';

const BUDGET_BYTES = 400 * 1024;

/** The scripts the first page load fetches before the app runs: the entry and what index.html preloads. */
function initialScripts(): string[] {
  const html = readFileSync(join(ROOT, 'dist/web/index.html'), 'utf8');
  const entry = [...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
  return [...entry, ...preloads];
}

function gzippedSize(urlPath: string): number {
  const file = join(ROOT, 'dist/web', urlPath);
  try {
    return statSync(file + '.gz').size;
  } catch {
    return gzipSync(readFileSync(file), { level: 9 }).length;
  }
}

before(() => ensureWebBuilt());

test('the web app type-checks (tsc -p web)', () => {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(ROOT, 'web')], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test('the initial JavaScript is under 400 KB gzipped, and ECharts is not part of it', () => {
  const scripts = initialScripts();
  assert.ok(scripts.length > 0, 'index.html names its entry script');
  const total = scripts.reduce((sum, path) => sum + gzippedSize(path), 0);
  console.log(`initial JavaScript: ${scripts.length} files, ${(total / 1024).toFixed(1)} KB gzipped`);
  assert.ok(total < BUDGET_BYTES, `${total} bytes gzipped`);
  for (const path of scripts) assert.doesNotMatch(readFileSync(join(ROOT, 'dist/web', path), 'utf8'), /echarts\/lib|ECharts/, `${path} holds ECharts`);
});

test('CodeMirror (the SQL editor) is not part of the initial JavaScript; it is a chunk of its own', () => {
  for (const path of initialScripts()) assert.doesNotMatch(readFileSync(join(ROOT, 'dist/web', path), 'utf8'), /cm-scroller/, `${path} holds CodeMirror`);
  const chunk = readdirSync(join(ROOT, 'dist/web/assets')).find((name) => /^SqlEditor-.*\.js$/.test(name));
  assert.ok(chunk, 'the SQL editor has its own chunk');
  console.log(`SQL editor chunk: ${(gzippedSize(`/assets/${chunk}`) / 1024).toFixed(1)} KB gzipped`);
});
