// /api/notification (Metabase 0.54+, reference §14.3) over the alerts' own rows, so an alert made either way is seen
// and changed both ways. A card notification is an alert: `payload.send_condition` has_result | goal_above |
// goal_below is its condition, `send_once` its first-only flag, `active` the opposite of archived; each handler is a
// channel (`channel/email` with user and raw-value recipients, `channel/slack` with the channel as a raw value,
// `channel/http` with its channel_id); its cron subscription is every channel's schedule (a cron a schedule map can
// say is stored as one, any other cron as it is). Dashboard and system-event notifications are not served here.
//
// Rules: reading takes read access to the card and being an admin, the creator or a recipient; creating takes read
// access to the card; changing takes being an admin or the creator; unsubscribing, being a recipient.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, badRequest, fieldError, forbidden, notFound } from '../http/errors.js';
import { bool, nowIso } from '../appdb/portable.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { cardsByIds, requireCard, type CardRow } from '../cards/store.js';
import { limitedUserJson, userInfoJson, type UserRow } from '../users/user-json.js';
import { rescheduleJobs } from '../tasks/scheduler.js';
import { parseRecipients } from './recipients.js';
import { channelCron, checkCron, normalizeSchedule, scheduleOfCron } from './schedule.js';
import { channelDetails, channelEmails, findPulse, isAlert, isRecipient, loadPulses, type LoadedPulse } from './store.js';
import { alertValues, insertPulse, notificationCard, writeCards, writeChannels, type ChannelInput, type ChannelType } from './write.js';
import { unsavedPulse } from './unsaved.js';
import { removeRecipient } from './unsubscribe.js';
import { alertCreatedMails, alertRecipientsChangedMails, youUnsubscribedMail } from './alert-mail.js';
import { sendPulse } from './send/send-pulse.js';
import { channelDetailsOf } from './channels.js';
import { channelShownTo, checkMayUseWebhooks, checkOwnRecipientsOnly } from './channel-rules.js';

type Obj = Record<string, unknown>;

export const PAYLOAD_TYPES = ['notification/card', 'notification/dashboard', 'notification/system-event'] as const;
const CONDITIONS: Record<string, { condition: 'rows' | 'goal'; above: boolean | null }> = {
  has_result: { condition: 'rows', above: null },
  goal_above: { condition: 'goal', above: true },
  goal_below: { condition: 'goal', above: false },
};

function sendCondition(loaded: LoadedPulse): string {
  if (loaded.pulse.alert_condition !== 'goal') return 'has_result';
  return loaded.pulse.alert_above_goal === null || bool(loaded.pulse.alert_above_goal) ? 'goal_above' : 'goal_below';
}

// ----- reading ----------------------------------------------------------------------------------------------------

interface Hydration {
  users: Map<number, UserRow>;
  cards: Map<number, CardRow>;
  channels: Map<number, Obj>;
}

async function hydrate(ctx: AppContext, caller: Caller, list: LoadedPulse[]): Promise<Hydration> {
  const userIds = new Set<number>();
  const channelIds = new Set<number>();
  for (const n of list) {
    userIds.add(n.pulse.creator_id);
    for (const c of n.channels) {
      c.userIds.forEach((u) => userIds.add(u));
      if (c.channel_id !== null) channelIds.add(c.channel_id);
    }
  }
  const [users, cards, channels] = await Promise.all([
    userIds.size ? ctx.db.selectFrom('core_user').selectAll().where('id', 'in', [...userIds]).execute() : [],
    cardsByIds(ctx.db, list.map((n) => n.cards[0]?.card_id).filter((id): id is number => id !== undefined)),
    channelIds.size ? ctx.db.selectFrom('channel').selectAll().where('id', 'in', [...channelIds]).execute() : [],
  ]);
  return {
    users: new Map(users.map((u) => [u.id, u])),
    cards,
    channels: new Map(channels.map((c) => [c.id, channelShownTo(caller, { id: c.id, name: c.name, description: c.description, type: c.type, details: channelDetailsOf(ctx, c), active: bool(c.active), created_at: c.created_at, updated_at: c.updated_at })])),
  };
}

