// Slack, as Metabase supports it: a Slack app's bot token (setting `slack-app-token`, saved by PUT /api/slack/settings
// once Slack accepts it). Until a token is set Slack is reported unconfigured. Messages go out with the Web API:
// each chart is uploaded (files.getUploadURLExternal → upload → files.completeUploadExternal) and shown in an image
// block of one chat.postMessage. Calls go through the outbound address policy; the API's address can be changed
// with QUARRY_SLACK_API_URL (a Slack-compatible gateway, or a test receiver).
//
// Failures: a bad or revoked token is permanent (and marks `slack-token-valid?` false); rate limits, 5xx answers and
// network trouble are worth retrying.

import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { defineSetting } from '../settings/definition.js';
import { sendOutbound, OutboundError } from '../util/outbound.js';
import { TransientError } from '../tasks/scheduler.js';
import { hostPolicy } from './webhook.js';

defineSetting({ key: 'slack-app-token', type: 'string', visibility: 'settings-manager', default: null, sensitive: true, description: 'Bot user OAuth token for connecting the Metabase Slack app. This should be used for all new Slack integrations starting in Metabase v0.42.0.' });
defineSetting({ key: 'slack-token-valid?', type: 'boolean', visibility: 'settings-manager', default: false, description: 'Whether the current Slack app token, if set, is valid. Set to false if a Slack API request returns an auth error.' });
defineSetting({ key: 'slack-bug-report-channel', type: 'string', visibility: 'settings-manager', default: 'metabase-bugs', description: 'The channel to send bug reports to.' });
defineSetting({ key: 'slack-files-channel', type: 'string', visibility: 'settings-manager', default: 'metabase_files', description: 'The Slack channel to which images are uploaded (no longer needed since images are uploaded directly).' });

const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive', 'missing_scope']);
const TIMEOUT_MS = 15_000;

export class SlackError extends Error {
  constructor(readonly code: string) {
    super(`Slack answered: ${code}`);
    this.name = 'SlackError';
  }
}

function apiBase(ctx: AppContext): string {
  return (ctx.config.env.QUARRY_SLACK_API_URL || 'https://slack.com/api').replace(/\/+$/, '');
}

async function slackToken(ctx: AppContext): Promise<string | null> {
  return ctx.settings.getString('slack-app-token');
}

type Obj = Record<string, unknown>;

/** One Web API call (JSON body, or form fields for GET-style methods). */
async function call(ctx: AppContext, token: string, method: string, body: Obj): Promise<Obj> {
  let response;
  try {
    response = await sendOutbound(
      { method: 'POST', url: `${apiBase(ctx)}/${method}`, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS },
      await hostPolicy(ctx),
    );
  } catch (error) {
    if (error instanceof OutboundError && /not allowed|Invalid URL/.test(error.message)) throw error;
    throw new TransientError(`Slack could not be reached: ${(error as Error).message}`, { cause: error });
  }
  if (response.status === 429 || response.status >= 500) throw new TransientError(`Slack answered ${response.status}.`);
  let parsed: Obj;
  try {
    parsed = JSON.parse(response.body) as Obj;
  } catch {
    throw new TransientError(`Slack answered ${response.status} without JSON.`);
  }
  if (parsed.ok !== true) {
    const code = String(parsed.error ?? 'unknown_error');
    if (AUTH_ERRORS.has(code)) await ctx.settings.writeStored('slack-token-valid?', 'false').catch(() => {});
    if (code === 'ratelimited' || code === 'internal_error' || code === 'service_unavailable' || code === 'request_timeout') throw new TransientError(`Slack answered: ${code}`);
    throw new SlackError(code);
  }
  return parsed;
}

/** PUT /api/slack/settings: checks the token with Slack (auth.test) before saving it; null clears Slack. */
export async function saveSlackSettings(ctx: AppContext, caller: Parameters<AppContext['settings']['setMany']>[1], input: { token: string | null; bugReportChannel: string | null | undefined }): Promise<void> {
  if (input.token === null) {
    await ctx.settings.setMany({ 'slack-app-token': null, 'slack-token-valid?': false }, caller);
    channelCache.delete(ctx);
    return;
  }
  try {
    await call(ctx, input.token, 'auth.test', {});
  } catch (error) {
    if (error instanceof SlackError) throw new ApiError(400, { errors: { 'slack-app-token': 'invalid token' } });
    throw new ApiError(400, { message: `Slack could not check the token: ${(error as Error).message}` });
  }
  await ctx.settings.setMany({ 'slack-app-token': input.token, 'slack-token-valid?': true, ...(input.bugReportChannel !== undefined ? { 'slack-bug-report-channel': input.bugReportChannel } : {}) }, caller);
  channelCache.delete(ctx);
}

// ----- channel and user names for the "Post to" choice ------------------------------------------------------------

const CACHE_MS = 10 * 60_000;
const channelCache = new WeakMap<AppContext, { at: number; options: string[] }>();

