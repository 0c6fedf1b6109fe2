// Which subtotal levels a pivot result holds (../pivot.ts runs one query per level). A level is the list of breakout
// indexes it keeps; its rows carry `pivot-grouping`, the bitmask of the breakouts it leaves out.

import { invalidQuery } from './errors.js';

/** Without pivot rows and columns: at most this many breakouts (2^n levels, one query each). */
export const MAX_PIVOT_BREAKOUTS = 10;

export function groupingBitmask(breakoutCount: number, kept: number[]): number {
  let mask = 0;
  for (let i = 0; i < breakoutCount; i++) if (!kept.includes(i)) mask |= 1 << i;
  return mask;
}

function checkIndexes(name: string, indexes: unknown, breakoutCount: number): number[] {
  if (indexes === undefined || indexes === null) return [];
  if (!Array.isArray(indexes)) throw invalidQuery(`Invalid ${name}: it should be a list of breakout indexes.`);
  for (const i of indexes) {
    if (!Number.isInteger(i) || (i as number) < 0 || (i as number) >= breakoutCount) {
      throw invalidQuery(`Invalid ${name}: specified breakout at index ${JSON.stringify(i)}, but we only have ${breakoutCount} breakouts.`);
    }
  }
  return indexes as number[];
}

/**
 * The levels of a pivot result, as Metabase computes them. Without pivot rows and columns: every combination of
 * breakouts, ordered by their `pivot-grouping` bitmask (0, the full breakdown, first; the grand total last). With
 * them: the full breakdown; the row subtotals (the first i pivot rows with the pivot columns); the row totals (the
 * pivot rows, then their first i); the column totals (the pivot columns); the grand total. Out-of-range indexes
 * fail the query (invalid-query).
 */
export function pivotLevels(breakoutCount: number, rows?: unknown, cols?: unknown): number[][] {
  const pivotRows = checkIndexes('pivot-rows', rows, breakoutCount);
  const pivotCols = checkIndexes('pivot-cols', cols, breakoutCount);
  const all = [...Array(breakoutCount).keys()];
  if (!pivotRows.length && !pivotCols.length) {
    if (breakoutCount > MAX_PIVOT_BREAKOUTS) {
      throw invalidQuery(`A pivot table without pivot rows and columns can have at most ${MAX_PIVOT_BREAKOUTS} breakouts.`);
    }
    const levels: number[][] = [];
    for (let mask = 0; mask < 2 ** breakoutCount; mask++) levels.push(all.filter((i) => !(mask & (1 << i))));
    return levels;
  }
  const candidates: number[][] = [all];
  for (let i = 1; i < pivotRows.length; i++) candidates.push([...pivotRows.slice(0, i), ...pivotCols]);
  candidates.push(pivotRows);
  for (let i = 1; i < pivotRows.length; i++) candidates.push(pivotRows.slice(0, i));
  candidates.push(pivotCols);
  candidates.push([]);
  const seen = new Set<string>();
  const levels: number[][] = [];
  for (const c of candidates) {
    const sorted = [...new Set(c)].sort((a, b) => a - b);
    const k = sorted.join(',');
    if (seen.has(k)) continue;
    seen.add(k);
    levels.push(sorted);
  }
  return levels;
}
