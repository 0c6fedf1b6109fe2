// Transpiles src/ to dist/ file by file (no bundling): native drivers stay external and start-up stays fast.
import { build } from 'esbuild';
import { readdirSync, statSync, rmSync, cpSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(root, 'src');
const outDir = join(root, 'dist');

function listFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

rmSync(outDir, { recursive: true, force: true });
await build({
  entryPoints: listFiles(srcDir),
  outdir: outDir,
  outbase: srcDir,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
// Plain data files (word lists, address lists) are copied beside the code that reads them.
const assets = join(srcDir, 'assets');
if (existsSync(assets)) cpSync(assets, join(outDir, 'assets'), { recursive: true });
