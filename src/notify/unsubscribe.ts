// Leaving a subscription or an alert.
//   - A user: DELETE /api/pulse/:id/subscription (or /api/alert/…, POST /api/notification/:id/unsubscribe) removes
//     them from its email channel. A channel left with nobody is deleted; a pulse left with no channel is archived.
//   - A raw address (someone without an account) follows the link in the mail: POST /api/pulse/unsubscribe with
//     {email, hash, pulse-id}, and /undo. The hash is an HMAC-SHA256 of the address and the pulse id under a key
//     made once per install (setting `site-uuid-for-unsubscribing-url`), so a link can't be forged for another
//     address or pulse; wrong hashes are throttled per client address.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../http/errors.js';
import { nowIso, parseJson, toJson } from '../appdb/portable.js';
import { defineSetting } from '../settings/definition.js';
import { checkThrottle, recordAttempt, type Throttler } from '../users/throttle.js';
import { rescheduleJobs } from '../tasks/scheduler.js';
import { channelEmails, findPulse, type LoadedPulse } from './store.js';

const UNSUBSCRIBE_KEY = 'site-uuid-for-unsubscribing-url';
defineSetting({ key: UNSUBSCRIBE_KEY, type: 'string', visibility: 'internal', readOnly: true, description: 'The key that signs the unsubscribe links of emails sent to addresses without an account.' });

const UNSUBSCRIBE_BY_IP: Throttler = { prefix: 'unsubscribe-ip', threshold: 50, field: 'hash', status: 400 };

async function hashKey(ctx: AppContext): Promise<string> {
  const key = await ctx.settings.getString(UNSUBSCRIBE_KEY);
  if (!key) throw new Error('The unsubscribe key is missing (migration 0081 makes it).');
  return key;
}

export async function unsubscribeHash(ctx: AppContext, email: string, pulseId: number): Promise<string> {
  return createHmac('sha256', await hashKey(ctx)).update(JSON.stringify({ email: email.toLowerCase(), 'pulse-id': pulseId })).digest('hex');
}

/** The link a raw address gets in its mail. */
export async function unsubscribeUrl(ctx: AppContext, siteUrl: string, email: string, pulseId: number): Promise<string> {
  const params = new URLSearchParams({ hash: await unsubscribeHash(ctx, email, pulseId), email, 'pulse-id': String(pulseId) });
  return `${siteUrl}/unsubscribe?${params.toString()}`;
}

async function checkHash(ctx: AppContext, ip: string | null, email: string, pulseId: number, hash: string): Promise<void> {
  await checkThrottle(ctx, UNSUBSCRIBE_BY_IP, ip);
  const expected = Buffer.from(await unsubscribeHash(ctx, email, pulseId), 'utf8');
  const given = Buffer.from(hash, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await recordAttempt(ctx, UNSUBSCRIBE_BY_IP, ip);
    throw badRequest('Invalid hash.');
  }
}

/** POST /api/pulse/unsubscribe (`undo: false`) and …/undo (`undo: true`). */
export async function unsubscribeEmail(ctx: AppContext, ip: string | null, input: { email: string; hash: string; pulseId: number }, undo: boolean) {
  await checkHash(ctx, ip, input.email, input.pulseId, input.hash);
  const loaded = await findPulse(ctx.db, input.pulseId);
  const channel = loaded?.channels.find((c) => c.channel_type === 'email');
  if (!loaded || !channel) throw notFound();
  const emails = channelEmails(channel);
  const has = emails.some((e) => e.toLowerCase() === input.email.toLowerCase());
  if (!undo && !has) throw badRequest("Email for pulse-id doesn't exist.");
  if (undo && has) throw badRequest('Email for pulse-id already exists.');
  const next = undo ? [...emails, input.email] : emails.filter((e) => e.toLowerCase() !== input.email.toLowerCase());
  const details = { ...parseJson<Record<string, unknown>>(channel.details, {}), emails: next };
  await ctx.db.updateTable('pulse_channel').set({ details: toJson(details)!, updated_at: nowIso() }).where('id', '=', channel.id).execute();
  return { status: 'success', title: loaded.pulse.name ?? '' };
}

/**
 * Removes a user from a pulse's email channel (404 when they aren't on it). A channel left with no user and no
 * address is deleted, and a pulse left with no channel is archived.
 */
export async function removeRecipient(ctx: AppContext, loaded: LoadedPulse, userId: number): Promise<void> {
  const channel = loaded.channels.find((c) => c.channel_type === 'email' && c.userIds.includes(userId));
  if (!channel) throw notFound();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('pulse_channel_recipient').where('pulse_channel_id', '=', channel.id).where('user_id', '=', userId).execute();
    if (channel.userIds.length === 1 && channelEmails(channel).length === 0) {
      await trx.deleteFrom('pulse_channel').where('id', '=', channel.id).execute();
      if (loaded.channels.length === 1) await trx.updateTable('pulse').set({ archived: true, updated_at: nowIso() }).where('id', '=', loaded.pulse.id).execute();
    }
  });
  await rescheduleJobs(ctx);
}
