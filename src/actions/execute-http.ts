// Running an HTTP action: the form's values fill the `{{tags}}` of the request template (URL-encoded in the URL,
// JSON-encoded in the body and headers; `[[ … ]]` sections are dropped when a tag inside has no value), the request
// goes out through the SSRF guard (setting `http-channel-host-strategy`), and the answer is the JSON response body
// picked by `response_handle` — or a 400 with the part `error_handle` picks when the service answered with an error.

import type { AppContext } from '../context.js';
import { badRequest, messageError } from '../http/errors.js';
import { sendOutbound, OutboundError, type HostPolicy } from '../util/outbound.js';
import { applyJsonQuery } from './json-query.js';
import { boundParameters } from './execute-query.js';
import { parametersOf, templateOf } from './store.js';
import type { ActionRun } from './run.js';
import { jsonDeeperThan } from '../util/json-depth.js';

type Obj = Record<string, unknown>;

const TAG = /\{\{\s*([^}\s]+)\s*\}\}/g;

function fill(text: string, valueOf: (name: string) => unknown, encode: (value: unknown) => string): string {
  const has = (name: string) => valueOf(name) !== undefined && valueOf(name) !== null;
  const withSections = text.replace(/\[\[([\s\S]*?)\]\]/g, (_whole, inner: string) =>
    [...inner.matchAll(TAG)].every((m) => has(m[1])) ? inner : '',
  );
  return withSections.replace(TAG, (_whole, name: string) => {
    if (!has(name)) throw badRequest(`You'll need to pick a value for '${name}' before this action can run.`);
    return encode(valueOf(name));
  });
}

export async function executeHttpAction(ctx: AppContext, run: ActionRun): Promise<unknown> {
  const template = templateOf(run.action) ?? {};
  const given = new Map<string, unknown>();
  for (const p of boundParameters(parametersOf(run.action), run.values)) {
    given.set(String(p.id), p.value);
    if (typeof p.slug === 'string') given.set(p.slug, p.value);
  }
  const mappings = (template.parameter_mappings ?? {}) as Obj;
  const defaults = new Map<string, unknown>();
  for (const p of (template.parameters ?? []) as Obj[]) {
    if (p.default !== undefined) for (const key of [p.id, p.name, p.slug]) if (typeof key === 'string') defaults.set(key, p.default);
  }
  const valueOf = (name: string) => {
    const mapped = mappings[name];
    return given.get(name) ?? (typeof mapped === 'string' ? given.get(mapped) : undefined) ?? defaults.get(name);
  };
  const json = (v: unknown) => JSON.stringify(v);
  const url = fill(String(template.url ?? ''), valueOf, (v) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v)));
  const method = String(template.method ?? 'GET');
  const body = typeof template.body === 'string' && template.body.trim() && method !== 'GET' ? fill(template.body, valueOf, json) : null;
  let headers: Record<string, string> = {};
  if (typeof template.headers === 'string' && template.headers.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fill(template.headers, valueOf, json));
    } catch {
      throw badRequest('The headers of this HTTP action are not a JSON object once filled in.');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('The headers of this HTTP action must be a JSON object.');
    headers = Object.fromEntries(Object.entries(parsed as Obj).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  if (body !== null && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'accept')) headers.Accept = 'application/json';
  const policy = ((await ctx.settings.getString('http-channel-host-strategy')) ?? 'external-only') as HostPolicy;
  let response;
  try {
    response = await sendOutbound({ method, url, headers, body }, policy);
  } catch (error) {
    throw messageError(400, error instanceof OutboundError ? error.message : `Unable to make call to http action: ${(error as Error).message}`, { errors: {} });
  }
  let parsed: unknown = response.body;
  try {
    parsed = response.body ? JSON.parse(response.body) : null;
    // JSON deeper than the server walks (or writes back) is kept as the text it is, like JSON that doesn't parse.
    if (jsonDeeperThan(parsed)) parsed = response.body;
  } catch {
    // not JSON: handles see the text
  }
  if (response.status >= 400) {
    throw messageError(400, 'Unable to make call to http action', { status: response.status, body: applyJsonQuery(parsed, run.action.error_handle) });
  }
  return applyJsonQuery(parsed, run.action.response_handle);
}
