import type { AppContext } from '../context.js';

let setupDone = new WeakMap<AppContext, boolean>();

/** True once any real (non-API-key) user exists. Cached once true: users are never hard-deleted. */
export async function hasUserSetup(ctx: AppContext): Promise<boolean> {
  if (setupDone.get(ctx)) return true;
  const row = await ctx.db.selectFrom('core_user').select('id').where('type', '=', 'personal').limit(1).executeTakeFirst();
  if (row) setupDone.set(ctx, true);
  return Boolean(row);
}

export function forgetSetupState(): void {
  setupDone = new WeakMap();
}
