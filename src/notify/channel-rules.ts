// What a caller may do with an alert's channels, one rule for /api/alert and /api/notification alike:
//   - webhook channels (`channel/http`, /api/channel) are admin-only, as in Metabase: a non-admin neither sees a
//     channel's details (its auth-info holds tokens and passwords) nor attaches one to an alert (403);
//   - a non-admin (no advanced permissions here) may only alert themselves: one email channel whose one recipient is
//     the caller (Metabase's 403 message).

import type { Caller } from '../http/caller.js';
import { forbidden } from '../http/errors.js';
import type { ChannelInput } from './write.js';

export const NO_CHANNEL_CHANGES = 'Non-admin users without monitoring or subscription permissions are not allowed to modify the channels for an alert';

/** Called before a webhook channel is looked up, so a non-admin learns nothing about which channels exist. */
export function checkMayUseWebhooks(caller: Caller | null): void {
  if (caller && !caller.isSuperuser) throw forbidden();
}

/** A non-admin's alert channels: exactly themselves, by email. */
export function checkOwnRecipientsOnly(caller: Caller, channels: Array<Pick<ChannelInput, 'channel_type' | 'recipients'>>): void {
  if (caller.isSuperuser) return;
  const onlyMe = channels.every((c) => c.channel_type === 'email' && c.recipients.emails.length === 0 && c.recipients.userIds.length === 1 && c.recipients.userIds[0] === caller.user.id);
  if (channels.length > 1 || !onlyMe) throw forbidden(NO_CHANNEL_CHANGES);
}

/** A webhook channel as a caller may see it: its details (auth-info: secrets) for admins only. */
export function channelShownTo<T extends { details: unknown }>(caller: Caller, channel: T): T | Omit<T, 'details'> {
  if (caller.isSuperuser) return channel;
  const { details: _hidden, ...rest } = channel;
  return rest;
}
