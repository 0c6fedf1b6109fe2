// Field lookups of an embedded dashboard — values, search and remapping of the fields its enabled filters are wired
// to. The token's own values narrow them, as they narrow the filters' values: a viewer whose token fixes
// `tenant=7` sees only the values tenant 7's rows have, never another tenant's (Metabase lists them all; a signed
// token is often the only thing separating customers, so Quarry doesn't).

import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../http/errors.js';
import { SHARING_CALLER } from '../permissions/sharing.js';
import { parametersOf } from '../dashboards/store.js';
import { parameterFieldIds } from '../dashboards/parameters.js';
import { chainFilterValues } from '../dashboards/chain-filter.js';
import { slugOf, visibleDashcards } from '../public/shapes.js';
import { sharedFieldRemapping, sharedFieldSearch, sharedFieldValues } from '../public/values.js';
import type { EmbeddedDashboard } from './embed.js';
import { blank } from './params.js';

interface Constraint {
  type: string;
  value: unknown;
  fieldIds: number[];
}

/** The fields the enabled filters are wired to, and the token's values as constraints on the fields they filter. */
async function lookupsOf(ctx: AppContext, e: EmbeddedDashboard): Promise<{ allowed: number[]; constraints: Constraint[] }> {
  const { dashcards, cards } = await visibleDashcards(ctx, e.dashboard.id);
  const wiring = parameterFieldIds(dashcards, cards);
  const parameters = parametersOf(e.dashboard);
  const allowed = new Set<number>();
  const constraints: Constraint[] = [];
  for (const p of parameters) {
    const slug = slugOf(p);
    const fieldIds = [...(wiring.get(String(p.id)) ?? [])];
    if (e.policy[slug] === 'enabled') for (const id of fieldIds) allowed.add(id);
    const value = Object.hasOwn(e.tokenParams, slug) ? e.tokenParams[slug] : undefined;
    if (!blank(value) && fieldIds.length) constraints.push({ type: String(p.type ?? 'category'), value, fieldIds });
  }
  return { allowed: [...allowed], constraints };
}

function checkUsed(allowed: number[], fieldId: number): void {
  if (!allowed.includes(fieldId)) throw badRequest('Field is not used by this shared item.');
}

export async function embeddedDashboardFieldValues(ctx: AppContext, e: EmbeddedDashboard, fieldId: number) {
  const { allowed, constraints } = await lookupsOf(ctx, e);
  if (!constraints.length) return sharedFieldValues(ctx, allowed, fieldId);
  checkUsed(allowed, fieldId);
  const narrowed = await chainFilterValues(ctx, SHARING_CALLER, [fieldId], constraints, null);
  return { field_id: fieldId, values: narrowed.values, has_more_values: narrowed.has_more_values };
}

export async function embeddedDashboardFieldSearch(ctx: AppContext, e: EmbeddedDashboard, fieldId: number, searchFieldId: number, value: string, limit: number) {
  const { allowed, constraints } = await lookupsOf(ctx, e);
  if (!constraints.length) return sharedFieldSearch(ctx, allowed, fieldId, searchFieldId, value, limit);
  checkUsed(allowed, fieldId);
  // the narrowed values carry their display names, so they answer a search on the field or its name field alike
  const narrowed = await chainFilterValues(ctx, SHARING_CALLER, [fieldId], constraints, value);
  return narrowed.values.slice(0, limit);
}

export async function embeddedDashboardFieldRemapping(ctx: AppContext, e: EmbeddedDashboard, fieldId: number, remappedId: number, value: string) {
  const { allowed, constraints } = await lookupsOf(ctx, e);
  if (constraints.length) {
    checkUsed(allowed, fieldId);
    // only a value the token's rows have may be looked up
    const narrowed = await chainFilterValues(ctx, SHARING_CALLER, [fieldId], constraints, value);
    if (!narrowed.values.some((pair) => String(pair[0]) === value)) throw notFound();
  }
  return sharedFieldRemapping(ctx, allowed, fieldId, remappedId, value);
}
