// Delivering one send to one channel. The content is rendered once per send and shared by its channels: the email
// body with its inline images, and 1,200 px PNGs of the cards for Slack and webhooks.
//   email:   Metabase users get one message together (in Bcc when `bcc-enabled?`, else in To) whose footer links
//            to their subscription settings; each raw address gets its own message with a signed unsubscribe link
//   slack:   one message to the channel: a header, then each card's linked title and picture
//   http:    the alert payload Metabase posts (card, column names, rows, a base64 PNG), through the outbound policy

import type { AppContext } from '../../context.js';
import { commonName } from '../../users/user-json.js';
import { renderCardPng, renderSettings } from '../render/index.js';
import { allRefused, sendMail, EmailNotConfiguredError, type MailAttachment, type MailResult, type OutgoingMail, type RefusedRecipient } from '../email/smtp.js';
import { isEmailConfigured } from '../email/settings.js';
import { unsubscribeUrl } from '../unsubscribe.js';
import { channelDetailsOf } from '../channels.js';
import { postWebhook } from '../webhook.js';
import { postToSlack } from '../slack.js';
import { channelEmails, channelDetails, type LoadedChannel, type PulseRow } from '../store.js';
import { alertHtml, cardUrl, renderBody, subscriptionHtml, type Footer, type RenderedBody } from './email-message.js';
import type { CardPart, FileAttachment, SendContent } from './parts.js';
import { NO_LOG, isPermanentRefusal, refusalFailure, type RecipientLog } from './recipient-log.js';

/** Everything a send's channels need, made lazily and at most once. */
export class SendArtifacts {
  private body: Promise<RenderedBody> | null = null;
  private pngs = new Map<CardPart, Promise<Buffer | null>>();

  constructor(
    private readonly ctx: AppContext,
    readonly pulse: PulseRow,
    readonly content: SendContent,
    readonly site: string,
    readonly sender: { id: number; email: string; first_name: string | null; last_name: string | null },
    readonly subject: string,
    /** For alerts: what the email says about the goal and the last send. */
    readonly alert: { goalSentence: string | null; firstOnly: boolean } | null,
    readonly attachments: () => Promise<FileAttachment[]>,
  ) {}

  emailBody(): Promise<RenderedBody> {
    this.body ??= renderBody(this.ctx, this.content, this.site, 'cid');
    return this.body;
  }

  cardPng(part: CardPart): Promise<Buffer | null> {
    let png = this.pngs.get(part);
    if (!png) {
      png = (async () => {
        if (!part.result || part.result.status !== 'completed') return null;
        return renderCardPng(part.renderable, part.result.data, { ...(await renderSettings(this.ctx)), width: 1200 });
      })().catch((error) => {
        this.ctx.log.warn({ err: error, card: part.card.id }, 'a card could not be drawn');
        return null;
      });
      this.pngs.set(part, png);
    }
    return png;
  }

  cardParts(): CardPart[] {
    return this.content.parts.filter((p): p is CardPart => p.kind === 'card');
  }

  html(body: RenderedBody, footer: Footer): string {
    const sender = commonName(this.sender);
    if (this.alert) {
      const part = this.cardParts()[0];
      return alertHtml(
        { cardName: part?.title ?? '', cardUrl: part ? cardUrl(this.site, part, null) : this.site, sender, site: this.site, goalSentence: this.alert.goalSentence, firstOnly: this.alert.firstOnly },
        body,
        footer,
      );
    }
    return subscriptionHtml({ title: this.content.dashboard?.name ?? this.pulse.name ?? '', description: this.content.dashboard?.description ?? null, sender, site: this.site }, this.content, body, footer);
  }
}

export interface DeliveryResult {
  recipients: number;
}

/** Sends one message and records who got it; refused recipients are returned, not thrown. */
async function sendLogged(ctx: AppContext, log: RecipientLog, mail: OutgoingMail): Promise<RefusedRecipient[]> {
  let result: MailResult;
  try {
    result = await sendMail(ctx, mail);
  } catch (error) {
    const refused = allRefused(error);
    if (!refused.length) throw error;
    result = { accepted: [], refused };
  }
  await log.record(result.accepted, result.refused.filter(isPermanentRefusal).map((r) => r.address));
  return result.refused;
}

