// Outgoing email. Until SMTP delivery is configured, messages are written to the server log so that flows which
// send links (password reset) still work for an operator; tests swap in a capturing mailer.

import type { AppContext } from '../context.js';

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
