// Setting up email over the API, as Metabase does (PUT/DELETE /api/email, POST /api/email/test): the SMTP settings
// are tried before they are saved — with the security asked for, then tls, starttls and ssl in turn, keeping the
// first that works (reported in `with-corrections`) — and a failure comes back as a message a person can act on:
// the host or port is wrong, the login was refused, or what else went wrong.

import type { AppContext } from '../../context.js';
import type { Caller } from '../../http/caller.js';
import { ApiError, fieldError, messageError } from '../../http/errors.js';
import { findSetting } from '../../settings/definition.js';
import { errorMessage } from '../../tasks/history.js';
import { EMAIL_SETTING_KEYS, isEmailConfigured, type SmtpSecurity, type SmtpSettings } from './settings.js';
import { EmailNotConfiguredError, sendMail, verifySmtp } from './smtp.js';

/** Metabase tests SMTP settings with a 1 s connect and 4 s read timeout. */
const CHECK_TIMEOUTS = { connectMs: 1_000, readMs: 4_000 };
const FALLBACK_PAUSE_MS = 500;

const HOST_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'ESOCKET', 'ENOTFOUND']);

/** Metabase's humanized SMTP errors: the fields to blame, or a general message. */
export function smtpProblem(error: unknown): ApiError {
  const e = error as { code?: string; responseCode?: number };
  if (e?.code === 'EAUTH' || e?.responseCode === 535) {
    return new ApiError(400, { errors: { 'email-smtp-username': 'Wrong username or password', 'email-smtp-password': 'Wrong username or password' } });
  }
  if (e?.code && HOST_CODES.has(e.code)) {
    return new ApiError(400, { errors: { 'email-smtp-host': 'Wrong host or port', 'email-smtp-port': 'Wrong host or port' } });
  }
  return messageError(400, `Sorry, something went wrong. Please try again. Error: ${errorMessage(error)}`);
}

type EmailInput = Partial<Record<(typeof EMAIL_SETTING_KEYS)[number], unknown>>;

function isEnvControlled(ctx: AppContext, key: string): boolean {
  const definition = findSetting(key);
  return definition ? ctx.settings.isEnvSetting(definition) : false;
}

/** The value in force for a key: its environment variable's, else the one sent (an obfuscated password: the stored one). */
async function effective(ctx: AppContext, input: EmailInput, key: (typeof EMAIL_SETTING_KEYS)[number]): Promise<unknown> {
  if (isEnvControlled(ctx, key)) return ctx.settings.get(key);
  const value = input[key];
  if (key === 'email-smtp-password' && typeof value === 'string' && /^\*{10}.{0,2}$/.test(value)) return ctx.settings.get(key);
  return value ?? null;
}

const SECURITY_NAMES: Record<SmtpSecurity, string> = { none: 'None', ssl: 'SSL', tls: 'TLS', starttls: 'STARTTLS' };

/** PUT /api/email: checks the SMTP settings against the server, then saves them. */
export async function saveEmailSettings(ctx: AppContext, caller: Caller, input: EmailInput): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const key of EMAIL_SETTING_KEYS) values[key] = await effective(ctx, input, key);
  if (typeof values['email-smtp-host'] !== 'string' || !values['email-smtp-host'].trim()) throw fieldError('email-smtp-host', 'value must be a non-blank string.');
  const asked = ((values['email-smtp-security'] as string | null) ?? 'none') as SmtpSecurity;
  const settings = (security: SmtpSecurity): SmtpSettings => ({
    host: String(values['email-smtp-host']),
    port: values['email-smtp-port'] === null ? null : Number(values['email-smtp-port']),
    security,
    username: (values['email-smtp-username'] as string | null) || null,
    password: (values['email-smtp-password'] as string | null) || null,
  });
  let working: SmtpSecurity | null = null;
  let firstError: unknown = null;
  for (const security of [asked, ...(['tls', 'starttls', 'ssl'] as const).filter((s) => s !== asked)]) {
    if (working === null && security !== asked) await new Promise((r) => setTimeout(r, FALLBACK_PAUSE_MS));
    try {
      await verifySmtp(settings(security), CHECK_TIMEOUTS);
      working = security;
      break;
    } catch (error) {
      firstError ??= error;
      // a refused login fails the same way whatever the security: no point trying the others
      if ((error as { code?: string }).code === 'EAUTH') break;
    }
  }
  if (working === null) throw smtpProblem(firstError);
  values['email-smtp-security'] = working;
  const writable = Object.fromEntries(Object.entries(values).filter(([key]) => !isEnvControlled(ctx, key)));
  await ctx.settings.setMany(writable, caller);
  const saved: Record<string, unknown> = {};
  for (const key of EMAIL_SETTING_KEYS) saved[key] = await ctx.settings.get(key);
  if (typeof saved['email-smtp-password'] === 'string') saved['email-smtp-password'] = obfuscated(saved['email-smtp-password'] as string);
  if (working !== asked) saved['with-corrections'] = { 'email-smtp-security': `security was autocorrected to ${SECURITY_NAMES[working]}` };
  return saved;
}

function obfuscated(value: string): string {
  return '**********' + value.slice(-2);
}

/** DELETE /api/email: forgets the email settings (those set by environment variables stay). */
export async function clearEmailSettings(ctx: AppContext, caller: Caller): Promise<void> {
  const updates = Object.fromEntries(EMAIL_SETTING_KEYS.filter((key) => !isEnvControlled(ctx, key)).map((key) => [key, null]));
  await ctx.settings.setMany(updates, caller);
}

/** POST /api/email/test: a plain message to the caller. */
export async function sendTestEmail(ctx: AppContext, caller: Caller): Promise<{ ok: true }> {
  if (!(await isEmailConfigured(ctx))) throw messageError(400, 'Email is not configured: set the SMTP settings first.');
  const app = (await ctx.settings.getString('application-name')) ?? 'Metabase';
  try {
    await sendMail(ctx, { to: [caller.user.email], subject: `${app} Test Email`, text: `Your ${app} emails are working — hooray!` });
  } catch (error) {
    if (error instanceof EmailNotConfiguredError) throw messageError(400, error.message);
    throw smtpProblem((error as { cause?: unknown }).cause ?? error);
  }
  return { ok: true };
}
