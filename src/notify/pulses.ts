// Dashboard subscriptions (and legacy card pulses): /api/pulse's rules (reference A1).
//   read:   admins; the creator; a user recipient (who sees no cards and no recipients without collection access)
//   write:  admins; the creator while they can read the subscription's collection
//   create: read access to every card; a dashboard subscription needs the dashboard readable and lives in its
//           collection; any other pulse needs write access to its collection

import { shiftCollectionPositions } from '../collections/positions.js';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, fieldError, forbidden, notFound } from '../http/errors.js';
import { nowIso } from '../appdb/portable.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { cardsByIds } from '../cards/store.js';
import { readableDashboard } from '../dashboards/dashboards.js';
import { rescheduleJobs } from '../tasks/scheduler.js';
import { canWritePulse, pulsesJson, type Viewer } from './json.js';
import { findPulse, isAlert, isRecipient, loadPulses, type LoadedPulse } from './store.js';
import { asNewChannels, insertPulse, parseCards, parseChannels, writeCards, writeChannels, type CardRef } from './write.js';
import { removeRecipient } from './unsubscribe.js';

type Obj = Record<string, unknown>;

export const PARAMETERS_MESSAGE = ':parameters must be a sequence of maps with String :id keys';

export function checkParameters(parameters: unknown): Obj[] {
  if (parameters === null || parameters === undefined) return [];
  const ok = Array.isArray(parameters) && parameters.every((p) => p && typeof p === 'object' && !Array.isArray(p) && typeof (p as Obj).id === 'string' && ((p as Obj).id as string).trim() !== '');
  if (!ok) throw badRequest(PARAMETERS_MESSAGE);
  return parameters as Obj[];
}

async function viewerOf(ctx: AppContext, caller: Caller): Promise<Viewer> {
  return { caller, access: await collectionAccess(ctx, caller) };
}

/** Read access to every card, and dashcards that exist (on the subscription's dashboard, when it has one). */
export async function checkCards(ctx: AppContext, access: CollectionAccess, cards: CardRef[], dashboardId: number | null): Promise<void> {
  const rows = await cardsByIds(ctx.db, cards.map((c) => c.card_id));
  for (const ref of cards) {
    const card = rows.get(ref.card_id);
    if (!card) throw notFound(`Card ${ref.card_id} does not exist.`);
    access.checkRead(card.collection_id);
  }
  const dashcardIds = cards.map((c) => c.dashboard_card_id).filter((id): id is number => id !== null);
  if (!dashcardIds.length) return;
  const dashcards = await ctx.db.selectFrom('report_dashboardcard').select(['id', 'dashboard_id']).where('id', 'in', dashcardIds).execute();
  const found = new Map(dashcards.map((d) => [d.id, d.dashboard_id]));
  for (const id of dashcardIds) {
    if (!found.has(id)) throw badRequest(`Dashboard card ${id} does not exist.`);
    if (dashboardId !== null && found.get(id) !== dashboardId) throw badRequest(`Dashboard card ${id} is not on dashboard ${dashboardId}.`);
  }
}

// ----- reading ----------------------------------------------------------------------------------------------------

export interface PulseListOptions {
  archived: boolean;
  dashboardId: number | null;
  creatorOrRecipient: boolean;
}

