// GET /api/user/current: the caller's own row plus derived facts (personal collection, first login, whether a second
// user exists) and what other modules add (src/users/current-user-extras.ts). The web app calls it on every page
// load, so the answer is kept per user for as long as the caller itself is cached (a second), in two parts:
// - the user's own facts: cleared at once by any change to users, groups or sessions on this instance (the caller
//   cache's invalidation), and per user by a login or a dismissed modal (userRowChanged);
// - other modules' facts (has_question_and_dashboard, has_model): cleared by any write request here, as a new card or
//   dashboard may change them.
// A change on another instance is seen at most a second late.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { CALLER_TTL_MS, onCallerChange, onUserRowChange } from '../http/auth.js';
import { onLocalChange, PerContextCache } from '../http/short-cache.js';
import { nowIso } from '../appdb/portable.js';
import { fullUserJson } from './user-json.js';
import { currentUserExtras } from './current-user-extras.js';

const ownFacts = new PerContextCache<Record<string, unknown>>(CALLER_TTL_MS);
const otherFacts = new PerContextCache<Record<string, unknown>>(CALLER_TTL_MS);
onCallerChange(() => {
  ownFacts.clearAll();
  otherFacts.clearAll();
});
onLocalChange(() => otherFacts.clearAll());
onUserRowChange((userId) => ownFacts.deleteAll(String(userId)));

async function loadOwnFacts(ctx: AppContext, caller: Caller): Promise<Record<string, unknown>> {
  // One query for the row and its derived facts.
  const row = await ctx.db
    .selectFrom('core_user')
    .selectAll('core_user')
    .select((eb) => [
      eb.selectFrom('collection').select('collection.id').whereRef('collection.personal_owner_id', '=', 'core_user.id').limit(1).as('personal_collection_id'),
      eb.selectFrom('login_history').select((e) => e.fn.min('login_history.timestamp').as('t')).whereRef('login_history.user_id', '=', 'core_user.id').as('first_login'),
      eb.selectFrom('core_user as other').select('other.id').where('other.type', '=', 'personal').whereRef('other.id', '!=', 'core_user.id').limit(1).as('other_user_id'),
    ])
    .where('core_user.id', '=', caller.user.id)
    .executeTakeFirst();
  if (!row) throw notFound(); // any caller, including the hidden user behind an API key
  return {
    ...fullUserJson(row),
    personal_collection_id: row.personal_collection_id ?? null,
    group_ids: caller.groupIds,
    is_installer: row.id === 1,
    has_invited_second_user: row.id === 1 && row.other_user_id !== null,
    first_login: row.first_login ?? nowIso(),
    has_question_and_dashboard: false,
    has_model: false,
    custom_homepage: null,
  };
}

export async function currentUser(ctx: AppContext, caller: Caller): Promise<Record<string, unknown>> {
  // Keyed by user: the caller's groups and superuser flag are the user's, and the caches are cleared together.
  const key = String(caller.user.id);
  const [own, others] = await Promise.all([
    ownFacts.of(ctx).get(key, () => loadOwnFacts(ctx, caller)),
    otherFacts.of(ctx).get(key, () => currentUserExtras(ctx, caller)),
  ]);
  return { ...own, ...others };
}
