// /api/setting

import type { Routes } from '../http/route.js';
import { s, throwBodyNotAMap } from '../http/schema.js';
import { adminSettingsList, readSetting } from '../settings/admin-list.js';

/** `setting.key` is a varchar(254) column (only known settings are written, whose keys are short). */
const KEY_MAX = 254;

export function settingRoutes(r: Routes) {
  r.get('/api/setting', {}, ({ ctx, caller }) => adminSettingsList(ctx, caller));

  r.get('/api/setting/:key', { params: { key: s.nbstr() } }, ({ ctx, caller, params }) => readSetting(ctx, caller, params.key));

  // The body is `{"value": …}`; `{"value": null}` resets the setting. A body without `value` is a 400, not a reset.
  r.put('/api/setting/:key', { params: { key: s.nbstr(undefined, { max: KEY_MAX }) }, body: { value: s.any() } }, async ({ ctx, caller, params, body }) => {
    await ctx.settings.set(params.key, body.value, caller);
  });

  r.put('/api/setting', {}, async ({ ctx, caller, request }) => {
    const updates = request.body;
    if (!updates || typeof updates !== 'object' || Array.isArray(updates)) throwBodyNotAMap(updates);
    // Apply all or nothing: check every key first (a bad one fails before any is written).
    await ctx.settings.setMany(updates as Record<string, unknown>, caller);
  });
}
