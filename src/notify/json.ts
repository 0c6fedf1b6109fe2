// Pulses and alerts as the API returns them (reference §14.1, §14.2), hydrated in batches: the creator, the cards
// (name, display, collection), the dashcards' parameter mappings and the recipient users.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { bool, parseJson } from '../appdb/portable.js';
import { limitedUserJson, userInfoJson, type UserRow } from '../users/user-json.js';
import type { CollectionAccess } from '../permissions/collections.js';
import { cardsByIds, type CardRow } from '../cards/store.js';
import { channelDetails, channelEmails, type LoadedChannel, type LoadedPulse } from './store.js';
import { channelCron, scheduleOfCron } from './schedule.js';

type Obj = Record<string, unknown>;

interface Hydration {
  users: Map<number, UserRow>;
  cards: Map<number, CardRow>;
  dashcards: Map<number, { id: number; dashboard_id: number; parameter_mappings: string | null }>;
}

async function hydration(ctx: AppContext, pulses: LoadedPulse[]): Promise<Hydration> {
  const userIds = new Set<number>();
  const cardIds = new Set<number>();
  const dashcardIds = new Set<number>();
  for (const p of pulses) {
    userIds.add(p.pulse.creator_id);
    for (const c of p.channels) c.userIds.forEach((id) => userIds.add(id));
    for (const c of p.cards) {
      cardIds.add(c.card_id);
      if (c.dashboard_card_id !== null) dashcardIds.add(c.dashboard_card_id);
    }
  }
  const [users, cards, dashcards] = await Promise.all([
    userIds.size ? ctx.db.selectFrom('core_user').selectAll().where('id', 'in', [...userIds]).execute() : [],
    cardsByIds(ctx.db, cardIds),
    dashcardIds.size ? ctx.db.selectFrom('report_dashboardcard').select(['id', 'dashboard_id', 'parameter_mappings']).where('id', 'in', [...dashcardIds]).execute() : [],
  ]);
  return { users: new Map(users.map((u) => [u.id, u])), cards, dashcards: new Map(dashcards.map((d) => [d.id, d])) };
}

function cardJson(ref: LoadedPulse['cards'][number], h: Hydration): Obj {
  const card = h.cards.get(ref.card_id);
  const dashcard = ref.dashboard_card_id === null ? undefined : h.dashcards.get(ref.dashboard_card_id);
  return {
    id: ref.card_id,
    name: card?.name ?? null,
    description: card?.description ?? null,
    display: card?.display ?? null,
    collection_id: card?.collection_id ?? null,
    include_csv: bool(ref.include_csv),
    include_xls: bool(ref.include_xls),
    format_rows: bool(ref.format_rows),
    pivot_results: bool(ref.pivot_results),
    dashboard_card_id: ref.dashboard_card_id,
    dashboard_id: dashcard?.dashboard_id ?? null,
    parameter_mappings: dashcard ? parseJson<unknown[] | null>(dashcard.parameter_mappings, null) : null,
  };
}

function channelJson(channel: LoadedChannel, h: Hydration, caller: Caller): Obj {
  const cron = channelCron(channel);
  // a notification's own cron that no schedule map says is shown as its nearest map
  const shown = channel.cron_schedule && !channel.schedule_type ? scheduleOfCron(channel.cron_schedule).schedule : channel;
  return {
    id: channel.id,
    entity_id: channel.entity_id,
    pulse_id: channel.pulse_id,
    channel_type: channel.channel_type,
    channel_id: channel.channel_id,
    enabled: bool(channel.enabled),
    schedule_type: shown.schedule_type,
    schedule_hour: shown.schedule_hour,
    schedule_day: shown.schedule_day,
    schedule_frame: shown.schedule_frame,
    cron_schedule: cron,
    // a webhook's target and secrets are the channel's (/api/channel, admins only), never shown to others
    details: channel.channel_type === 'http' && !caller.isSuperuser ? {} : channelDetails(channel),
    recipients: [
      ...channel.userIds.map((id) => h.users.get(id)).filter((u): u is UserRow => u !== undefined).map(limitedUserJson),
      ...channelEmails(channel).map((email) => ({ email })),
    ],
    created_at: channel.created_at,
    updated_at: channel.updated_at,
  };
}

export interface Viewer {
  caller: Caller;
  access: CollectionAccess;
}

/** May the viewer change this subscription? Admins; otherwise its creator, while they can read its collection. */
export function canWritePulse(viewer: Viewer, loaded: LoadedPulse): boolean {
  if (viewer.caller.isSuperuser) return true;
  return loaded.pulse.creator_id === viewer.caller.user.id && viewer.access.canRead(loaded.pulse.collection_id);
}

/** May the viewer change this alert? Admins; otherwise its creator, while they can read its card. */
export function canWriteAlert(viewer: Viewer, loaded: LoadedPulse, cards: Map<number, CardRow>): boolean {
  if (viewer.caller.isSuperuser) return true;
  const card = cards.get(loaded.cards[0]?.card_id ?? -1);
  return loaded.pulse.creator_id === viewer.caller.user.id && card !== undefined && viewer.access.canRead(card.collection_id);
}

function baseJson(loaded: LoadedPulse, h: Hydration, caller: Caller): Obj {
  const p = loaded.pulse;
  const creator = h.users.get(p.creator_id);
  return {
    id: p.id,
    entity_id: p.entity_id,
    name: p.name,
    creator_id: p.creator_id,
    creator: creator ? userInfoJson(creator) : null,
    created_at: p.created_at,
    updated_at: p.updated_at,
    skip_if_empty: bool(p.skip_if_empty),
    alert_condition: p.alert_condition,
    alert_first_only: p.alert_first_only === null ? null : bool(p.alert_first_only),
    alert_above_goal: p.alert_above_goal === null ? null : bool(p.alert_above_goal),
    collection_id: p.collection_id,
    collection_position: p.collection_position,
    archived: bool(p.archived),
    dashboard_id: p.dashboard_id,
    parameters: parseJson<unknown[]>(p.parameters, []),
    channels: loaded.channels.map((c) => channelJson(c, h, caller)),
  };
}

/**
 * Subscriptions as the viewer sees them: a viewer who can't read the subscription's collection (a recipient, not an
 * admin) gets it without its cards and without the channels' recipients (Metabase's "sensitive metadata").
 */
export async function pulsesJson(ctx: AppContext, viewer: Viewer, pulses: LoadedPulse[]): Promise<Obj[]> {
  const h = await hydration(ctx, pulses);
  return pulses.map((loaded) => {
    const json = baseJson(loaded, h, viewer.caller);
    json.cards = loaded.cards.map((c) => cardJson(c, h));
    json.can_write = canWritePulse(viewer, loaded);
    if (!viewer.caller.isSuperuser && !viewer.access.canRead(loaded.pulse.collection_id)) {
      delete json.cards;
      json.channels = (json.channels as Obj[]).map(({ recipients: _r, ...rest }) => rest);
    }
    return json;
  });
}

/** Alerts: one `card` instead of `cards`. */
export async function alertsJson(ctx: AppContext, viewer: Viewer, alerts: LoadedPulse[]): Promise<Obj[]> {
  const h = await hydration(ctx, alerts);
  return alerts.map((loaded) => {
    const json = baseJson(loaded, h, viewer.caller);
    json.card = loaded.cards[0] ? cardJson(loaded.cards[0], h) : null;
    json.can_write = canWriteAlert(viewer, loaded, h.cards);
    return json;
  });
}
