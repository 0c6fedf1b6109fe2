// src/visualization must run unchanged in a browser: it bundles for the browser platform (a Node built-in anywhere
// in its imports fails the build), and the bundle describes a chart.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';

test('src/visualization bundles for the browser and works from the bundle', async () => {
  const root = new URL('../..', import.meta.url).pathname;
  const result = await build({
    entryPoints: [`${root}src/visualization/index.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
  });
  assert.deepEqual(result.errors, []);
  const code = result.outputFiles[0].text;
  assert.doesNotMatch(code, /from ["']node:|require\(["'](fs|path|os|crypto|worker_threads)["']\)/);
  const module = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  const viz = module.describeVisualization(
    { display: 'bar', settings: {}, cols: [{ name: 'c', display_name: 'C', base_type: 'type/Text' }, { name: 'n', display_name: 'N', base_type: 'type/Integer' }], rows: [['a', 1]] },
    { timezone: 'UTC', width: 600 },
  );
  assert.equal(viz.kind, 'chart');
  assert.deepEqual(viz.option.series[0].data, [1]);
});
