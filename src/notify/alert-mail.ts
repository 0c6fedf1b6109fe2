// The messages about alerts themselves (reference A2): "You set up an alert", "<name> added you to an alert",
// "You’ve been unsubscribed from an alert", "You unsubscribed from an alert", "One of your alerts has stopped working". Sent only when SMTP is configured, in
// the background: a failure is logged and never fails the request that caused it. Raw addresses never get them.

import type { AppContext } from '../context.js';
import { commonName } from '../users/user-json.js';
import { isEmailConfigured } from './email/settings.js';
import { sendMail } from './email/smtp.js';
import { escapeHtml } from '../util/html.js';
import { siteUrl } from './links.js';

export interface AlertMailContext {
  cardId: number;
  cardName: string;
}

async function send(ctx: AppContext, to: string[], subject: string, lines: string[]): Promise<void> {
  if (!to.length || !(await isEmailConfigured(ctx))) return;
  const html = `<!DOCTYPE html><html><body style="font-family: Lato, Helvetica, Arial, sans-serif; color: #4c5773;">${lines.map((l) => `<p>${l}</p>`).join('')}</body></html>`;
  await sendMail(ctx, { bcc: to, subject, html });
}

function inBackground(ctx: AppContext, work: Promise<void>): void {
  work.catch((error) => ctx.log.warn({ err: error }, 'sending an alert notice failed'));
}

async function cardLink(ctx: AppContext, alert: AlertMailContext): Promise<string> {
  return `<a href="${escapeHtml(`${await siteUrl(ctx)}/question/${alert.cardId}`)}">${escapeHtml(alert.cardName)}</a>`;
}

async function emailsOf(ctx: AppContext, userIds: number[]): Promise<string[]> {
  if (!userIds.length) return [];
  const rows = await ctx.db.selectFrom('core_user').select('email').where('id', 'in', userIds).where('is_active', '=', true).execute();
  return rows.map((r) => r.email);
}

/** A new alert: its creator is told it is set up (not through /api/notification), every other user recipient that they were added. */
export function alertCreatedMails(
  ctx: AppContext,
  creator: { id: number; email: string; first_name: string | null; last_name: string | null },
  alert: AlertMailContext,
  recipientIds: number[],
  options: { toCreator: boolean } = { toCreator: true },
): void {
  inBackground(
    ctx,
    (async () => {
      const link = await cardLink(ctx, alert);
      if (options.toCreator) await send(ctx, [creator.email], 'You set up an alert', [`You set up an alert on ${link}. We’ll email you when it’s triggered.`]);
      const others = await emailsOf(ctx, recipientIds.filter((id) => id !== creator.id));
      await send(ctx, others, `${commonName(creator)} added you to an alert`, [`${escapeHtml(commonName(creator))} added you to an alert on ${link}.`]);
    })(),
  );
}

/** Users added to or removed from an alert (or all of them, when it is archived or unarchived). */
export function alertRecipientsChangedMails(ctx: AppContext, editor: { email: string; first_name: string | null; last_name: string | null }, alert: AlertMailContext, added: number[], removed: number[]): void {
  inBackground(
    ctx,
    (async () => {
      const link = await cardLink(ctx, alert);
      await send(ctx, await emailsOf(ctx, removed), 'You’ve been unsubscribed from an alert', [`You’ve been unsubscribed from the alert on ${link}.`]);
      await send(ctx, await emailsOf(ctx, added), `${commonName(editor)} added you to an alert`, [`${escapeHtml(commonName(editor))} added you to an alert on ${link}.`]);
    })(),
  );
}

export function youUnsubscribedMail(ctx: AppContext, email: string, alert: AlertMailContext): void {
  inBackground(
    ctx,
    (async () => {
      await send(ctx, [email], 'You unsubscribed from an alert', [`You unsubscribed from the alert on ${await cardLink(ctx, alert)}. You won’t get it anymore.`]);
    })(),
  );
}

/** The alert's question was archived or deleted: the alert is archived and its recipients are told. */
export function alertStoppedMails(ctx: AppContext, alert: AlertMailContext | null, recipientIds: number[]): void {
  inBackground(
    ctx,
    (async () => {
      const what = alert ? `the alert on ${await cardLink(ctx, alert)}` : 'an alert you received';
      await send(ctx, await emailsOf(ctx, recipientIds), 'One of your alerts has stopped working', [`The question of ${what} was archived or deleted, so the alert has stopped and won’t be sent anymore.`]);
    })(),
  );
}
