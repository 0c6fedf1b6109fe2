// Quarry reports a Metabase version so that clients which gate features on it behave; its own version is separate.
import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

export const QUARRY_VERSION = { tag: `v${pkg.version}`, name: 'quarry' } as const;

export const METABASE_COMPATIBLE_VERSION = {
  date: '2025-12-01',
  tag: 'v0.58.0',
  branch: 'release-x.58.x',
  hash: 'quarry',
} as const;
