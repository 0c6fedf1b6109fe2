// HTTP webhooks (`channel/http`, reference A3): one JSON request to the channel's URL through the outbound address
// policy (setting `http-channel-host-strategy`, MB_HTTP_CHANNEL_HOST_STRATEGY), redirects followed (each hop checked
// again; a hop to another origin carries none of the channel's credentials), a timeout, and the channel's
// authentication: `header` adds auth-info to the headers, `query-param` to the query string, `request-body` to the top level of the JSON body. A non-2xx answer fails the send; 5xx, 408, 429 and
// network trouble are worth retrying (TransientError), other 4xx are not.

import type { AppContext } from '../context.js';
import { sendOutbound, OutboundError, type HostPolicy, type OutboundResponse } from '../util/outbound.js';
import { TransientError } from '../tasks/scheduler.js';

export const AUTH_METHODS = ['none', 'header', 'query-param', 'request-body'] as const;
export const HTTP_METHODS = ['get', 'post', 'put'] as const;
export const FORM_TYPES = ['api-key', 'bearer', 'basic', 'none'] as const;

export interface WebhookDetails {
  url: string;
  'auth-method': (typeof AUTH_METHODS)[number];
  'auth-info'?: Record<string, unknown> | null;
  'fe-form-type'?: string | null;
  method?: (typeof HTTP_METHODS)[number] | null;
}

const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

/** The receiver answered, but not with a 2xx. */
export class WebhookStatusError extends Error {
  constructor(
    readonly status: number,
    readonly responseBody: unknown,
  ) {
    super(`The webhook answered ${status}.`);
    this.name = 'WebhookStatusError';
  }
}

function timeoutMs(ctx: AppContext): number {
  const n = Number(ctx.config.env.QUARRY_WEBHOOK_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : TIMEOUT_MS;
}

function parsedBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

export async function hostPolicy(ctx: AppContext): Promise<HostPolicy> {
  return ((await ctx.settings.getString('http-channel-host-strategy')) ?? 'external-only') as HostPolicy;
}

/** Header names that carry credentials whatever the channel's auth-method. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/** The request with the channel's authentication applied. */
function authenticated(details: WebhookDetails, payload: Record<string, unknown>) {
  const info = details['auth-info'] ?? {};
  const auth = Object.fromEntries(Object.entries(info).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  let body: Record<string, unknown> = payload;
  let url = details.url;
  if (details['auth-method'] === 'header') Object.assign(headers, auth);
  if (details['auth-method'] === 'request-body') body = { ...payload, ...info };
  if (details['auth-method'] === 'query-param') {
    const u = new URL(url);
    for (const [k, v] of Object.entries(auth)) u.searchParams.set(k, v);
    url = u.toString();
  }
  return { url, headers, body, auth };
}

/**
 * A redirect to another origin gets none of the channel's credentials: no auth headers (nor any credential header),
 * no auth keys in the JSON body, no auth query parameters carried into the new URL.
 */
function withoutCredentials(hop: { url: string; headers: Record<string, string>; body: Record<string, unknown> | null }, details: WebhookDetails, auth: Record<string, string>) {
  const authKeys = new Set(Object.keys(auth).map((k) => k.toLowerCase()));
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k.toLowerCase()) && !(details['auth-method'] === 'header' && authKeys.has(k.toLowerCase()))));
  let body = hop.body;
  if (body && details['auth-method'] === 'request-body') body = Object.fromEntries(Object.entries(body).filter(([k]) => !(k in (details['auth-info'] ?? {}))));
  const u = new URL(hop.url);
  if (details['auth-method'] === 'query-param') for (const [k, v] of Object.entries(auth)) if (u.searchParams.get(k) === v) u.searchParams.delete(k);
  return { url: u.toString(), headers, body };
}

/** Sends `payload` to the channel; resolves with the 2xx response, rejects as described above. */
export async function postWebhook(ctx: AppContext, details: WebhookDetails, payload: Record<string, unknown>): Promise<OutboundResponse> {
  const first = authenticated(details, payload);
  const method = (details.method ?? 'post').toUpperCase();
  const policy = await hostPolicy(ctx);
  const origin = new URL(first.url).origin;
  let hop: { url: string; headers: Record<string, string>; body: Record<string, unknown> | null } = { url: first.url, headers: first.headers, body: method === 'GET' ? null : first.body };
  let response: OutboundResponse;
  let hops = 0;
  let currentMethod = method;
  let credentials = true;
  for (;;) {
    try {
      response = await sendOutbound({ method: currentMethod, url: hop.url, headers: hop.headers, body: hop.body === null ? null : JSON.stringify(hop.body), timeoutMs: timeoutMs(ctx) }, policy);
    } catch (error) {
      // a refused address is a setting to change, not something time will fix
      const refused = error instanceof OutboundError && /not allowed|Invalid URL|Only http/.test(error.message);
      if (refused) throw error;
      throw new TransientError(error instanceof Error ? error.message : String(error), { cause: error });
    }
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location && hops < MAX_REDIRECTS) {
      hops += 1;
      hop = { ...hop, url: new URL(location, hop.url).toString() };
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && currentMethod === 'POST')) {
        currentMethod = 'GET';
        hop.body = null;
      }
      // once the request has left the channel's origin it never carries the credentials again
      if (credentials && new URL(hop.url).origin !== origin) credentials = false;
      if (!credentials) hop = withoutCredentials(hop, details, first.auth);
      continue;
    }
    break;
  }
  if (response.status >= 200 && response.status < 300) return response;
  const failure = new WebhookStatusError(response.status, parsedBody(response.body));
  if (response.status >= 500 || response.status === 408 || response.status === 429) throw new TransientError(failure.message, { cause: failure });
  throw failure;
}
