// /api/slack — connecting a Slack app (its bot token, checked with Slack before it is saved) and its manifest.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { saveSlackSettings, SLACK_MANIFEST } from '../notify/slack.js';

export function slackRoutes(r: Routes): void {
  r.put(
    '/api/slack/settings',
    { auth: 'admin', body: { 'slack-app-token': s.maybe(s.str()), 'slack-bug-report-channel': s.maybe(s.str()) } },
    async ({ ctx, caller, body, bodyKeys }) => {
      await saveSlackSettings(ctx, caller, {
        token: body['slack-app-token'] ? body['slack-app-token'] : null,
        bugReportChannel: bodyKeys.has('slack-bug-report-channel') ? body['slack-bug-report-channel'] : undefined,
      });
      return { ok: true };
    },
  );
  r.get('/api/slack/manifest', { auth: 'admin' }, () => new Respond(200, SLACK_MANIFEST, { 'Content-Type': 'text/plain; charset=utf-8' }));
}