async function deliverEmail(ctx: AppContext, channel: LoadedChannel, artifacts: SendArtifacts, test: boolean, log: RecipientLog): Promise<DeliveryResult> {
  if (!(await isEmailConfigured(ctx))) throw new EmailNotConfiguredError();
  const users = channel.userIds.length ? await ctx.db.selectFrom('core_user').select('email').where('id', 'in', channel.userIds).where('is_active', '=', true).execute() : [];
  const userEmails = users.map((u) => u.email);
  const rawEmails = channelEmails(channel);
  if (!userEmails.length && !rawEmails.length) return { recipients: 0 };
  // only to whom an earlier attempt has not sent it
  const pendingUsers = userEmails.filter((e) => !log.isDone(e));
  const pendingRaw = rawEmails.filter((e) => !log.isDone(e));
  const refused: RefusedRecipient[] = [];
  if (pendingUsers.length || pendingRaw.length) {
    const body = await artifacts.emailBody();
    const files = await artifacts.attachments();
    const attachments: MailAttachment[] = [
      ...body.images.map((image) => ({ filename: `${image.cid.split('@')[0]}.png`, content: image.png, contentType: 'image/png', cid: image.cid })),
      ...files.map((f) => ({ filename: f.filename, content: f.content, contentType: f.contentType })),
    ];
    if (pendingUsers.length) {
      const bcc = await ctx.settings.getBoolean('bcc-enabled?');
      refused.push(...(await sendLogged(ctx, log, { ...(bcc ? { bcc: pendingUsers } : { to: pendingUsers }), subject: artifacts.subject, html: artifacts.html(body, { kind: 'user' }), attachments })));
    }
    for (const email of pendingRaw) {
      const footer: Footer = test ? { kind: 'preview' } : { kind: 'address', unsubscribeUrl: await unsubscribeUrl(ctx, artifacts.site, email, artifacts.pulse.id) };
      refused.push(...(await sendLogged(ctx, log, { to: [email], subject: artifacts.subject, html: artifacts.html(body, footer), attachments })));
    }
  }
  if (refused.length) throw refusalFailure(refused);
  return { recipients: userEmails.length + rawEmails.length };
}

async function deliverSlack(ctx: AppContext, channel: LoadedChannel, artifacts: SendArtifacts): Promise<DeliveryResult> {
  const target = String(channelDetails(channel).channel ?? '');
  const dashboardId = artifacts.content.dashboard?.id ?? null;
  const attachments = [];
  for (const part of artifacts.cardParts()) {
    const png = await artifacts.cardPng(part);
    attachments.push({ title: part.title, titleUrl: cardUrl(artifacts.site, part, dashboardId), png, text: png ? null : part.error ?? 'There was a problem with this question.' });
  }
  await postToSlack(ctx, target, artifacts.subject, attachments);
  return { recipients: 1 };
}

/** The payload Metabase posts for an alert (reference A3). */
export async function alertPayload(artifacts: SendArtifacts, alertId: number | null): Promise<Record<string, unknown>> {
  const part = artifacts.cardParts()[0];
  const png = part ? await artifacts.cardPng(part) : null;
  const data = part?.result?.data;
  return {
    type: 'alert',
    alert_id: alertId,
    alert_creator_id: artifacts.sender.id,
    alert_creator_name: commonName(artifacts.sender),
    data: {
      type: 'question',
      question_id: part?.card.id ?? null,
      question_name: part?.title ?? null,
      question_url: part ? cardUrl(artifacts.site, part, null) : null,
      visualization: png ? `data:image/png;base64,${png.toString('base64')}` : null,
      raw_data: { cols: (data?.cols ?? []).map((c) => c.name), rows: data?.rows ?? [] },
    },
    sent_at: new Date().toISOString(),
  };
}

async function deliverWebhook(ctx: AppContext, channel: LoadedChannel, artifacts: SendArtifacts, test: boolean): Promise<DeliveryResult> {
  if (channel.channel_id === null) throw new Error('This webhook channel has no channel to post to.');
  const row = await ctx.db.selectFrom('channel').select(['details', 'active']).where('id', '=', channel.channel_id).executeTakeFirst();
  if (!row) throw new Error(`Channel ${channel.channel_id} no longer exists.`);
  await postWebhook(ctx, channelDetailsOf(ctx, row), await alertPayload(artifacts, test ? null : artifacts.pulse.id));
  return { recipients: 1 };
}

export async function deliver(ctx: AppContext, channel: LoadedChannel, artifacts: SendArtifacts, test: boolean, log: RecipientLog = NO_LOG): Promise<DeliveryResult> {
  switch (channel.channel_type) {
    case 'email':
      return deliverEmail(ctx, channel, artifacts, test, log);
    case 'slack':
      return deliverSlack(ctx, channel, artifacts);
    case 'http':
      return deliverWebhook(ctx, channel, artifacts, test);
    default:
      throw new Error(`Unknown channel type ${channel.channel_type}.`);
  }
}
