// Who runs the queries of shared content. A public link or a signed embed is its own authorization: once the link
// or token has been checked, its card's queries run without data permissions, as Metabase runs them as an admin.
// Likewise the values of a filter on a card or dashboard the caller may read come from its own wired fields without
// asking data permissions (Metabase's "parameter values query"). These identities never come out of authentication;
// only the modules that checked access themselves use them.

import type { Caller } from '../http/caller.js';

/** The identity public links and signed embeds run their parameter-value queries as (user id 0, no groups). */
export const SHARING_CALLER: Caller = Object.freeze({
  kind: 'session',
  user: Object.freeze({ id: 0, email: '', first_name: null, last_name: null, is_superuser: true, locale: null, type: 'internal', settings: {} }),
  isSuperuser: true,
  groupIds: [],
  sessionKeyHashed: null,
}) as Caller;

/** The caller, allowed to read the values of a filter of content it has already been allowed to read. */
export function parameterValuesCaller(caller: Caller): Caller {
  return caller.isSuperuser ? caller : { ...caller, isSuperuser: true };
}
