// What a persisted schema is named after and records about its owner: this instance's site UUID and name.

import type { AppContext } from '../context.js';
import type { CacheInfo } from './ddl.js';

export async function siteUuid(ctx: AppContext): Promise<string> {
  return (await ctx.settings.getString('site-uuid')) ?? '';
}

export async function cacheInfo(ctx: AppContext): Promise<CacheInfo> {
  return { instanceUuid: await siteUuid(ctx), instanceName: (await ctx.settings.getString('site-name')) ?? 'Quarry' };
}
