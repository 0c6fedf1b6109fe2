// Models whose revision descriptions need more than the generic per-key fragments (dashboards describe their cards,
// tabs and series) register a describer here; `describeChange` uses it instead of `changeFragments`.

import type { NameLookup } from './describe.js';

type Obj = Record<string, unknown>;

/** The description fragments of one change (joined by `buildSentence`). */
export type ChangeDescriber = (before: Obj, after: Obj, names: NameLookup) => string[];

const describers = new Map<string, ChangeDescriber>();

export function registerChangeDescriber(model: string, describer: ChangeDescriber): void {
  describers.set(model, describer);
}

export function describerFor(model: string): ChangeDescriber | undefined {
  return describers.get(model);
}
