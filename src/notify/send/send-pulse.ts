// One send of a pulse: run its cards as its creator, decide whether it goes out (an alert's condition; a
// subscription with `skip_if_empty` and nothing to show), then deliver to each channel in turn. After each channel,
// and each email message within one (./recipient-log.ts), the progress is checkpointed, so a retry — or another
// instance taking over after this one died — sends only to the channels and addresses not yet done. Each channel's outcome is a `channel-send` row of task history. A transient failure of any
// channel makes the whole send retried later (for the channels left); permanent failures are recorded and not
// retried.

import { DateTime } from 'luxon';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../http/caller.js';
import { bool, nowIso } from '../../appdb/portable.js';
import { callerForUser } from '../../users/sessions.js';
import { TransientError } from '../../tasks/scheduler.js';
import { errorMessage, startTask } from '../../tasks/history.js';
import { renderSettings } from '../render/index.js';
import { siteUrl } from '../links.js';
import { isAlert, type LoadedPulse } from '../store.js';
import { alertOutcome } from './conditions.js';
import { attachmentsOf, gatherContent, isEmptyResult, type CardPart } from './parts.js';
import { SendArtifacts, deliver } from './deliver.js';
import { NO_LOG, recipientLog, refusedRecipientsOf, type RecipientState } from './recipient-log.js';
import { alertSubject, subscriptionSubject } from './email-message.js';
import { alertStoppedMails } from '../alert-mail.js';

type Obj = Record<string, unknown>;

export interface SendOptions {
  /** The channels to send to (default: every enabled channel). */
  channelIds?: number[];
  /** What earlier attempts did: {channels: {<id>: 'sent' | 'failed'}, recipients: {<id>: {<address>: 'sent' | 'refused'}}}. */
  progress?: Obj;
  checkpoint?: (progress: Obj) => Promise<void>;
  /** Task-history details of the send, added to. */
  details?: Obj;
  signal?: AbortSignal;
  /** A send asked for now (POST /api/pulse/test, …/send): alert conditions and `skip_if_empty` don't hold it back. */
  manual?: boolean;
  /** Who sends it (manual sends of unsaved pulses: the caller); default the pulse's creator. */
  sender?: Caller;
}

export interface SendOutcome {
  status: 'sent' | 'skipped';
  reason?: string;
  sent: number[];
  failed: Array<{ channel: number; error: string; transient: boolean }>;
}

