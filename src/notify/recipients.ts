// Who a channel goes to: Metabase users (`{id}`; their email as they have it now) and raw addresses (`{email}`,
// kept in the channel's details). A user id that doesn't exist is 404 `User N does not exist.`; an id sent with an
// email that isn't that user's is 403 `Wrong email address for User N.`.

import type { AppContext } from '../context.js';
import { fieldError, forbidden, notFound } from '../http/errors.js';
import { isEmailAddress } from './email/settings.js';

export interface Recipients {
  userIds: number[];
  emails: string[];
}

type Obj = Record<string, unknown>;

export async function parseRecipients(ctx: AppContext, input: unknown, field = 'channels'): Promise<Recipients> {
  if (input === undefined || input === null) return { userIds: [], emails: [] };
  if (!Array.isArray(input)) throw fieldError(field, 'recipients must be a list of {id} users or {email} addresses.');
  const wanted: Array<{ id: number; email: unknown }> = [];
  const emails: string[] = [];
  for (const item of input) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw fieldError(field, 'recipients must be a list of {id} users or {email} addresses.');
    const r = item as Obj;
    if (r.id !== undefined && r.id !== null) {
      if (!Number.isInteger(r.id) || (r.id as number) <= 0) throw fieldError(field, 'A recipient id must be an integer greater than zero.');
      wanted.push({ id: r.id as number, email: r.email });
    } else if (isEmailAddress(r.email)) {
      if (!emails.includes(r.email)) emails.push(r.email);
    } else {
      throw fieldError(field, `Recipient ${JSON.stringify(r.email ?? null)} is not a valid email address.`);
    }
  }
  const ids = [...new Set(wanted.map((w) => w.id))];
  const users = ids.length ? await ctx.db.selectFrom('core_user').select(['id', 'email', 'is_active']).where('id', 'in', ids).execute() : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  for (const w of wanted) {
    const user = byId.get(w.id);
    if (!user) throw notFound(`User ${w.id} does not exist.`);
    if (typeof w.email === 'string' && w.email.toLowerCase() !== user.email.toLowerCase()) throw forbidden(`Wrong email address for User ${w.id}.`);
  }
  return { userIds: ids, emails };
}
