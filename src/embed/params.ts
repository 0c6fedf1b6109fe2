// Which parameters of an embedded card or dashboard may be set, and by whom (`embedding_params`, reference §8.1):
//   enabled   from the token's `params` or the URL's query string (not both), optional;
//   locked    from the token only, and required there (an explicit null means "no filter");
//   disabled  from nobody; and parameters the map doesn't name at all are unknown.
// Blank values (null, "", []) don't count as given, except a locked parameter's key in the token.
// Messages name a parameter as Metabase prints it: a keyword (`:cat`) when checking values, a quoted string when
// listing a parameter's values.

import { badRequest } from '../http/errors.js';

export type EmbedLevel = 'enabled' | 'locked' | 'disabled';
export type EmbedPolicy = Record<string, EmbedLevel>;

type Obj = Record<string, unknown>;

/** Query-string keys of embed endpoints that are options, not parameter values. */
const OPTION_KEYS = new Set(['format_rows', 'pivot_results']);

/** A slug as Metabase prints a parameter key (a Clojure keyword): `:cat`. */
const keyword = (slug: string) => `:${slug}`;

/** No value: nothing, an empty string or an empty list. */
export function blank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

export function policyOf(value: unknown): EmbedPolicy {
  const out: EmbedPolicy = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [slug, level] of Object.entries(value)) {
    if (level === 'enabled' || level === 'locked' || level === 'disabled') out[slug] = level;
  }
  return out;
}

/** The URL's parameter values (`?slug=value`, repeated for several), without the endpoint's own options. */
export function urlParams(query: unknown): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries((query ?? {}) as Obj)) if (!OPTION_KEYS.has(key)) out[key] = value;
  return out;
}

/** Checks who set which parameter against the policy; the merged values by slug (token values win). */
export function checkEmbedParams(policy: EmbedPolicy, tokenParams: Obj, fromUrl: Obj): Obj {
  const token = new Set(Object.keys(tokenParams).filter((k) => !blank(tokenParams[k])));
  const url = new Set(Object.keys(fromUrl).filter((k) => !blank(fromUrl[k])));
  for (const [slug, level] of Object.entries(policy)) {
    if (level === 'disabled' && (token.has(slug) || url.has(slug))) throw badRequest(`You're not allowed to specify a value for ${keyword(slug)}.`);
  }
  for (const [slug, level] of Object.entries(policy)) {
    if (level !== 'locked') continue;
    if (!Object.hasOwn(tokenParams, slug)) throw badRequest(`You must specify a value for ${keyword(slug)} in the JWT.`);
    if (url.has(slug)) throw badRequest(`You can only specify a value for ${keyword(slug)} in the JWT.`);
  }
  for (const slug of token) if (url.has(slug)) throw badRequest(`You can't specify a value for ${keyword(slug)} if it's already set in the JWT.`);
  for (const slug of new Set([...token, ...url])) if (!Object.hasOwn(policy, slug)) throw badRequest(`Unknown parameter ${keyword(slug)}.`);
  const merged: Obj = {};
  for (const slug of url) merged[slug] = fromUrl[slug];
  for (const slug of Object.keys(tokenParams)) if (Object.hasOwn(policy, slug) && (token.has(slug) || policy[slug] === 'locked')) merged[slug] = tokenParams[slug];
  return merged;
}

/** Whether a viewer may set (and so see and search) this parameter: enabled, and not already set by the token. */
export function viewerMaySet(policy: EmbedPolicy, tokenParams: Obj, slug: string): boolean {
  return policy[slug] === 'enabled' && blank(tokenParams[slug]);
}

/**
 * 400 unless the viewer may set the parameter: listing or searching the values of a locked or disabled one, or of
 * one the token already sets.
 */
export function checkEnabledForValues(policy: EmbedPolicy, tokenParams: Obj, slug: string): void {
  const quoted = JSON.stringify(slug);
  if (policy[slug] !== 'enabled') throw badRequest(`Cannot search for values: ${quoted} is not an enabled parameter.`);
  if (Object.hasOwn(tokenParams, slug) && !blank(tokenParams[slug])) {
    throw badRequest(`You can't specify a value for ${quoted} if it's already set in the JWT.`);
  }
}
