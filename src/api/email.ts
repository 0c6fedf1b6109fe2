// /api/email — SMTP settings (saved only once the server accepts them), clearing them, and a test message.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { clearEmailSettings, saveEmailSettings, sendTestEmail } from '../notify/email/config.js';
import { SMTP_SECURITIES, isEmailAddress } from '../notify/email/settings.js';

export function emailRoutes(r: Routes): void {
  r.put(
    '/api/email',
    {
      auth: 'admin',
      body: {
        'email-smtp-host': s.maybe(s.nbstr()),
        'email-smtp-port': s.maybe(s.check<number>('value must be an integer from 1 to 65535.', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535)),
        'email-smtp-security': s.maybe(s.enum(SMTP_SECURITIES)),
        'email-smtp-username': s.maybe(s.str()),
        'email-smtp-password': s.maybe(s.str()),
        'email-from-address': s.maybe(s.email()),
        'email-from-name': s.maybe(s.str()),
        'email-reply-to': s.maybe(s.check<string[]>('value must be a list of email addresses.', (v) => Array.isArray(v) && v.every(isEmailAddress))),
      },
    },
    ({ ctx, caller, body }) => saveEmailSettings(ctx, caller, body),
  );
  r.delete('/api/email', { auth: 'admin' }, async ({ ctx, caller }) => {
    await clearEmailSettings(ctx, caller);
    return Respond.noContent();
  });
  r.post('/api/email/test', { auth: 'admin' }, ({ ctx, caller }) => sendTestEmail(ctx, caller));
}
