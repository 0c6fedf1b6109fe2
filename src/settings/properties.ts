// GET /api/session/properties: every setting the caller may read, as one flat object keyed by setting name.
// Sensitive settings (secrets: the embedding key, the SMTP password, the premium token) are never in it, not even
// for admins — as in Metabase; admins read them, obfuscated, from GET /api/setting.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { allSettings, visibleTo, type Visibility } from './definition.js';

export function callerVisibility(caller: Caller | null): Visibility {
  if (!caller) return 'public';
  return caller.isSuperuser ? 'admin' : 'authenticated';
}

export async function sessionProperties(ctx: AppContext, caller: Caller | null): Promise<Record<string, unknown>> {
  const level = callerVisibility(caller);
  const definitions = allSettings().filter((d) => d.visibility !== 'internal' && !d.sensitive && visibleTo(d.visibility, level));
  const values = await Promise.all(definitions.map((d) => ctx.settings.valueOf(d, caller)));
  const out: Record<string, unknown> = {};
  definitions.forEach((d, i) => {
    out[d.key] = values[i] ?? null;
  });
  return out;
}