export async function listPulses(ctx: AppContext, caller: Caller, options: PulseListOptions) {
  const viewer = await viewerOf(ctx, caller);
  const me = caller.user.id;
  let query = ctx.db
    .selectFrom('pulse')
    .leftJoin('report_dashboard', 'report_dashboard.id', 'pulse.dashboard_id')
    .select(['pulse.id', 'pulse.name'])
    .where('pulse.alert_condition', 'is', null)
    .where('pulse.archived', '=', options.archived)
    // subscriptions of an archived dashboard are not listed
    .where((eb) => eb.or([eb('pulse.dashboard_id', 'is', null), eb('report_dashboard.archived', '=', false)]));
  if (options.dashboardId !== null) query = query.where('pulse.dashboard_id', '=', options.dashboardId);
  if (options.creatorOrRecipient) {
    query = query.where('pulse.dashboard_id', 'is not', null).where((eb) =>
      eb.or([
        eb('pulse.creator_id', '=', me),
        eb(
          'pulse.id',
          'in',
          eb.selectFrom('pulse_channel').innerJoin('pulse_channel_recipient', 'pulse_channel_recipient.pulse_channel_id', 'pulse_channel.id').select('pulse_channel.pulse_id').where('pulse_channel_recipient.user_id', '=', me),
        ),
      ]),
    );
  } else if (!caller.isSuperuser) {
    query = query.where('pulse.creator_id', '=', me);
  }
  const rows = await query.execute();
  rows.sort((a, b) => (a.name ?? '').toLowerCase().localeCompare((b.name ?? '').toLowerCase()) || a.id - b.id);
  let pulses = await loadPulses(ctx.db, rows.map((r) => r.id));
  // the default list is what the caller may change; creator_or_recipient, what they may read
  if (!options.creatorOrRecipient) pulses = pulses.filter((p) => canWritePulse(viewer, p));
  return pulsesJson(ctx, viewer, pulses);
}

/** A subscription (not an alert), or 404. */
export async function requirePulse(ctx: AppContext, id: number): Promise<LoadedPulse> {
  const loaded = await findPulse(ctx.db, id);
  if (!loaded || isAlert(loaded.pulse)) throw notFound();
  return loaded;
}

function canReadPulse(caller: Caller, loaded: LoadedPulse): boolean {
  return caller.isSuperuser || loaded.pulse.creator_id === caller.user.id || isRecipient(loaded, caller.user.id);
}

export async function pulseJson(ctx: AppContext, viewer: Viewer, id: number) {
  const [json] = await pulsesJson(ctx, viewer, await loadPulses(ctx.db, [id]));
  return json;
}

export async function getPulse(ctx: AppContext, caller: Caller, id: number) {
  const loaded = await requirePulse(ctx, id);
  if (!canReadPulse(caller, loaded)) throw forbidden();
  const [json] = await pulsesJson(ctx, await viewerOf(ctx, caller), [loaded]);
  return json;
}

/** Subscriptions go by email or Slack; webhooks send alerts only (as in Metabase). */
export function subscriptionChannels(channels: Obj[]): Obj[] {
  if (channels.some((c) => c.channel_type === 'http')) throw fieldError('channels', 'Webhook channels send alerts only; a dashboard subscription goes by email or Slack.');
  return channels;
}

// ----- writing ----------------------------------------------------------------------------------------------------

export interface PulseBody {
  name: string;
  cards: Obj[];
  channels: Obj[];
  skip_if_empty: boolean | null;
  collection_id: number | null;
  collection_position: number | null;
  dashboard_id: number | null;
  parameters: Obj[] | null;
}

export async function createPulse(ctx: AppContext, caller: Caller, body: PulseBody) {
  const viewer = await viewerOf(ctx, caller);
  const cards = parseCards(body.cards);
  await checkCards(ctx, viewer.access, cards, body.dashboard_id);
  let collectionId = body.collection_id;
  if (body.dashboard_id !== null) {
    // a dashboard subscription lives where its dashboard does
    collectionId = (await readableDashboard(ctx, viewer.access, body.dashboard_id)).collection_id;
  } else {
    viewer.access.checkWrite(collectionId);
  }
  const parameters = checkParameters(body.parameters);
  const channels = asNewChannels(await parseChannels(ctx, caller, subscriptionChannels(body.channels)));
  const id = await ctx.db.transaction().execute(async (trx) => {
    const pulseId = await insertPulse(trx, ctx, {
      name: body.name,
      creator_id: caller.user.id,
      skip_if_empty: body.skip_if_empty ?? false,
      alert_condition: null,
      alert_first_only: null,
      alert_above_goal: null,
      collection_id: collectionId,
      collection_position: body.collection_position,
      dashboard_id: body.dashboard_id,
      parameters,
    });
    if (body.collection_position) await shiftCollectionPositions(trx, 'pulse', collectionId, body.collection_position, pulseId);
    await writeCards(trx, pulseId, cards);
    await writeChannels(trx, ctx, pulseId, channels);
    return pulseId;
  });
  await rescheduleJobs(ctx);
  return pulseJson(ctx, viewer, id);
}