function notificationJson(loaded: LoadedPulse, h: Hydration): Obj {
  const p = loaded.pulse;
  const cardId = loaded.cards[0]?.card_id ?? null;
  const card = cardId === null ? undefined : h.cards.get(cardId);
  const creator = h.users.get(p.creator_id);
  const crons = [...new Set(loaded.channels.map((c) => channelCron(c)).filter((c): c is string => c !== null))];
  return {
    id: p.id,
    payload_type: 'notification/card',
    payload_id: p.id,
    payload: {
      id: p.id,
      card_id: cardId,
      card: card ? { id: card.id, name: card.name, description: card.description, display: card.display, collection_id: card.collection_id, archived: bool(card.archived) } : null,
      send_condition: sendCondition(loaded),
      send_once: bool(p.alert_first_only),
      created_at: p.created_at,
      updated_at: p.updated_at,
    },
    active: !bool(p.archived),
    creator_id: p.creator_id,
    creator: creator ? userInfoJson(creator) : null,
    handlers: loaded.channels.map((c) => ({
      id: c.id,
      notification_id: p.id,
      channel_type: `channel/${c.channel_type}`,
      channel_id: c.channel_id,
      channel: c.channel_id === null ? null : h.channels.get(c.channel_id) ?? null,
      template_id: null,
      template: null,
      active: bool(c.enabled),
      recipients:
        c.channel_type === 'slack'
          ? [{ type: 'notification-recipient/raw-value', details: { value: String(channelDetails(c).channel ?? '') } }]
          : [
              ...c.userIds.map((userId) => {
                const user = h.users.get(userId);
                return { type: 'notification-recipient/user', user_id: userId, permissions_group_id: null, details: null, notification_handler_id: c.id, user: user ? limitedUserJson(user) : null };
              }),
              ...channelEmails(c).map((value) => ({ type: 'notification-recipient/raw-value', details: { value }, notification_handler_id: c.id })),
            ],
      created_at: c.created_at,
      updated_at: c.updated_at,
    })),
    subscriptions: crons.map((cron) => {
      const first = loaded.channels.find((c) => channelCron(c) === cron)!;
      return { id: first.id, notification_id: p.id, type: 'notification-subscription/cron', cron_schedule: cron, ui_display_type: first.cron_schedule ? 'cron/raw' : 'cron/builder', created_at: first.created_at, updated_at: first.updated_at };
    }),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

function canRead(caller: Caller, access: CollectionAccess, loaded: LoadedPulse, cards: Map<number, CardRow>): boolean {
  const card = cards.get(loaded.cards[0]?.card_id ?? -1);
  if (!card || !access.canRead(card.collection_id)) return false;
  return caller.isSuperuser || loaded.pulse.creator_id === caller.user.id || isRecipient(loaded, caller.user.id);
}

async function requireNotification(ctx: AppContext, id: number): Promise<LoadedPulse> {
  const loaded = await findPulse(ctx.db, id);
  if (!loaded || !isAlert(loaded.pulse)) throw notFound();
  return loaded;
}

export interface NotificationFilter {
  creator_id: number | null;
  recipient_id: number | null;
  creator_or_recipient_id: number | null;
  card_id: number | null;
  include_inactive: boolean;
  payload_type: string | null;
}

function recipientOf(ctx: AppContext, userId: number) {
  return ctx.db.selectFrom('pulse_channel').innerJoin('pulse_channel_recipient', 'pulse_channel_recipient.pulse_channel_id', 'pulse_channel.id').select('pulse_channel.pulse_id').where('pulse_channel_recipient.user_id', '=', userId);
}

export async function listNotifications(ctx: AppContext, caller: Caller, f: NotificationFilter) {
  if (f.payload_type !== null && f.payload_type !== 'notification/card') return [];
  let query = ctx.db.selectFrom('pulse').select('pulse.id').where('pulse.alert_condition', 'is not', null);
  if (!f.include_inactive) query = query.where('pulse.archived', '=', false);
  if (f.creator_id !== null) query = query.where('pulse.creator_id', '=', f.creator_id);
  if (f.recipient_id !== null) query = query.where('pulse.id', 'in', recipientOf(ctx, f.recipient_id));
  if (f.creator_or_recipient_id !== null) {
    const who = f.creator_or_recipient_id;
    query = query.where((eb) => eb.or([eb('pulse.creator_id', '=', who), eb('pulse.id', 'in', recipientOf(ctx, who))]));
  }
  if (f.card_id !== null) query = query.where('pulse.id', 'in', ctx.db.selectFrom('pulse_card').select('pulse_id').where('card_id', '=', f.card_id));
  const loaded = await loadPulses(ctx.db, (await query.orderBy('pulse.id').execute()).map((r) => r.id));
  const access = await collectionAccess(ctx, caller);
  const h = await hydrate(ctx, caller, loaded);
  return loaded.filter((n) => canRead(caller, access, n, h.cards)).map((n) => notificationJson(n, h));
}

export async function getNotification(ctx: AppContext, caller: Caller, id: number) {
  const loaded = await requireNotification(ctx, id);
  const h = await hydrate(ctx, caller, [loaded]);
  if (!canRead(caller, await collectionAccess(ctx, caller), loaded, h.cards)) throw forbidden();
  return notificationJson(loaded, h);
}

async function notificationById(ctx: AppContext, caller: Caller, id: number) {
  const loaded = await loadPulses(ctx.db, [id]);
  return notificationJson(loaded[0], await hydrate(ctx, caller, loaded));
}

// ----- writing ----------------------------------------------------------------------------------------------------

export interface NotificationBody {
  payload_type: string;
  payload: Obj;
  handlers: Obj[];
  subscriptions: Obj[] | null;
  active?: boolean | null;
}

function checkPayloadType(type: string): void {
  if (type !== 'notification/card') {
    throw badRequest(`Quarry serves card notifications (alerts) through /api/notification; ${type} notifications are not supported (dashboard subscriptions are /api/pulse).`);
  }
}

function parsePayload(payload: Obj): { cardId: number; condition: 'rows' | 'goal'; above: boolean | null; sendOnce: boolean } {
  const cardId = payload.card_id;
  if (!Number.isInteger(cardId) || (cardId as number) <= 0) throw fieldError('payload', 'card_id must be an integer greater than zero.');
  const condition = CONDITIONS[String(payload.send_condition ?? 'has_result')];
  if (!condition) throw fieldError('payload', 'send_condition must be one of has_result, goal_above, goal_below.');
  if (payload.send_once !== undefined && payload.send_once !== null && typeof payload.send_once !== 'boolean') throw fieldError('payload', 'send_once must be a boolean.');
  return { cardId: cardId as number, condition: condition.condition, above: condition.above, sendOnce: payload.send_once === true };
}

/** The one cron of the subscriptions (none: the handlers keep no schedule and only send when asked). */
function parseSubscriptions(subscriptions: Obj[] | null): string | null {
  const list = subscriptions ?? [];
  if (list.length > 1) throw fieldError('subscriptions', 'A notification has at most one schedule here: every handler sends on it.');
  if (!list.length) return null;
  const s = list[0];
  if (s.type !== undefined && s.type !== 'notification-subscription/cron') throw fieldError('subscriptions', 'type must be notification-subscription/cron.');
  return checkCron(s.cron_schedule, 'subscriptions');
}

const HANDLER_TYPES: Record<string, ChannelType> = { 'channel/email': 'email', 'channel/slack': 'slack', 'channel/http': 'http' };

async function parseHandlers(ctx: AppContext, caller: Caller, handlers: Obj[], cron: string | null, existingIds: Set<number>): Promise<ChannelInput[]> {
  const mapped = cron ? scheduleOfCron(cron) : null;
  const out: ChannelInput[] = [];
  for (const handler of handlers) {
    const type = HANDLER_TYPES[String(handler.channel_type)];
    if (!type) throw fieldError('handlers', 'channel_type must be one of channel/email, channel/slack, channel/http.');
    const recipients = Array.isArray(handler.recipients) ? (handler.recipients as Obj[]) : [];
    const id = Number.isInteger(handler.id) && existingIds.has(handler.id as number) ? (handler.id as number) : null;
    let details: Obj = {};
    let channelId: number | null = null;
    let people = { userIds: [] as number[], emails: [] as string[] };
    if (type === 'email') {
      people = await parseRecipients(
        ctx,
        recipients.map((r) => (r.type === 'notification-recipient/user' ? { id: r.user_id } : r.type === 'notification-recipient/raw-value' ? { email: (r.details as Obj | undefined)?.value } : { invalid: true })),
        'handlers',
      );
    } else if (type === 'slack') {
      const channel = (recipients[0]?.details as Obj | undefined)?.value;
      if (typeof channel !== 'string' || !channel.trim()) throw fieldError('handlers', 'A Slack handler needs one raw-value recipient naming the channel.');
      details = { channel };
    } else {
      checkMayUseWebhooks(caller);
      channelId = handler.channel_id as number;
      if (!Number.isInteger(channelId)) throw fieldError('handlers', 'A channel/http handler needs a channel_id.');
      const row = await ctx.db.selectFrom('channel').select(['id', 'active']).where('id', '=', channelId).executeTakeFirst();
      if (!row) throw notFound(`Channel ${channelId} does not exist.`);
      if (!bool(row.active)) throw badRequest(`Channel ${channelId} is not active.`);
    }
    out.push({
      id,
      channel_type: type,
      enabled: handler.active === undefined || handler.active === null ? true : handler.active === true,
      schedule: mapped?.exact ? normalizeSchedule({ ...mapped.schedule }) : null,
      cron_schedule: cron && !mapped?.exact ? cron : null,
      details,
      recipients: people,
      channel_id: channelId,
    });
  }
  return out;
}

function userIdsOf(channels: Array<{ channel_type: string; userIds?: number[]; recipients?: { userIds: number[] } }>): number[] {
  return [...new Set(channels.filter((c) => c.channel_type === 'email').flatMap((c) => c.userIds ?? c.recipients?.userIds ?? []))];
}

export async function createNotification(ctx: AppContext, caller: Caller, body: NotificationBody) {
  checkPayloadType(body.payload_type);
  const payload = parsePayload(body.payload);
  const card = await requireCard(ctx, payload.cardId);
  (await collectionAccess(ctx, caller)).checkRead(card.collection_id);
  const channels = await parseHandlers(ctx, caller, body.handlers, parseSubscriptions(body.subscriptions), new Set());
  checkOwnRecipientsOnly(caller, channels);
  const active = body.active === undefined || body.active === null ? true : body.active;
  const id = await ctx.db.transaction().execute(async (trx) => {
    const pulseId = await insertPulse(trx, ctx, alertValues(caller.user.id, { condition: payload.condition, firstOnly: payload.sendOnce, above: payload.above }));
    await writeCards(trx, pulseId, [notificationCard(card.id, payload.condition)]);
    await writeChannels(trx, ctx, pulseId, channels.map((c) => ({ ...c, enabled: c.enabled && active })));
    if (!active) await trx.updateTable('pulse').set({ archived: true }).where('id', '=', pulseId).execute();
    return pulseId;
  });
  await rescheduleJobs(ctx);
  alertCreatedMails(ctx, caller.user, { cardId: card.id, cardName: card.name }, userIdsOf(channels), { toCreator: false });
  return notificationById(ctx, caller, id);
}

export async function updateNotification(ctx: AppContext, caller: Caller, id: number, body: NotificationBody) {
  const loaded = await requireNotification(ctx, id);
  const access = await collectionAccess(ctx, caller);
  const current = await requireCard(ctx, loaded.cards[0]?.card_id ?? -1);
  access.checkRead(current.collection_id);
  if (!caller.isSuperuser && loaded.pulse.creator_id !== caller.user.id) throw forbidden();
  checkPayloadType(body.payload_type);
  const payload = parsePayload(body.payload);
  let card = current;
  if (payload.cardId !== current.id) {
    card = await requireCard(ctx, payload.cardId);
    access.checkWrite(card.collection_id);
  }
  const channels = await parseHandlers(ctx, caller, body.handlers, parseSubscriptions(body.subscriptions), new Set(loaded.channels.map((c) => c.id)));
  checkOwnRecipientsOnly(caller, channels);
  const active = body.active === undefined || body.active === null ? !bool(loaded.pulse.archived) : body.active;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('pulse')
      .set({ alert_condition: payload.condition, alert_above_goal: payload.above, alert_first_only: payload.sendOnce, archived: !active, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
    await writeCards(trx, id, [notificationCard(card.id, payload.condition)], loaded.cards);
    await writeChannels(trx, ctx, id, channels.map((c) => ({ ...c, enabled: c.enabled && active })), loaded.channels);
  });
  await rescheduleJobs(ctx);
  const before = bool(loaded.pulse.archived) ? [] : userIdsOf(loaded.channels);
  const after = active ? userIdsOf(channels) : [];
  alertRecipientsChangedMails(ctx, caller.user, { cardId: card.id, cardName: card.name }, after.filter((u) => !before.includes(u) && u !== caller.user.id), before.filter((u) => !after.includes(u)));
  return notificationById(ctx, caller, id);
}

/** POST /api/notification/:id/send — now, to all its handlers or those named. */
export async function sendNotificationNow(ctx: AppContext, caller: Caller, id: number, handlerIds: number[] | null): Promise<void> {
  const loaded = await requireNotification(ctx, id);
  const h = await hydrate(ctx, caller, [loaded]);
  if (!canRead(caller, await collectionAccess(ctx, caller), loaded, h.cards)) throw forbidden();
  const channelIds = loaded.channels.map((c) => c.id).filter((c) => !handlerIds || handlerIds.includes(c));
  const outcome = await sendPulse(ctx, loaded, { channelIds, manual: true });
  if (outcome.status === 'skipped') throw badRequest(outcome.reason ?? 'Nothing was sent.');
  if (outcome.failed.length) throw new ApiError(400, { message: `Sending failed: ${outcome.failed.map((f) => f.error).join('; ')}` });
}

/** POST /api/notification/send — an unsaved notification, now, as the caller. */
export async function sendUnsavedNotification(ctx: AppContext, caller: Caller, body: NotificationBody): Promise<void> {
  checkPayloadType(body.payload_type);
  const payload = parsePayload(body.payload);
  const card = await requireCard(ctx, payload.cardId);
  (await collectionAccess(ctx, caller)).checkRead(card.collection_id);
  const channels = await parseHandlers(ctx, caller, body.handlers, parseSubscriptions(body.subscriptions), new Set());
  const loaded = unsavedPulse(alertValues(caller.user.id, { condition: payload.condition, firstOnly: false, above: payload.above }), [notificationCard(card.id, payload.condition)], channels);
  const outcome = await sendPulse(ctx, loaded, { channelIds: loaded.channels.map((c) => c.id), manual: true, sender: caller });
  if (outcome.failed.length) throw new ApiError(400, { message: `Sending failed: ${outcome.failed.map((f) => f.error).join('; ')}` });
}

/** POST /api/notification/:id/unsubscribe — recipients only. */
export async function unsubscribeFromNotification(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const loaded = await requireNotification(ctx, id);
  if (!isRecipient(loaded, caller.user.id)) throw forbidden();
  await removeRecipient(ctx, loaded, caller.user.id);
  const card = (await cardsByIds(ctx.db, [loaded.cards[0]?.card_id ?? -1])).get(loaded.cards[0]?.card_id ?? -1);
  if (card) youUnsubscribedMail(ctx, caller.user.email, { cardId: card.id, cardName: card.name });
}
