// Builds the browser app (web/) with Vite into dist/web: hashed files under dist/web/assets (served with a long
// cache) and index.html (served for every page of the app's URL space, src/webapp). Each JS/CSS/SVG file also gets a
// .gz twin so the server sends it compressed without compressing per request.
// Run alone (`node scripts/build-web.mjs`) it builds only the web app; `--if-stale` skips the build when the web
// fingerprint (./sources.mjs webSourceHash) matches what dist/web was built from.
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webSourceHash, WEB_STAMP } from './sources.mjs';

const COMPRESSIBLE = /\.(js|css|svg|html|json|map)$/;

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** Builds web/ into dist/web and records its fingerprint. */
export async function buildWeb(root) {
  const outDir = join(root, 'dist/web');
  rmSync(outDir, { recursive: true, force: true });
  const bundled = new Set();
  await build({
    configFile: false,
    root: join(root, 'web'),
    base: '/',
    logLevel: 'warn',
    plugins: [react(), recordSources(root, bundled)],
    // the app imports the chart description from src/visualization (shared with the server's PNG rendering)
    resolve: { alias: { '@quarry-src': join(root, 'src') } },
    build: {
      outDir,
      emptyOutDir: true,
      assetsDir: 'assets',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 1500,
      // React, the router and the component library in one long-cached file rather than a dozen small ones (every
      // page needs them); ECharts, CodeMirror and the pages stay split and load on demand.
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|wouter|@mantine|@floating-ui)[\\/]/ }],
          },
        },
      },
    },
  });
  for (const file of filesUnder(outDir)) {
    if (!COMPRESSIBLE.test(file) || statSync(file).size < 1024) continue;
    writeFileSync(file + '.gz', gzipSync(readFileSync(file), { level: 9 }));
  }
  const srcFiles = [...bundled].sort();
  writeFileSync(join(root, WEB_STAMP), JSON.stringify({ hash: webSourceHash(root, srcFiles), srcFiles }));
}

/** Notes the files of src/ the bundle took in (the chart description and what it imports), for the fingerprint. */
function recordSources(root, out) {
  const src = join(root, 'src') + sep;
  return {
    name: 'quarry-record-sources',
    generateBundle() {
      for (const id of this.getModuleIds()) if (id.startsWith(src)) out.add(relative(root, id));
    },
  };
}

/** True when dist/web is missing or was built from other sources. */
export function webIsStale(root) {
  const stamp = join(root, WEB_STAMP);
  if (!existsSync(join(root, 'dist/web/index.html')) || !existsSync(stamp)) return true;
  const built = JSON.parse(readFileSync(stamp, 'utf8'));
  return built.hash !== webSourceHash(root, built.srcFiles);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  if (!process.argv.includes('--if-stale') || webIsStale(root)) await buildWeb(root);
}
