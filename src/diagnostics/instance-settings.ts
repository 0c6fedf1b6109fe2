// Settings the instance facts read by Metabase's names, through the settings registry: a setting no module defines
// (yet) reads as null, the feature it belongs to absent — so email and Slack read the same way once the notification
// module defines them.

import type { AppContext } from '../context.js';
import { findSetting } from '../settings/definition.js';

export async function settingIfDefined(ctx: AppContext, key: string): Promise<unknown> {
  return findSetting(key) ? ctx.settings.get(key) : null;
}

export const isSet = (value: unknown) => value !== null && value !== undefined && value !== '';

/** Email is configured once an SMTP host is set (Metabase's `email-configured?`). */
export async function emailConfigured(ctx: AppContext): Promise<boolean> {
  return isSet(await settingIfDefined(ctx, 'email-smtp-host'));
}

/** Slack is configured with an app token (`slack-app-token`) or a legacy one (`slack-token`). */
export async function slackConfigured(ctx: AppContext): Promise<boolean> {
  const [app, legacy] = await Promise.all([settingIfDefined(ctx, 'slack-app-token'), settingIfDefined(ctx, 'slack-token')]);
  return isSet(app) || isSet(legacy);
}