export interface PulseUpdate {
  name?: string | null;
  cards?: Obj[] | null;
  channels?: Obj[] | null;
  skip_if_empty?: boolean | null;
  collection_id?: number | null;
  collection_position?: number | null;
  archived?: boolean | null;
  dashboard_id?: number | null;
  parameters?: Obj[] | null;
}

export async function updatePulse(ctx: AppContext, caller: Caller, id: number, body: PulseUpdate, present: Set<string>) {
  const viewer = await viewerOf(ctx, caller);
  const loaded = await requirePulse(ctx, id);
  if (!canWritePulse(viewer, loaded)) throw forbidden();
  const pulse = loaded.pulse;
  const cards = present.has('cards') && body.cards ? parseCards(body.cards) : null;
  if (cards) await checkCards(ctx, viewer.access, cards, pulse.dashboard_id);
  if (present.has('dashboard_id') && body.dashboard_id !== pulse.dashboard_id) throw badRequest('dashboard ID of a dashboard subscription cannot be modified');
  const changes: Obj = { updated_at: nowIso() };
  if (present.has('collection_id') && body.collection_id !== pulse.collection_id) {
    if (pulse.dashboard_id !== null) throw badRequest('collection ID of a dashboard subscription cannot be directly modified');
    if (!viewer.access.canWrite(pulse.collection_id) || !viewer.access.canWrite(body.collection_id ?? null)) throw forbidden('You do not have curate permissions for this Collection.');
    changes.collection_id = body.collection_id ?? null;
  }
  if (body.name !== undefined && body.name !== null) changes.name = body.name;
  if (body.skip_if_empty !== undefined && body.skip_if_empty !== null) changes.skip_if_empty = body.skip_if_empty;
  if (body.parameters !== undefined && body.parameters !== null) changes.parameters = JSON.stringify(checkParameters(body.parameters));
  if (present.has('collection_position')) changes.collection_position = body.collection_position ?? null;
  const archiving = present.has('archived') && body.archived !== null && body.archived !== undefined ? body.archived : null;
  if (archiving !== null) changes.archived = archiving;
  const channels = present.has('channels') && body.channels ? await parseChannels(ctx, caller, subscriptionChannels(body.channels)) : null;
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('pulse').set(changes).where('id', '=', id).execute();
    if (typeof changes.collection_position === 'number') {
      const home = 'collection_id' in changes ? (changes.collection_id as number | null) : pulse.collection_id;
      await shiftCollectionPositions(trx, 'pulse', home, changes.collection_position, id);
    }
    if (cards) await writeCards(trx, id, cards, loaded.cards);
    if (channels) await writeChannels(trx, ctx, id, channels, loaded.channels);
    // archiving turns every channel off; unarchiving turns them all back on
    if (archiving !== null) await trx.updateTable('pulse_channel').set({ enabled: !archiving, updated_at: nowIso() }).where('pulse_id', '=', id).execute();
  });
  await rescheduleJobs(ctx);
  return pulseJson(ctx, viewer, id);
}

/** DELETE /api/pulse/:id/subscription: the caller stops receiving the subscription's emails. */
export async function unsubscribeFromPulse(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const loaded = await requirePulse(ctx, id);
  await removeRecipient(ctx, loaded, caller.user.id);
}
