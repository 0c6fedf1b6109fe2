// How alike two entities are, the way Metabase's related-entities recommendations judge it: by the context-bearing
// references of their definitions — fields, metrics and segments — whatever clauses hold them. Similarity is the
// overlap of the two sets over the size of the smaller one (a refinement of a definition is as similar as the
// definition itself). And the "interesting mix" of a ranked list: the best few, plus a few others for variety —
// picked by a stable hash rather than at random, so the same entity gets the same answer every time.

import { createHash } from 'node:crypto';

export const MAX_BEST = 3;
export const MAX_SERENDIPITY = 2;
export const MAX_MATCHES = MAX_BEST + MAX_SERENDIPITY;

const CONTEXT_CLAUSES = new Map([
  ['field', 'field'],
  ['field-id', 'field'],
  ['field-literal', 'field'],
  ['metric', 'metric'],
  ['segment', 'segment'],
]);

function clauseName(head: unknown): string | null {
  if (typeof head !== 'string') return null;
  return CONTEXT_CLAUSES.get(head.toLowerCase().replace(/_/g, '-')) ?? null;
}

/**
 * The context-bearing references anywhere inside `form`: `field:12`, `field:TOTAL` (a field by name), `metric:3`,
 * `segment:4`. A field's options (temporal unit, binning, base type) don't change what it refers to.
 */
export function contextOf(form: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (x: unknown): void => {
    if (!Array.isArray(x)) {
      if (x && typeof x === 'object') for (const v of Object.values(x)) walk(v);
      return;
    }
    const name = clauseName(x[0]);
    if (name !== null && (typeof x[1] === 'number' || typeof x[1] === 'string')) out.add(`${name}:${x[1]}`);
    for (const item of x) walk(item);
  };
  walk(form);
  return out;
}

export function similarity(a: Set<string>, b: Set<string>): number {
  let overlap = 0;
  for (const key of a) if (b.has(key)) overlap += 1;
  return overlap / Math.max(Math.min(a.size, b.size), 1);
}

export interface Ranked<T> {
  item: T;
  similarity: number;
}

/** Most similar first (ties in the order given). */
export function rankBySimilarity<T>(reference: Set<string>, items: T[], contextOfItem: (item: T) => Set<string>): Array<Ranked<T>> {
  return items
    .map((item, index) => ({ item, similarity: similarity(reference, contextOfItem(item)), index }))
    .sort((a, b) => b.similarity - a.similarity || a.index - b.index)
    .map(({ item, similarity: s }) => ({ item, similarity: s }));
}

function stableRank(seed: string, key: string): string {
  return createHash('sha1').update(`${seed}\u0000${key}`).digest('hex');
}

/** The first MAX_BEST, then MAX_SERENDIPITY of the rest chosen by a hash of `seed` and each one's key. */
export function interestingMix<T>(ranked: T[], seed: string, keyOf: (item: T) => string): T[] {
  const best = ranked.slice(0, MAX_BEST);
  const others = ranked
    .slice(MAX_BEST)
    .map((item) => ({ item, rank: stableRank(seed, keyOf(item)) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
    .slice(0, MAX_SERENDIPITY)
    .map((x) => x.item);
  return [...best, ...others];
}
