// Bundles src/main.ts into dist/ with esbuild (and the web app into dist/web with Vite, ./build-web.mjs). One bundle
// (split at dynamic imports, so drivers and exporters still load only when used) starts ~35% faster than thousands
// of separate ESM files. Native modules stay external. Data the code needs at run time is imported as TypeScript,
// never read relative to a source file.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceHash, STAMP } from './sources.mjs';
import { buildWeb } from './build-web.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist');

const sources = sourceHash(root);
rmSync(outDir, { recursive: true, force: true });
await build({
  // The server, the render worker (src/notify/render/pool.ts loads dist/render-worker.js beside the main bundle) and the
  // program of the SQLite worker processes (src/drivers/sqlite/workers.ts starts it) and of the PostgreSQL statement
  // thread (src/drivers/postgres/worker-client.ts loads dist/postgres-worker.js).
  entryPoints: {
    main: join(root, 'src/main.ts'),
    'render-worker': join(root, 'src/notify/render/worker.ts'),
    'sqlite-worker': join(root, 'src/drivers/sqlite/worker-main.ts'),
    'postgres-worker': join(root, 'src/drivers/postgres/worker-main.ts'),
  },
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external: ['better-sqlite3', 'better-sqlite3-napi', '@duckdb/*', '@node-rs/*', 'pg-native', 'fxa-common-password-list', '@resvg/resvg-js'],
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __quarryCreateRequire } from 'node:module'; const require = __quarryCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
// The browser app (web/, served by the server from dist/web: src/webapp).
await buildWeb(root);
// What the bundle was built from (`npm start` rebuilds when it differs).
writeFileSync(join(root, STAMP), sources);
