// The result cache's settings (reference §10.2, B7). `query-caching-ttl-ratio` and `query-caching-min-ttl` are the
// pre-0.50 switches Metabase still lists; policies (src/cache/configs.ts) are what decide now.

import { defineSetting } from '../settings/definition.js';
import { messageError } from '../http/errors.js';
import type { AppContext } from '../context.js';

/** Metabase refuses bigger per-entry caps. */
const MAX_ENTRY_KB = 204800;
/** Metabase 0.50+'s defaults (0.49 and before: 1000 KB and 100 days). */
const DEFAULT_ENTRY_KB = 2000;
const DEFAULT_MAX_TTL_SECONDS = 35 * 24 * 3600;

defineSetting({ key: 'enable-query-caching', type: 'boolean', visibility: 'authenticated', default: true, description: 'Allow caching results of queries that take a long time to run.' });
defineSetting({ key: 'query-caching-ttl-ratio', type: 'integer', visibility: 'admin', default: 10, range: { min: 'positive' }, description: 'To determine how long each saved question’s cached result should stick around, we take the query’s average execution time and multiply that by whatever you input here.' });
defineSetting({ key: 'query-caching-min-ttl', type: 'double', visibility: 'admin', default: 60.0, range: { min: 0 }, description: 'Metabase will cache all saved questions with an average query execution time longer than this many seconds.' });
defineSetting({
  key: 'query-caching-max-kb',
  type: 'integer',
  visibility: 'admin',
  default: DEFAULT_ENTRY_KB,
  range: { min: 'positive' },
  description: 'The maximum size of the cache, per saved question, in kilobytes.',
  validate: (value) => {
    if (typeof value === 'number' && value > MAX_ENTRY_KB) {
      throw messageError(400, `Failed setting \`query-caching-max-kb\` to ${value}. Values greater than ${MAX_ENTRY_KB} (${(MAX_ENTRY_KB / 1024).toFixed(1)} MB) are not allowed.`);
    }
    return value;
  },
});
defineSetting({ key: 'query-caching-max-ttl', type: 'double', visibility: 'admin', default: DEFAULT_MAX_TTL_SECONDS, range: { min: 'positive' }, description: 'The absolute maximum time to keep any cached query results, in seconds.' });
defineSetting({
  key: 'query-caching-max-total-kb',
  type: 'integer',
  visibility: 'admin',
  default: 512 * 1024,
  range: { min: 'positive' },
  description: 'The maximum size of all cached query results together, in kilobytes; the oldest are dropped first. (Quarry)',
});

/** The per-entry cap in bytes. */
export async function maxEntryBytes(ctx: AppContext): Promise<number> {
  return ((await ctx.settings.getNumber('query-caching-max-kb')) ?? DEFAULT_ENTRY_KB) * 1024;
}
