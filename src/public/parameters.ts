// Parameters sent to shared content are matched against what the card or dashboard defines: a viewer chooses values,
// never targets, types or operators (the lesson of CVE-2026-72899). A value is a scalar or a list of scalars; the
// target and type come from the saved definition; anything unknown is refused.

import { badRequest } from '../http/errors.js';
import { parseJsonParam } from '../http/schema.js';
import type { CardRow } from '../cards/store.js';
import { cardRunParameters } from '../cards/run.js';
import { parametersOf, type DashboardRow, type DashcardRow } from '../dashboards/store.js';
import { dashcardQueryParameters } from '../dashboards/parameters.js';
import { isFilterValue, mappedTargetProblem } from '../dashboards/mapping-targets.js';
import { runParameters } from '../dashboards/dashcard-query.js';
import { sharedCardParameters, slugOf } from './shapes.js';

type Obj = Record<string, unknown>;

const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A value as a viewer may send it: a scalar or a flat list of (at most 10,000) scalars. */
export function checkValue(value: unknown): unknown {
  if (isFilterValue(value) && !(Array.isArray(value) && value.length > 10_000)) return value;
  throw badRequest('Invalid parameter value.');
}

/** `?parameters=<JSON array>` (public links), as a list of `{id, value}` maps. */
export function parseParametersParam(raw: unknown): Obj[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let value: unknown = raw;
  if (typeof raw === 'string') value = parseJsonParam('parameters', raw, () => badRequest('Invalid parameters.'));
  // ids and slugs are names: a map or list there is not a parameter (and must never reach String())
  const named = (p: Obj) => ['id', 'slug'].every((k) => p[k] === undefined || typeof p[k] === 'string' || typeof p[k] === 'number');
  if (!Array.isArray(value) || value.length > 1000 || !value.every((p) => isObj(p) && named(p))) throw badRequest('Invalid parameters.');
  return value as Obj[];
}

/** A value the viewer sent for one definition: `{id, type, target, value}` from the definition. */
function bind(definition: Obj, value: unknown): Obj {
  return {
    id: definition.id,
    type: definition.type,
    ...(definition.target !== undefined ? { target: definition.target } : {}),
    ...(definition.slug !== undefined ? { slug: definition.slug } : {}),
    value: checkValue(value),
  };
}

/** Requested `{id | slug, value}` → the card's own parameters with those values, plus the card's defaults. */
export function cardQueryParameters(card: CardRow, requested: Obj[]): Obj[] {
  const definitions = sharedCardParameters(card);
  const out: Obj[] = [];
  for (const p of requested) {
    const definition =
      definitions.find((d) => p.id !== undefined && String(d.id) === String(p.id)) ??
      definitions.find((d) => p.id === undefined && typeof p.slug === 'string' && slugOf(d) === p.slug);
    if (!definition) throw badRequest('Unknown parameter.');
    if (p.value === undefined) continue;
    out.push(bind(definition, p.value));
  }
  return cardRunParameters(card, out);
}

/** Requested `{id, value}` of a dashboard's filters → the parameters one dashcard's card runs with. */
export function dashcardParameters(dashboard: DashboardRow, dashcard: DashcardRow, card: CardRow, requested: Obj[]): Obj[] {
  const definitions = parametersOf(dashboard);
  const values: Obj[] = [];
  for (const p of requested) {
    const definition = definitions.find((d) => String(d.id) === String(p.id));
    if (!definition) throw badRequest('Unknown parameter.');
    if (p.value === undefined) continue;
    values.push({ id: definition.id, value: checkValue(p.value) });
  }
  const mapped = dashcardQueryParameters(dashboard.id, definitions, dashcard, card.id, values);
  // A value for a filter wired through an unusable target would run unfiltered — for an embed, a locked filter
  // silently not applied: refused instead.
  if (mappedTargetProblem(mapped)) throw badRequest('A filter is wired to this card through an unusable target.');
  return runParameters(card, dashcard, mapped);
}
