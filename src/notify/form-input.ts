// GET /api/pulse/form_input: which channels a subscription can use and whether each is set up (reference A1).

import type { AppContext } from '../context.js';
import { isEmailConfigured } from './email/settings.js';
import { hasActiveHttpChannel } from './channels.js';
import { slackChannelOptions } from './slack.js';

const SCHEDULES = ['hourly', 'daily', 'weekly', 'monthly'];

export async function formInput(ctx: AppContext) {
  const [email, http, slack] = await Promise.all([isEmailConfigured(ctx), hasActiveHttpChannel(ctx), slackChannelOptions(ctx)]);
  return {
    channels: {
      email: { type: 'email', name: 'Email', allows_recipients: true, recipients: ['user', 'email'], schedules: SCHEDULES, configured: email },
      slack: {
        type: 'slack',
        name: 'Slack',
        allows_recipients: false,
        schedules: SCHEDULES,
        fields: [{ name: 'channel', type: 'select', displayName: 'Post to', options: slack.options, required: true }],
        configured: slack.configured,
        ...(slack.error ? { error: slack.error } : {}),
      },
      http: { type: 'http', name: 'Webhook', allows_recipients: false, schedules: SCHEDULES, configured: http },
    },
  };
}
