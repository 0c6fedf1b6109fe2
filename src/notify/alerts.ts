// Alerts (/api/alert, reference A2): a pulse with an `alert_condition` (rows | goal) and one card. Reading an alert
// takes read access to its card; listing shows admins every alert and others those they created or receive.
// Editing: admins, or the creator — who may only keep themselves as the one recipient (Metabase's rule for users
// without the advanced subscription permissions). An alert left with no recipient and no Slack channel is archived.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden, notFound } from '../http/errors.js';
import { nowIso } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { cardsByIds, requireCard } from '../cards/store.js';
import { rescheduleJobs } from '../tasks/scheduler.js';
import { alertsJson, type Viewer } from './json.js';
import { channelEmails, findPulse, isAlert, isArchived, loadPulses, type LoadedPulse } from './store.js';
import { alertValues, asNewChannels, insertPulse, keepOwnCrons, parseChannels, writeCards, writeChannels, type CardRef, type ChannelInput } from './write.js';
import { removeRecipient } from './unsubscribe.js';
import { checkOwnRecipientsOnly } from './channel-rules.js';
import { alertCreatedMails, alertRecipientsChangedMails, youUnsubscribedMail } from './alert-mail.js';

type Obj = Record<string, unknown>;

export const ONLY_OWN_ALERTS = 'Non-admin users without monitoring or subscription permissions are only allowed to update alerts that they created';

async function viewerOf(ctx: AppContext, caller: Caller): Promise<Viewer> {
  return { caller, access: await collectionAccess(ctx, caller) };
}

/** Alerts the viewer may read (their card readable; an alert whose card is gone is dropped). */
async function readable(ctx: AppContext, viewer: Viewer, alerts: LoadedPulse[]): Promise<LoadedPulse[]> {
  const cards = await cardsByIds(ctx.db, alerts.map((a) => a.cards[0]?.card_id).filter((id): id is number => id !== undefined));
  return alerts.filter((a) => {
    const card = cards.get(a.cards[0]?.card_id ?? -1);
    return card !== undefined && viewer.access.canRead(card.collection_id);
  });
}

function recipientSubquery(ctx: AppContext, userId: number) {
  return ctx.db
    .selectFrom('pulse_channel')
    .innerJoin('pulse_channel_recipient', 'pulse_channel_recipient.pulse_channel_id', 'pulse_channel.id')
    .select('pulse_channel.pulse_id')
    .where('pulse_channel_recipient.user_id', '=', userId);
}

export async function listAlerts(ctx: AppContext, caller: Caller, options: { archived: boolean; userId: number | null }) {
  const viewer = await viewerOf(ctx, caller);
  const who = caller.isSuperuser ? options.userId : caller.user.id;
  let query = ctx.db.selectFrom('pulse').select('id').where('alert_condition', 'is not', null).where('archived', '=', options.archived);
  if (who !== null) query = query.where((eb) => eb.or([eb('creator_id', '=', who), eb('id', 'in', recipientSubquery(ctx, who))]));
  const ids = (await query.orderBy('id').execute()).map((r) => r.id);
  return alertsJson(ctx, viewer, await readable(ctx, viewer, await loadPulses(ctx.db, ids)));
}

export async function requireAlert(ctx: AppContext, id: number): Promise<LoadedPulse> {
  const loaded = await findPulse(ctx.db, id);
  if (!loaded || !isAlert(loaded.pulse)) throw notFound();
  return loaded;
}

export async function getAlert(ctx: AppContext, caller: Caller, id: number) {
  const viewer = await viewerOf(ctx, caller);
  const loaded = await requireAlert(ctx, id);
  if (!(await readable(ctx, viewer, [loaded])).length) throw forbidden();
  return (await alertsJson(ctx, viewer, [loaded]))[0];
}

/** GET /api/alert/question/:id — admins: every alert on the card; others: those they receive. */
export async function alertsForCard(ctx: AppContext, caller: Caller, cardId: number, archived: boolean) {
  const viewer = await viewerOf(ctx, caller);
  viewer.access.checkRead((await requireCard(ctx, cardId)).collection_id);
  let query = ctx.db
    .selectFrom('pulse')
    .innerJoin('pulse_card', 'pulse_card.pulse_id', 'pulse.id')
    .select('pulse.id')
    .where('pulse.alert_condition', 'is not', null)
    .where('pulse.archived', '=', archived)
    .where('pulse_card.card_id', '=', cardId);
  if (!caller.isSuperuser) query = query.where('pulse.id', 'in', recipientSubquery(ctx, caller.user.id));
  const ids = (await query.orderBy('pulse.id').execute()).map((r) => r.id);
  return alertsJson(ctx, viewer, await loadPulses(ctx.db, ids));
}

// ----- writing ----------------------------------------------------------------------------------------------------

export interface AlertBody {
  alert_condition: 'rows' | 'goal';
  alert_first_only: boolean;
  alert_above_goal: boolean | null;
  card: Obj;
  channels: Obj[];
}

/** An alert's card ref; a `rows` alert always attaches its results as CSV (as Metabase does). */
function alertCard(card: Obj, condition: string): CardRef {
  return {
    card_id: card.id as number,
    include_csv: condition === 'rows' ? true : card.include_csv === true,
    include_xls: card.include_xls === true,
    format_rows: card.format_rows === undefined || card.format_rows === null ? true : card.format_rows === true,
    pivot_results: card.pivot_results === true,
    dashboard_card_id: typeof card.dashboard_card_id === 'number' ? card.dashboard_card_id : null,
  };
}

