// The mailer other modules send their one-off messages through (`ctx.mailer`: the password-reset link, the test
// email): SMTP when a host is configured (./email/smtp.ts), otherwise the message is written to the server log so
// that flows which send links still work for an operator. Tests swap in a capturing mailer.

import type { AppContext } from '../context.js';
import { sendMail } from './email/smtp.js';
import { isEmailConfigured } from './email/settings.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function logMailer(ctx: Pick<AppContext, 'log'>): Mailer {
  return {
    async send(message) {
      ctx.log.warn({ to: message.to, subject: message.subject }, `email not configured; message not sent:\n${message.text}`);
    },
  };
}

/** SMTP when configured, the log otherwise (checked per message: settings can change at any time). */
export function systemMailer(ctx: AppContext): Mailer {
  const fallback = logMailer(ctx);
  return {
    async send(message) {
      if (!(await isEmailConfigured(ctx))) return fallback.send(message);
      await sendMail(ctx, { to: [message.to], subject: message.subject, text: message.text });
    },
  };
}
