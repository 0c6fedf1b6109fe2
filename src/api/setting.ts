// /api/setting

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { adminSettingsList, readSetting } from '../settings/admin-list.js';

export function settingRoutes(r: Routes) {
  r.get('/api/setting', {}, ({ ctx, caller }) => adminSettingsList(ctx, caller));

  r.get('/api/setting/:key', { params: { key: s.nbstr() } }, ({ ctx, caller, params }) => readSetting(ctx, caller, params.key));

  r.put('/api/setting/:key', { params: { key: s.nbstr() } }, async ({ ctx, caller, params, body }) => {
    const value = body && typeof body === 'object' && 'value' in body ? (body as { value: unknown }).value : null;
    await ctx.settings.set(params.key, value, caller);
  });

  r.put('/api/setting', {}, async ({ ctx, caller, request }) => {
    const updates = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
    // Apply all or nothing: check every key first (a bad one fails before any is written).
    await ctx.settings.setMany(updates, caller);
  });
}