async function pagedNames(ctx: AppContext, token: string, method: string, body: Obj, key: string, name: (item: Obj) => string | null): Promise<string[]> {
  const out: string[] = [];
  let cursor = '';
  for (let page = 0; page < 50; page++) {
    const answer = await call(ctx, token, method, { ...body, limit: 1000, ...(cursor ? { cursor } : {}) });
    for (const item of (answer[key] as Obj[] | undefined) ?? []) {
      const n = name(item);
      if (n) out.push(n);
    }
    cursor = String((answer.response_metadata as Obj | undefined)?.next_cursor ?? '');
    if (!cursor) break;
  }
  return out;
}

/** The "Post to" options: `#channel` and `@user` names (cached for ten minutes), and whether Slack is configured. */
export async function slackChannelOptions(ctx: AppContext): Promise<{ configured: boolean; options: string[]; error?: string }> {
  const token = await slackToken(ctx);
  if (!token) return { configured: false, options: [] };
  const cached = channelCache.get(ctx);
  if (cached && Date.now() - cached.at < CACHE_MS) return { configured: true, options: cached.options };
  try {
    const channels = await pagedNames(ctx, token, 'conversations.list', { types: 'public_channel,private_channel', exclude_archived: true }, 'channels', (c) => (typeof c.name === 'string' ? `#${c.name}` : null));
    const users = await pagedNames(ctx, token, 'users.list', {}, 'members', (u) => (typeof u.name === 'string' && u.deleted !== true && u.is_bot !== true ? `@${u.name}` : null));
    const options = [...channels, ...users];
    channelCache.set(ctx, { at: Date.now(), options });
    return { configured: true, options };
  } catch (error) {
    return { configured: true, options: cached?.options ?? [], error: (error as Error).message };
  }
}

// ----- sending ----------------------------------------------------------------------------------------------------

export interface SlackAttachment {
  title: string;
  titleUrl: string;
  /** A rendered chart or table; text otherwise. */
  png: Buffer | null;
  text: string | null;
}

async function uploadImage(ctx: AppContext, token: string, title: string, png: Buffer): Promise<string> {
  const filename = `${title.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'chart'}.png`;
  const target = await call(ctx, token, 'files.getUploadURLExternal', { filename, length: png.length });
  const uploadUrl = String(target.upload_url ?? '');
  const fileId = String(target.file_id ?? '');
  let uploaded;
  try {
    uploaded = await sendOutbound({ method: 'POST', url: uploadUrl, headers: { 'Content-Type': 'application/octet-stream' }, body: png, timeoutMs: TIMEOUT_MS }, await hostPolicy(ctx));
  } catch (error) {
    throw new TransientError(`Uploading to Slack failed: ${(error as Error).message}`, { cause: error });
  }
  if (uploaded.status >= 300) throw new TransientError(`Uploading to Slack failed with ${uploaded.status}.`);
  await call(ctx, token, 'files.completeUploadExternal', { files: [{ id: fileId, title }] });
  return fileId;
}

/** Posts a message (a header, then a section per card: its linked title and its image or text) to `channel`. */
export async function postToSlack(ctx: AppContext, channel: string, header: string, attachments: SlackAttachment[]): Promise<void> {
  const token = await slackToken(ctx);
  if (!token) throw new SlackError('not_configured');
  const blocks: Obj[] = [{ type: 'header', text: { type: 'plain_text', text: header.slice(0, 150), emoji: true } }];
  for (const a of attachments) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `<${a.titleUrl}|${a.title.replace(/[<>|]/g, ' ')}>` } });
    if (a.png) {
      const fileId = await uploadImage(ctx, token, a.title, a.png);
      blocks.push({ type: 'image', slack_file: { id: fileId }, alt_text: a.title.slice(0, 2000) });
    } else if (a.text) {
      blocks.push({ type: 'section', text: { type: 'mrkdwn', text: a.text.slice(0, 3000) } });
    }
  }
  // Slack takes at most 50 blocks a message
  for (let i = 0; i < blocks.length; i += 50) {
    await call(ctx, token, 'chat.postMessage', { channel: channel.replace(/^#/, ''), text: header, blocks: blocks.slice(i, i + 50) });
  }
}

/** The manifest an admin pastes into Slack to create the app (the scopes the calls above need). */
export const SLACK_MANIFEST = `_metadata:
  major_version: 1
  minor_version: 1
display_information:
  name: Metabase
  description: Dashboard subscriptions and alerts from Metabase
  background_color: "#509EE3"
features:
  bot_user:
    display_name: Metabase
    always_online: true
oauth_config:
  scopes:
    bot:
      - users:read
      - channels:read
      - channels:join
      - files:write
      - chat:write
      - chat:write.customize
      - chat:write.public
      - groups:read
settings:
  org_deploy_enabled: false
  socket_mode_enabled: false
  is_hosted: false
  token_rotation_enabled: false
`;