function userRecipients(channels: Array<Pick<ChannelInput, 'channel_type' | 'recipients'>>): number[] {
  return [...new Set(channels.filter((c) => c.channel_type === 'email').flatMap((c) => c.recipients.userIds))];
}

export async function createAlert(ctx: AppContext, caller: Caller, body: AlertBody) {
  const viewer = await viewerOf(ctx, caller);
  const cardRef = alertCard(body.card, body.alert_condition);
  const card = await requireCard(ctx, cardRef.card_id);
  viewer.access.checkRead(card.collection_id);
  const channels = asNewChannels(await parseChannels(ctx, caller, body.channels));
  checkOwnRecipientsOnly(caller, channels);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const pulseId = await insertPulse(
      trx,
      ctx,
      alertValues(caller.user.id, { condition: body.alert_condition, firstOnly: body.alert_first_only, above: body.alert_condition === 'goal' ? body.alert_above_goal ?? true : body.alert_above_goal }),
    );
    await writeCards(trx, pulseId, [cardRef]);
    await writeChannels(trx, ctx, pulseId, channels);
    return pulseId;
  });
  await rescheduleJobs(ctx);
  alertCreatedMails(ctx, caller.user, { cardId: card.id, cardName: card.name }, userRecipients(channels));
  return (await alertsJson(ctx, viewer, await loadPulses(ctx.db, [id])))[0];
}

export interface AlertUpdate {
  alert_condition?: 'rows' | 'goal' | null;
  alert_first_only?: boolean | null;
  alert_above_goal?: boolean | null;
  card?: Obj | null;
  channels?: Obj[] | null;
  archived?: boolean | null;
}

export async function updateAlert(ctx: AppContext, caller: Caller, id: number, body: AlertUpdate, present: Set<string>) {
  const viewer = await viewerOf(ctx, caller);
  const loaded = await requireAlert(ctx, id);
  const currentCard = await requireCard(ctx, loaded.cards[0]?.card_id ?? -1);
  viewer.access.checkRead(currentCard.collection_id);
  if (!caller.isSuperuser && loaded.pulse.creator_id !== caller.user.id) throw forbidden(ONLY_OWN_ALERTS);
  const condition = body.alert_condition ?? (loaded.pulse.alert_condition as 'rows' | 'goal');
  let cardRef: CardRef | null = null;
  let card = currentCard;
  if (body.card) {
    cardRef = alertCard(body.card, condition);
    if (cardRef.card_id !== currentCard.id) {
      card = await requireCard(ctx, cardRef.card_id);
      // moving an alert to another card takes write access to it
      viewer.access.checkWrite(card.collection_id);
    }
  }
  const channels = present.has('channels') && body.channels ? keepOwnCrons(await parseChannels(ctx, caller, body.channels), loaded.channels) : null;
  if (channels) checkOwnRecipientsOnly(caller, channels);
  const changes: Obj = { updated_at: nowIso() };
  if (body.alert_condition) changes.alert_condition = body.alert_condition;
  if (body.alert_first_only !== undefined && body.alert_first_only !== null) changes.alert_first_only = body.alert_first_only;
  if (present.has('alert_above_goal')) changes.alert_above_goal = body.alert_above_goal ?? null;
  let archived = present.has('archived') && body.archived !== null && body.archived !== undefined ? body.archived : null;
  // an alert left with nobody to tell (no email recipient, no Slack channel) is archived
  if (channels) {
    const email = channels.find((c) => c.channel_type === 'email');
    const nobody = !email || (email.recipients.userIds.length === 0 && email.recipients.emails.length === 0);
    if (nobody && !channels.some((c) => c.channel_type === 'slack')) archived = true;
  }
  if (archived !== null) changes.archived = archived;
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('pulse').set(changes).where('id', '=', id).execute();
    if (cardRef) await writeCards(trx, id, [cardRef], loaded.cards);
    if (channels) await writeChannels(trx, ctx, id, channels, loaded.channels);
    if (archived !== null) await trx.updateTable('pulse_channel').set({ enabled: !archived, updated_at: nowIso() }).where('pulse_id', '=', id).execute();
  });
  await rescheduleJobs(ctx);
  if (caller.isSuperuser) {
    const before = userRecipients(loaded.channels.map((c) => ({ channel_type: c.channel_type as ChannelInput['channel_type'], recipients: { userIds: c.userIds, emails: channelEmails(c) } })));
    const after = channels ? userRecipients(channels) : before;
    const wasArchived = isArchived(loaded.pulse);
    const nowArchived = archived ?? wasArchived;
    const removed = !wasArchived && nowArchived ? before : wasArchived ? [] : before.filter((u) => !after.includes(u));
    const added = wasArchived && !nowArchived ? after : nowArchived ? [] : after.filter((u) => !before.includes(u));
    alertRecipientsChangedMails(ctx, caller.user, { cardId: card.id, cardName: card.name }, added, removed);
  }
  return (await alertsJson(ctx, viewer, await loadPulses(ctx.db, [id])))[0];
}

/** DELETE /api/alert/:id/subscription: the caller leaves the alert (and is told so). */
export async function unsubscribeFromAlert(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const viewer = await viewerOf(ctx, caller);
  const loaded = await requireAlert(ctx, id);
  const card = (await cardsByIds(ctx.db, [loaded.cards[0]?.card_id ?? -1])).get(loaded.cards[0]?.card_id ?? -1);
  if (!card) throw notFound();
  viewer.access.checkRead(card.collection_id);
  await removeRecipient(ctx, loaded, caller.user.id);
  youUnsubscribedMail(ctx, caller.user.email, { cardId: card.id, cardName: card.name });
}
