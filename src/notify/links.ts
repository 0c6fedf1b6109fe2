// Links in messages point at the site URL (setting `site-url`).

import type { AppContext } from '../context.js';

/** The site URL without a trailing slash ('' when it isn't set: links are then relative). */
export async function siteUrl(ctx: AppContext): Promise<string> {
  return ((await ctx.settings.getString('site-url')) ?? '').replace(/\/+$/, '');
}
