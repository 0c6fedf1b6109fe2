// Signed embedding (reference §8.1–8.3): what a verified token gives access to, and the parameter values it and the
// viewer's URL may set. Preview (admins, before publishing) ignores the object's `enable_embedding` and takes the
// parameter policy from the token's `_embedding_params` instead of the saved `embedding_params`.
//
// The rest — shapes, running, filter values, field lookups — is shared with public links (src/public).

import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { findCard, type CardRow } from '../cards/store.js';
import { fieldIdOf } from '../cards/parameter-values.js';
import { findDashboard, parametersOf, type DashboardRow, type DashcardRow } from '../dashboards/store.js';
import { sharedCardParameters, slugOf } from '../public/shapes.js';
import { cardQueryParameters, dashcardParameters } from '../public/parameters.js';
import { checkEmbeddingEnabled } from './settings.js';
import { resourceId, verifyEmbedToken, type EmbedClaims } from './token.js';
import { checkEmbedParams, checkEnabledForValues, policyOf, urlParams, viewerMaySet, type EmbedPolicy } from './params.js';

type Obj = Record<string, unknown>;

export const NOT_EMBEDDABLE = 'Embedding is not enabled for this object.';

interface Embedded {
  policy: EmbedPolicy;
  tokenParams: Obj;
}
export interface EmbeddedCard extends Embedded {
  card: CardRow;
}
export interface EmbeddedDashboard extends Embedded {
  dashboard: DashboardRow;
}

async function claimsOf(ctx: AppContext, token: string, preview: boolean): Promise<{ claims: EmbedClaims; policy: EmbedPolicy | null }> {
  await checkEmbeddingEnabled(ctx);
  const claims = await verifyEmbedToken(ctx, token);
  if (!preview) return { claims, policy: null };
  const raw = claims._embedding_params;
  if (raw === undefined || raw === null) throw badRequest('Token is missing value for keypath [:_embedding_params]');
  return { claims, policy: policyOf(raw) };
}

export async function embeddedCard(ctx: AppContext, token: string, preview: boolean): Promise<EmbeddedCard> {
  const { claims, policy } = await claimsOf(ctx, token, preview);
  const card = await findCard(ctx.db, resourceId(claims, 'question'));
  if (!card || bool(card.archived)) throw notFound();
  if (!preview && !bool(card.enable_embedding)) throw badRequest(NOT_EMBEDDABLE);
  return { card, policy: policy ?? policyOf(safeJson(card.embedding_params)), tokenParams: claims.params };
}

export async function embeddedDashboard(ctx: AppContext, token: string, preview: boolean): Promise<EmbeddedDashboard> {
  const { claims, policy } = await claimsOf(ctx, token, preview);
  const dashboard = await findDashboard(ctx.db, resourceId(claims, 'dashboard'));
  if (!dashboard || bool(dashboard.archived)) throw notFound();
  if (!preview && !bool(dashboard.enable_embedding)) throw badRequest(NOT_EMBEDDABLE);
  return { dashboard, policy: policy ?? policyOf(safeJson(dashboard.embedding_params)), tokenParams: claims.params };
}

function safeJson(text: string | null): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The parameters the viewer may set (shown in the embedded card or dashboard). */
export function viewerParameter(e: Embedded): (p: Obj) => boolean {
  return (p) => viewerMaySet(e.policy, e.tokenParams, slugOf(p));
}

// ----- cards -----------------------------------------------------------------------------------------------------

export function embeddedCardParameters(e: EmbeddedCard, query: unknown): Obj[] {
  const values = checkEmbedParams(e.policy, e.tokenParams, urlParams(query));
  const known = new Set(sharedCardParameters(e.card).map(slugOf));
  const requested = Object.entries(values).filter(([slug]) => known.has(slug)).map(([slug, value]) => ({ slug, value }));
  return cardQueryParameters(e.card, requested);
}

function cardParameter(e: EmbeddedCard, key: string): Obj {
  const parameter = sharedCardParameters(e.card).find((p) => String(p.id) === key);
  if (!parameter) throw badRequest(`Card does not have a parameter with the ID ${JSON.stringify(key)}`);
  return parameter;
}

/** 400 unless the card parameter `key` is enabled: only those have values to list. */
export function checkCardValuesParameter(e: EmbeddedCard, key: string): void {
  checkEnabledForValues(e.policy, e.tokenParams, slugOf(cardParameter(e, key)));
}

/** Fields the viewer may look up: those of the enabled parameters. */
export function embeddedCardFieldIds(e: EmbeddedCard): number[] {
  return sharedCardParameters(e.card)
    .filter((p) => e.policy[slugOf(p)] === 'enabled')
    .map((p) => fieldIdOf(e.card, p))
    .filter((id): id is number => id !== null);
}

// ----- dashboards ------------------------------------------------------------------------------------------------

/** The token's values by parameter id (for the text cards of an embedded dashboard). */
export function tokenValuesById(e: EmbeddedDashboard): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const p of parametersOf(e.dashboard)) {
    const slug = slugOf(p);
    if (Object.hasOwn(e.tokenParams, slug)) out.set(String(p.id), e.tokenParams[slug]);
  }
  return out;
}

/** Slug → value from the token and the URL, checked against the policy, as `{id, value}` of the dashboard's filters. */
function dashboardValues(e: EmbeddedDashboard, query: unknown): Obj[] {
  const values = checkEmbedParams(e.policy, e.tokenParams, urlParams(query));
  const parameters = parametersOf(e.dashboard);
  return Object.entries(values).map(([slug, value]) => {
    const parameter = parameters.find((p) => slugOf(p) === slug);
    if (!parameter) throw badRequest(`No matching parameter with slug ${JSON.stringify(slug)}. Found: (${parameters.map((p) => JSON.stringify(slugOf(p))).join(' ')})`);
    return { id: parameter.id, value };
  });
}

export function embeddedDashcardParameters(e: EmbeddedDashboard, dashcard: DashcardRow, card: CardRow, query: unknown): Obj[] {
  return dashcardParameters(e.dashboard, dashcard, card, dashboardValues(e, query));
}

/**
 * For a dashboard filter's values: 400 unless it is enabled; the other filters' values narrowing it (by id), from
 * the URL (`?<id or slug>=value`) and the token (which wins).
 */
export function dashboardValuesRequest(e: EmbeddedDashboard, key: string, query: unknown): Obj {
  const parameters = parametersOf(e.dashboard);
  const parameter = parameters.find((p) => String(p.id) === key);
  if (!parameter) throw badRequest(`Dashboard does not have a parameter with the ID ${JSON.stringify(key)}.`);
  checkEnabledForValues(e.policy, e.tokenParams, slugOf(parameter));
  const constraints: Obj = {};
  for (const [k, value] of Object.entries(urlParams(query))) {
    const other = parameters.find((p) => String(p.id) === k || slugOf(p) === k);
    if (other && e.policy[slugOf(other)] === 'enabled') constraints[String(other.id)] = value;
  }
  for (const [slug, value] of Object.entries(e.tokenParams)) {
    const other = parameters.find((p) => slugOf(p) === slug);
    if (other && value !== null && value !== undefined) constraints[String(other.id)] = value;
  }
  delete constraints[key];
  return constraints;
}
