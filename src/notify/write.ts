// Writing pulses (subscriptions and alerts alike): reading the `channels` and `cards` a client sends into checked
// inputs, and storing them inside the caller's transaction. `cards` given on an update is the whole ordered list;
// `channels` likewise — channels with an id are updated, without one created, the others deleted.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, fieldError, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, toJson, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { parseRecipients, type Recipients } from './recipients.js';
import { normalizeSchedule, scheduleOfCron, type ChannelSchedule } from './schedule.js';
import { channelEmails, type LoadedPulse } from './store.js';
import { checkMayUseWebhooks } from './channel-rules.js';

type Obj = Record<string, unknown>;

export const CHANNEL_TYPES = ['email', 'slack', 'http'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export interface ChannelInput {
  id: number | null;
  channel_type: ChannelType;
  enabled: boolean;
  schedule: ChannelSchedule | null;
  cron_schedule: string | null;
  /** Details without raw addresses (slack: {channel}). */
  details: Obj;
  recipients: Recipients;
  channel_id: number | null;
}

export interface CardRef {
  card_id: number;
  include_csv: boolean;
  include_xls: boolean;
  format_rows: boolean;
  pivot_results: boolean;
  dashboard_card_id: number | null;
}

function isMap(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Checks one channel as sent by /api/pulse or /api/alert (by `caller`; null: the server itself). */
export async function parseChannel(ctx: AppContext, caller: Caller | null, item: Obj, field = 'channels'): Promise<ChannelInput> {
  const type = item.channel_type;
  if (typeof type !== 'string' || !(CHANNEL_TYPES as readonly string[]).includes(type)) throw fieldError(field, `channel_type must be one of ${CHANNEL_TYPES.join(', ')}.`);
  if (item.enabled !== undefined && item.enabled !== null && typeof item.enabled !== 'boolean') throw fieldError(field, 'enabled must be a boolean.');
  if (item.details !== undefined && item.details !== null && !isMap(item.details)) throw fieldError(field, 'details must be a map.');
  const details = { ...((item.details as Obj | null) ?? {}) };
  delete details.emails;
  const id = item.id === undefined || item.id === null ? null : item.id;
  if (id !== null && !(Number.isInteger(id) && (id as number) > 0)) throw fieldError(field, 'A channel id must be an integer greater than zero.');
  let channelId: number | null = null;
  if (type === 'slack' && (typeof details.channel !== 'string' || !details.channel.trim())) throw fieldError(field, 'A Slack channel needs details.channel (e.g. "#general").');
  if (type === 'http') {
    checkMayUseWebhooks(caller);
    // what to post and how to authenticate live in the channel (/api/channel), never in the alert
    for (const key of Object.keys(details)) delete details[key];
    channelId = item.channel_id as number;
    if (!Number.isInteger(channelId) || channelId <= 0) throw fieldError(field, 'A webhook channel needs the channel_id of an active channel (/api/channel).');
    const row = await ctx.db.selectFrom('channel').select(['id', 'active']).where('id', '=', channelId).executeTakeFirst();
    if (!row) throw notFound(`Channel ${channelId} does not exist.`);
    if (!bool(row.active)) throw badRequest(`Channel ${channelId} is not active.`);
  }
  const recipients = type === 'email' ? await parseRecipients(ctx, item.recipients, field) : { userIds: [], emails: [] };
  return {
    id: id as number | null,
    channel_type: type as ChannelType,
    enabled: item.enabled === undefined || item.enabled === null ? true : (item.enabled as boolean),
    schedule: normalizeSchedule(item, field),
    cron_schedule: null,
    details,
    recipients,
    channel_id: channelId,
  };
}

export async function parseChannels(ctx: AppContext, caller: Caller | null, items: Obj[], field = 'channels'): Promise<ChannelInput[]> {
  const out: ChannelInput[] = [];
  for (const item of items) out.push(await parseChannel(ctx, caller, item, field));
  return out;
}

/**
 * The channels of a new pulse: all new, whatever ids they carry (a body copied from a GET has the ids, `pulse_id`
 * and timestamps of another pulse's channels; as in Metabase, only what a new channel may set is kept).
 */
export function asNewChannels(channels: ChannelInput[]): ChannelInput[] {
  return channels.map((c) => ({ ...c, id: null }));
}

/** The card refs of a pulse body: entries without a card (dashboard text cards) are left out. */
export function parseCards(items: Obj[]): CardRef[] {
  return items
    .filter((c) => c.id !== null && c.id !== undefined)
    .map((c) => ({
      card_id: c.id as number,
      include_csv: c.include_csv === true,
      include_xls: c.include_xls === true,
      format_rows: c.format_rows === undefined || c.format_rows === null ? true : c.format_rows === true,
      pivot_results: c.pivot_results === true,
      dashboard_card_id: typeof c.dashboard_card_id === 'number' ? c.dashboard_card_id : null,
    }));
}

export interface PulseValues {
  name: string | null;
  creator_id: number;
  skip_if_empty: boolean;
  alert_condition: string | null;
  alert_first_only: boolean | null;
  alert_above_goal: boolean | null;
  collection_id: number | null;
  collection_position: number | null;
  dashboard_id: number | null;
  parameters: unknown[];
}

/** What an alert's pulse row holds: no name, skipped when empty, no collection or dashboard. */
export function alertValues(creatorId: number, alert: { condition: 'rows' | 'goal'; firstOnly: boolean; above: boolean | null }): PulseValues {
  return {
    name: null,
    creator_id: creatorId,
    skip_if_empty: true,
    alert_condition: alert.condition,
    alert_first_only: alert.firstOnly,
    alert_above_goal: alert.above,
    collection_id: null,
    collection_position: null,
    dashboard_id: null,
    parameters: [],
  };
}

/** The card ref of an alert made through /api/notification (a `rows` alert attaches its results as CSV). */
export function notificationCard(cardId: number, condition: 'rows' | 'goal'): CardRef {
  return { card_id: cardId, include_csv: condition === 'rows', include_xls: false, format_rows: true, pivot_results: false, dashboard_card_id: null };
}

export async function insertPulse(db: Db, ctx: AppContext, values: PulseValues): Promise<number> {
  const now = nowIso();
  const row = {
    entity_id: newEntityId(),
    name: values.name,
    creator_id: values.creator_id,
    skip_if_empty: values.skip_if_empty,
    alert_condition: values.alert_condition,
    alert_first_only: values.alert_first_only,
    alert_above_goal: values.alert_above_goal,
    collection_id: values.collection_id,
    collection_position: values.collection_position,
    archived: false,
    dashboard_id: values.dashboard_id,
    parameters: JSON.stringify(values.parameters ?? []),
    created_at: now,
    updated_at: now,
  };
  return insertReturningId(db, ctx.dialect, 'pulse', row);
}

function sameCards(a: CardRef[], b: LoadedPulse['cards']): boolean {
  return (
    a.length === b.length &&
    a.every((c, i) => {
      const o = b[i];
      return c.card_id === o.card_id && c.dashboard_card_id === o.dashboard_card_id && c.include_csv === bool(o.include_csv) && c.include_xls === bool(o.include_xls) && c.format_rows === bool(o.format_rows) && c.pivot_results === bool(o.pivot_results);
    })
  );
}

/** Makes the pulse's cards exactly `cards`, in that order (nothing is written when they are the same). */
export async function writeCards(db: Db, pulseId: number, cards: CardRef[], existing: LoadedPulse['cards'] = []): Promise<void> {
  if (existing.length && sameCards(cards, existing)) return;
  await db.deleteFrom('pulse_card').where('pulse_id', '=', pulseId).execute();
  if (!cards.length) return;
  await db
    .insertInto('pulse_card')
    .values(cards.map((c, position) => ({ entity_id: newEntityId(), pulse_id: pulseId, card_id: c.card_id, position, include_csv: c.include_csv, include_xls: c.include_xls, format_rows: c.format_rows, pivot_results: c.pivot_results, dashboard_card_id: c.dashboard_card_id })))
    .execute();
}

function channelColumns(channel: ChannelInput) {
  return {
    channel_type: channel.channel_type,
    enabled: channel.enabled,
    schedule_type: channel.schedule?.schedule_type ?? null,
    schedule_hour: channel.schedule?.schedule_hour ?? null,
    schedule_day: channel.schedule?.schedule_day ?? null,
    schedule_frame: channel.schedule?.schedule_frame ?? null,
    cron_schedule: channel.cron_schedule,
    details: toJson(channel.channel_type === 'email' && channel.recipients.emails.length ? { ...channel.details, emails: channel.recipients.emails } : channel.details)!,
    channel_id: channel.channel_id,
  };
}

async function writeRecipients(db: Db, channelId: number, userIds: number[]): Promise<void> {
  await db.deleteFrom('pulse_channel_recipient').where('pulse_channel_id', '=', channelId).execute();
  if (userIds.length) await db.insertInto('pulse_channel_recipient').values(userIds.map((user_id) => ({ pulse_channel_id: channelId, user_id }))).execute();
}

/**
 * Makes the pulse's channels exactly `channels`: those with an id (of this pulse) updated, the new ones created, the
 * rest deleted.
 */
export async function writeChannels(db: Db, ctx: AppContext, pulseId: number, channels: ChannelInput[], existing: LoadedPulse['channels'] = []): Promise<void> {
  const now = nowIso();
  const known = new Map(existing.map((c) => [c.id, c]));
  for (const c of channels) if (c.id !== null && !known.has(c.id)) throw fieldError('channels', `Channel ${c.id} is not a channel of this subscription.`);
  const kept = new Set(channels.map((c) => c.id).filter((id): id is number => id !== null));
  const gone = existing.filter((c) => !kept.has(c.id)).map((c) => c.id);
  if (gone.length) await db.deleteFrom('pulse_channel').where('id', 'in', gone).execute();
  for (const channel of channels) {
    const columns = channelColumns(channel);
    if (channel.id !== null) {
      const before = known.get(channel.id)!;
      const changed =
        Object.entries(columns).some(([k, v]) => {
          const old = (before as unknown as Obj)[k];
          return k === 'enabled' ? bool(old) !== v : (old ?? null) !== (v ?? null);
        }) || before.userIds.join(',') !== channel.recipients.userIds.join(',');
      if (changed) await db.updateTable('pulse_channel').set({ ...columns, updated_at: now }).where('id', '=', channel.id).execute();
      await writeRecipients(db, channel.id, channel.recipients.userIds);
      continue;
    }
    const row = { entity_id: newEntityId(), pulse_id: pulseId, ...columns, created_at: now, updated_at: now };
    const id = await insertReturningId(db, ctx.dialect, 'pulse_channel', row);
    await writeRecipients(db, id, channel.recipients.userIds);
  }
}

/** A loaded channel as an input (to keep it unchanged while others change). */
export function channelInputOf(channel: LoadedPulse['channels'][number]): ChannelInput {
  const { emails: _e, ...details } = JSON.parse(channel.details || '{}') as Obj;
  return {
    id: channel.id,
    channel_type: channel.channel_type as ChannelType,
    enabled: bool(channel.enabled),
    schedule: channel.schedule_type ? normalizeSchedule({ ...channel }) : null,
    cron_schedule: channel.cron_schedule,
    details,
    recipients: { userIds: channel.userIds, emails: channelEmails(channel) },
    channel_id: channel.channel_id,
  };
}

function sameSchedule(a: ChannelSchedule | null, b: ChannelSchedule): boolean {
  return a !== null && a.schedule_type === b.schedule_type && a.schedule_hour === b.schedule_hour && a.schedule_day === b.schedule_day && a.schedule_frame === b.schedule_frame;
}

/**
 * Channels sent back by /api/alert keep their own cron (set through /api/notification, one no schedule map says)
 * unless the schedule was changed: /api/alert shows such a cron as its nearest map, and that map coming back is not
 * a change.
 */
export function keepOwnCrons(channels: ChannelInput[], existing: LoadedPulse['channels']): ChannelInput[] {
  const byId = new Map(existing.map((c) => [c.id, c]));
  return channels.map((c) => {
    const before = c.id === null ? undefined : byId.get(c.id);
    if (!before?.cron_schedule || before.schedule_type) return c;
    let shown: ChannelSchedule;
    try {
      shown = normalizeSchedule({ ...scheduleOfCron(before.cron_schedule).schedule });
    } catch {
      return c;
    }
    return sameSchedule(c.schedule, shown) ? { ...c, schedule: null, cron_schedule: before.cron_schedule } : c;
  });
}
