// Bundles src/main.ts into dist/ with esbuild. One bundle (split at dynamic imports, so drivers and exporters
// still load only when used) starts ~35% faster than thousands of separate ESM files. Native modules stay
// external. Data the code needs at run time is imported as TypeScript, never read relative to a source file.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist');

rmSync(outDir, { recursive: true, force: true });
await build({
  // The render worker (src/notify/render/pool.ts) loads dist/render-worker.js beside the main bundle.
  entryPoints: [{ in: join(root, 'src/main.ts'), out: 'main' }, { in: join(root, 'src/notify/render/worker.ts'), out: 'render-worker' }],
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external: ['better-sqlite3', '@duckdb/*', 'pg-native', 'fxa-common-password-list', '@resvg/resvg-js'],
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __quarryCreateRequire } from 'node:module'; const require = __quarryCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
