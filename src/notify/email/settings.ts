// Email settings, as Metabase names them (reference A5). `email-configured?` is true once a host is set.

import { defineSetting } from '../../settings/definition.js';
import { badRequest } from '../../http/errors.js';
import type { AppContext } from '../../context.js';

export const SMTP_SECURITIES = ['none', 'ssl', 'tls', 'starttls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITIES)[number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 254 && EMAIL.test(value);
}

/** The settings PUT /api/email takes (and DELETE /api/email clears). */
export const EMAIL_SETTING_KEYS = [
  'email-smtp-host',
  'email-smtp-port',
  'email-smtp-security',
  'email-smtp-username',
  'email-smtp-password',
  'email-from-address',
  'email-from-name',
  'email-reply-to',
] as const;

defineSetting({ key: 'email-smtp-host', type: 'string', visibility: 'settings-manager', default: null, description: 'The address of the SMTP server that handles your emails.' });
defineSetting({ key: 'email-smtp-port', type: 'integer', visibility: 'settings-manager', default: null, range: { min: 1, max: 65535 }, description: 'The port your SMTP server uses for outgoing emails.' });
defineSetting({
  key: 'email-smtp-security',
  type: 'keyword',
  visibility: 'settings-manager',
  default: 'none',
  description: 'SMTP secure connection protocol. (tls, ssl, starttls, or none)',
  validate: (value) => {
    const v = String(value).toLowerCase();
    if (!(SMTP_SECURITIES as readonly string[]).includes(v)) throw badRequest(`Invalid value for email-smtp-security: ${JSON.stringify(value)}. Use one of: ${SMTP_SECURITIES.join(', ')}.`);
    return v;
  },
});
defineSetting({ key: 'email-smtp-username', type: 'string', visibility: 'settings-manager', default: null, description: 'SMTP username.' });
defineSetting({ key: 'email-smtp-password', type: 'string', visibility: 'settings-manager', default: null, sensitive: true, description: 'SMTP password.' });
defineSetting({
  key: 'email-from-address',
  type: 'string',
  visibility: 'settings-manager',
  default: 'notifications@metabase.com',
  description: 'The email address you want to use for the sender of emails.',
  validate: (value) => {
    if (!isEmailAddress(value)) throw badRequest(`Invalid email address: ${JSON.stringify(value)}`);
    return value;
  },
});
defineSetting({ key: 'email-from-name', type: 'string', visibility: 'settings-manager', default: null, description: 'The name you want to use for the sender of emails.' });
defineSetting({
  key: 'email-reply-to',
  type: 'json',
  visibility: 'settings-manager',
  default: null,
  description: 'The email address you want the replies to go to, if different from the from address.',
  validate: (value) => {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || !list.every(isEmailAddress)) throw badRequest('email-reply-to must be a list of email addresses.');
    return list;
  },
});
defineSetting({ key: 'bcc-enabled?', type: 'boolean', visibility: 'settings-manager', default: true, description: 'Whether or not bcc emails are enabled, default behavior is that it is' });
defineSetting({ key: 'email-configured?', type: 'boolean', visibility: 'public', description: 'Check whether Metabase is configured to send emails.', getter: (ctx) => isEmailConfigured(ctx) });

export async function isEmailConfigured(ctx: AppContext): Promise<boolean> {
  return Boolean(await ctx.settings.getString('email-smtp-host'));
}

export interface SmtpSettings {
  host: string;
  port: number | null;
  security: SmtpSecurity;
  username: string | null;
  password: string | null;
}

/** The SMTP server settings in force (env vars over stored values), or null when no host is set. */
export async function smtpSettings(ctx: AppContext): Promise<SmtpSettings | null> {
  const host = await ctx.settings.getString('email-smtp-host');
  if (!host) return null;
  return {
    host,
    port: await ctx.settings.getNumber('email-smtp-port'),
    security: ((await ctx.settings.getString('email-smtp-security')) ?? 'none') as SmtpSecurity,
    username: await ctx.settings.getString('email-smtp-username'),
    password: await ctx.settings.getString('email-smtp-password'),
  };
}

/** From and Reply-To as the settings say (`"Name" <address>` when a from-name is set). */
export async function senderHeaders(ctx: AppContext): Promise<{ from: string | { name: string; address: string }; replyTo: string[] | undefined }> {
  const address = (await ctx.settings.getString('email-from-address')) ?? 'notifications@metabase.com';
  const name = await ctx.settings.getString('email-from-name');
  const replyTo = (await ctx.settings.get('email-reply-to')) as string[] | null;
  return { from: name ? { name, address } : address, replyTo: Array.isArray(replyTo) && replyTo.length ? replyTo : undefined };
}
