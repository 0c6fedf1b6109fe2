// Email over SMTP with nodemailer, as the email settings say. Security, as in Metabase: `none` plain SMTP, `ssl`
// implicit TLS (smtps), `tls` STARTTLS when the server offers it, `starttls` STARTTLS required.
// Failures are sorted for the scheduler: a 4xx answer, a timeout or a dropped connection is worth retrying
// (TransientError); a 5xx answer or a refused login is not.

import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { AppContext } from '../../context.js';
import { TransientError } from '../../tasks/scheduler.js';
import { senderHeaders, smtpSettings, type SmtpSecurity, type SmtpSettings } from './settings.js';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Set for inline images referenced as `cid:<cid>` from the HTML. */
  cid?: string;
}

export interface OutgoingMail {
  /** Visible recipients. */
  to?: string[];
  /** Hidden recipients (BCC). */
  bcc?: string[];
  subject: string;
  html?: string;
  text?: string;
  attachments?: MailAttachment[];
}

/** A recipient the SMTP server refused at RCPT TO (the others of the message may have been accepted). */
export interface RefusedRecipient {
  address: string;
  /** The SMTP reply code: 4xx may work later, 5xx never will. */
  code: number | null;
  message: string;
}

export interface MailResult {
  accepted: string[];
  refused: RefusedRecipient[];
}

export class EmailNotConfiguredError extends Error {
  constructor() {
    super('SMTP host is not set.');
    this.name = 'EmailNotConfiguredError';
  }
}

const DEFAULT_PORTS: Record<SmtpSecurity, number> = { none: 25, ssl: 465, tls: 587, starttls: 587 };

export function transportOptions(settings: SmtpSettings, timeouts: { connectMs: number; readMs: number } = { connectMs: 10_000, readMs: 30_000 }): SMTPTransport.Options {
  const { security } = settings;
  return {
    host: settings.host,
    port: settings.port ?? DEFAULT_PORTS[security],
    secure: security === 'ssl',
    ignoreTLS: security === 'none',
    requireTLS: security === 'starttls',
    auth: settings.username ? { user: settings.username, pass: settings.password ?? '' } : undefined,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.readMs,
    socketTimeout: timeouts.readMs,
  };
}

/** SMTP error codes nodemailer gives for problems of the connection itself. */
const CONNECTION_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPROTOCOL']);

/** Whether a failed send is worth trying again later. */
export function isTransientMailError(error: unknown): boolean {
  const e = error as { responseCode?: number; code?: string };
  if (typeof e?.responseCode === 'number') return e.responseCode >= 400 && e.responseCode < 500;
  return typeof e?.code === 'string' && CONNECTION_CODES.has(e.code);
}

function refusedOf(errors: unknown): RefusedRecipient[] {
  if (!Array.isArray(errors)) return [];
  return errors.map((e: { recipient?: string; responseCode?: number; response?: string; message?: string }) => ({
    address: String(e.recipient ?? ''),
    code: typeof e.responseCode === 'number' ? e.responseCode : null,
    message: e.response ?? e.message ?? 'refused',
  }));
}

/** The recipients an SMTP error says were all refused (none accepted); empty for any other failure. */
export function allRefused(error: unknown): RefusedRecipient[] {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return refusedOf((cause as { rejectedErrors?: unknown })?.rejectedErrors);
}

/**
 * Sends one message with the SMTP settings in force; resolves with the recipients the server accepted and those it
 * refused (when it accepted some). Throws EmailNotConfiguredError when no host is set, a TransientError for failures
 * worth retrying, the SMTP error otherwise (every recipient refused: see `allRefused`).
 */
export async function sendMail(ctx: AppContext, mail: OutgoingMail): Promise<MailResult> {
  const settings = await smtpSettings(ctx);
  if (!settings) throw new EmailNotConfiguredError();
  const { from, replyTo } = await senderHeaders(ctx);
  const transport = nodemailer.createTransport(transportOptions(settings));
  try {
    const info = await transport.sendMail({
      from,
      replyTo,
      to: mail.to?.length ? mail.to : undefined,
      bcc: mail.bcc?.length ? mail.bcc : undefined,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType, ...(a.cid ? { cid: a.cid, contentDisposition: 'inline' as const } : {}) })),
    });
    return { accepted: (info.accepted ?? []).map(String), refused: refusedOf((info as { rejectedErrors?: unknown }).rejectedErrors) };
  } catch (error) {
    const message = `Sending email failed: ${error instanceof Error ? error.message : String(error)}`;
    if (isTransientMailError(error)) throw new TransientError(message, { cause: error });
    throw new Error(message, { cause: error });
  } finally {
    transport.close();
  }
}

/** Connects and logs in (without sending) with these settings; rejects with nodemailer's error. */
export async function verifySmtp(settings: SmtpSettings, timeouts: { connectMs: number; readMs: number }): Promise<void> {
  const transport = nodemailer.createTransport(transportOptions(settings, timeouts));
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}