/** The creator as a Caller (queries run with their permissions); null when deactivated or gone. */
export async function creatorCaller(ctx: AppContext, userId: number): Promise<Caller | null> {
  const user = await ctx.db
    .selectFrom('core_user')
    .select(['id', 'email', 'first_name', 'last_name', 'is_superuser', 'locale', 'type', 'settings'])
    .where('id', '=', userId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return user ? callerForUser(ctx, user, 'session', null) : null;
}

function goalSentence(part: CardPart | undefined, goal: number | null, above: boolean): string | null {
  if (!part || goal === null) return null;
  return above ? `This question has reached its goal of ${goal}.` : `This question has gone below its goal of ${goal}.`;
}

export async function sendPulse(ctx: AppContext, loaded: LoadedPulse, options: SendOptions = {}): Promise<SendOutcome> {
  const details = options.details ?? {};
  const pulse = loaded.pulse;
  const sender = options.sender ?? (await creatorCaller(ctx, pulse.creator_id));
  if (!sender) return { status: 'skipped', reason: 'The creator of this subscription is deactivated.', sent: [], failed: [] };
  const wanted = options.channelIds ? new Set(options.channelIds) : null;
  const channels = loaded.channels.filter((c) => (wanted ? wanted.has(c.id) : bool(c.enabled)));
  const done = { ...((options.progress?.channels as Record<string, string> | undefined) ?? {}) };
  const pending = channels.filter((c) => !done[String(c.id)]);
  const recipients: Record<string, Record<string, RecipientState>> = JSON.parse(JSON.stringify(options.progress?.recipients ?? {}));
  const save = () => options.checkpoint?.({ ...(options.progress ?? {}), channels: done, recipients }) ?? Promise.resolve();
  details['pulse-id'] = pulse.id;
  details['channel-ids'] = channels.map((c) => c.id);
  if (!pending.length) return { status: 'sent', sent: [], failed: [] };

  const content = await gatherContent(ctx, loaded, sender, options.signal);
  const cards = content.parts.filter((p): p is CardPart => p.kind === 'card');
  let alert: { goalSentence: string | null; firstOnly: boolean } | null = null;
  let subject: string;
  if (isAlert(pulse)) {
    const part = cards[0];
    if (!part) {
      // the question is gone or archived: the alert has stopped working — archived, and its recipients told
      if (!options.manual) await stopBrokenAlert(ctx, loaded);
      return { status: 'skipped', reason: 'The alert’s question is gone or archived; the alert is archived.', sent: [], failed: [] };
    }
    const above = pulse.alert_above_goal === null ? true : bool(pulse.alert_above_goal);
    const condition = pulse.alert_condition!;
    let goal: number | null = null;
    if (!options.manual) {
      const outcome = alertOutcome(condition, above, part);
      if (!outcome.fire) return { status: 'skipped', reason: outcome.reason, sent: [], failed: [] };
      goal = outcome.goal;
    }
    alert = { goalSentence: goalSentence(part, goal, above), firstOnly: !options.manual && bool(pulse.alert_first_only) };
    subject = alertSubject(part.title, condition, above);
  } else {
    if (!options.manual && bool(pulse.skip_if_empty) && cards.every((p) => isEmptyResult(p.result))) {
      return { status: 'skipped', reason: 'Every question returned no results (skip_if_empty).', sent: [], failed: [] };
    }
    subject = subscriptionSubject(pulse.name, content);
  }

  const site = await siteUrl(ctx);
  const zone = (await renderSettings(ctx)).timezone;
  const stamp = DateTime.now().setZone(zone).toISO({ suppressMilliseconds: true }) ?? new Date().toISOString();
  let files: ReturnType<typeof attachmentsOf> | null = null;
  const artifacts = new SendArtifacts(ctx, pulse, content, site, sender.user, subject, alert, () => (files ??= attachmentsOf(ctx, sender, content, stamp, options.signal)));

  const outcome: SendOutcome = { status: 'sent', sent: [], failed: [] };
  for (const channel of pending) {
    options.signal?.throwIfAborted();
    const history = await startTask(ctx, 'channel-send', {
      details: { 'pulse-id': pulse.id, channel_id: channel.channel_id, channel_type: channel.channel_type, pulse_channel_id: channel.id, attempt: Number(options.details?.attempt ?? 1) },
    });
    try {
      const log = options.checkpoint ? recipientLog((recipients[String(channel.id)] ??= {}), save) : NO_LOG;
      const result = await deliver(ctx, channel, artifacts, Boolean(options.manual), log);
      done[String(channel.id)] = 'sent';
      outcome.sent.push(channel.id);
      await history.succeed({ recipients: result.recipients });
    } catch (error) {
      const transient = error instanceof TransientError;
      outcome.failed.push({ channel: channel.id, error: errorMessage(error), transient });
      if (!transient) done[String(channel.id)] = 'failed';
      const refused = refusedRecipientsOf(error);
      await history.fail(error, { transient, ...(refused ? { refused } : {}) });
    }
    await save();
  }
  // a first-only alert stops after its first send (archived, as 0.54+ sets it inactive)
  if (alert?.firstOnly && outcome.sent.length) {
    await ctx.db.updateTable('pulse').set({ archived: true, updated_at: nowIso() }).where('id', '=', pulse.id).execute();
    await ctx.db.updateTable('pulse_channel').set({ enabled: false, updated_at: nowIso() }).where('pulse_id', '=', pulse.id).execute();
  }
  details.sent = outcome.sent;
  if (outcome.failed.length) details.failed = outcome.failed;
  return outcome;
}

async function stopBrokenAlert(ctx: AppContext, loaded: LoadedPulse): Promise<void> {
  await ctx.db.updateTable('pulse').set({ archived: true, updated_at: nowIso() }).where('id', '=', loaded.pulse.id).execute();
  await ctx.db.updateTable('pulse_channel').set({ enabled: false, updated_at: nowIso() }).where('pulse_id', '=', loaded.pulse.id).execute();
  const cardId = loaded.cards[0]?.card_id ?? null;
  const card = cardId === null ? undefined : await ctx.db.selectFrom('report_card').select(['id', 'name']).where('id', '=', cardId).executeTakeFirst();
  alertStoppedMails(ctx, card ? { cardId: card.id, cardName: card.name } : null, [...new Set(loaded.channels.filter((c) => c.channel_type === 'email').flatMap((c) => c.userIds))]);
}

/** A scheduled send's outcome as the scheduler wants it: retry when a channel may still work later, fail when one never will. */
export function throwForFailures(outcome: SendOutcome): void {
  const transient = outcome.failed.filter((f) => f.transient);
  if (transient.length) throw new TransientError(`Not delivered yet to ${transient.length} channel(s): ${transient.map((f) => f.error).join('; ')}`);
  if (outcome.failed.length) throw new Error(`Delivery failed: ${outcome.failed.map((f) => f.error).join('; ')}`);
}
