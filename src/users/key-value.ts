// The user key-value store (/api/user-key-value): JSON values a user's own clients keep per namespace and key —
// dismissed banners, acknowledgements, small preferences. Each user sees only their own; a value may expire.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest } from '../http/errors.js';
import { nowIso, parseJson } from '../appdb/portable.js';

/** The longest value kept (its JSON text), so the store stays a store of small things. */
export const MAX_VALUE_CHARS = 64 * 1024;

function live(now: string) {
  return (eb: any) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);
}

export async function getValue(ctx: AppContext, caller: Caller, namespace: string, key: string): Promise<unknown> {
  const row = await ctx.db
    .selectFrom('user_key_value')
    .select('value')
    .where('user_id', '=', caller.user.id)
    .where('namespace', '=', namespace)
    .where('key', '=', key)
    .where(live(nowIso()))
    .executeTakeFirst();
  return row ? parseJson<unknown>(row.value, null) : null;
}

export async function namespaceValues(ctx: AppContext, caller: Caller, namespace: string): Promise<Record<string, unknown>> {
  const rows = await ctx.db
    .selectFrom('user_key_value')
    .select(['key', 'value'])
    .where('user_id', '=', caller.user.id)
    .where('namespace', '=', namespace)
    .where(live(nowIso()))
    .orderBy('key')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.key, parseJson<unknown>(r.value, null)]));
}

export async function putValue(ctx: AppContext, caller: Caller, namespace: string, key: string, value: unknown, expiresAt: string | null): Promise<unknown> {
  const text = JSON.stringify(value ?? null);
  if (text.length > MAX_VALUE_CHARS) throw badRequest(`The value may be at most ${MAX_VALUE_CHARS} characters of JSON.`);
  const now = nowIso();
  const write = () =>
    ctx.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('user_key_value')
        .select('id')
        .where('user_id', '=', caller.user.id)
        .where('namespace', '=', namespace)
        .where('key', '=', key)
        .executeTakeFirst();
      if (existing) {
        await trx.updateTable('user_key_value').set({ value: text, expires_at: expiresAt, updated_at: now }).where('id', '=', existing.id).execute();
      } else {
        await trx
          .insertInto('user_key_value')
          .values({ user_id: caller.user.id, namespace, key, value: text, expires_at: expiresAt, created_at: now, updated_at: now })
          .execute();
      }
    });
  try {
    await write();
  } catch {
    // two first writes of the same key at once: the unique index let one in; this one is now an update
    await write();
  }
  return value ?? null;
}

export async function deleteValue(ctx: AppContext, caller: Caller, namespace: string, key: string): Promise<void> {
  await ctx.db.deleteFrom('user_key_value').where('user_id', '=', caller.user.id).where('namespace', '=', namespace).where('key', '=', key).execute();
}
