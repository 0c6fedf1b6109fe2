// Which columns a download holds, in which order, under which titles (reference §4.7): each column's display name
// (falling back to its name), or the `column_title` its `column_settings` give it in the visualization settings;
// `table.columns` reorders them and drops those with `enabled: false`. Titles are made unique so that JSON export
// keys don't collide.

import type { Col } from '../results/annotate.js';
import { UniqueNames } from '../compile/names.js';

export interface ExportLayout {
  /** Indexes of the result columns written, in the file's order. */
  indexes: number[];
  /** The header of each written column. */
  titles: string[];
}

type Viz = Record<string, unknown> | null | undefined;

function sameRef(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a[0] !== b[0]) return false;
  if (a[0] === 'field') {
    // A field is the same column whatever its options say, except which join or FK it comes through.
    const oa = (a[2] ?? {}) as Record<string, unknown>;
    const ob = (b[2] ?? {}) as Record<string, unknown>;
    return a[1] === b[1] && (oa['join-alias'] ?? null) === (ob['join-alias'] ?? null) && (oa['source-field'] ?? null) === (ob['source-field'] ?? null);
  }
  return JSON.stringify(a.slice(0, 2)) === JSON.stringify(b.slice(0, 2));
}

/** The `column_settings` entry of a column: keyed `["name","X"]` or `["ref",<field ref>]` (JSON text). */
export function columnSettings(col: Col, viz: Viz): Record<string, unknown> | null {
  const all = viz?.column_settings;
  if (!all || typeof all !== 'object') return null;
  let byRef: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(all as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(key);
    } catch {
      continue;
    }
    if (!Array.isArray(parsed)) continue;
    if (parsed[0] === 'name' && parsed[1] === col.name) return value as Record<string, unknown>;
    if (parsed[0] === 'ref' && sameRef(parsed[1], col.field_ref)) byRef = value as Record<string, unknown>;
  }
  return byRef;
}

/** A column's header: its `column_title` setting, else its display name, else its name. */
export function columnTitle(col: Col, viz: Viz): string {
  const title = columnSettings(col, viz)?.column_title;
  if (typeof title === 'string' && title !== '') return title;
  return String(col.display_name || col.name);
}

/** Which columns, in which order: `table.columns` (enabled ones, in its order; columns it doesn't list after them). */
function columnOrder(cols: Col[], viz: Viz): number[] {
  const listed = viz?.['table.columns'];
  if (!Array.isArray(listed) || listed.length === 0) return cols.map((_, i) => i);
  const taken = new Set<number>();
  const order: number[] = [];
  for (const entry of listed) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as { name?: unknown; fieldRef?: unknown; field_ref?: unknown; enabled?: unknown };
    let i = typeof e.name === 'string' ? cols.findIndex((c, k) => !taken.has(k) && c.name === e.name) : -1;
    if (i === -1 && (e.fieldRef ?? e.field_ref)) i = cols.findIndex((c, k) => !taken.has(k) && sameRef(e.fieldRef ?? e.field_ref, c.field_ref));
    if (i === -1) continue;
    taken.add(i);
    if (e.enabled !== false) order.push(i);
  }
  cols.forEach((_, i) => {
    if (!taken.has(i)) order.push(i);
  });
  return order;
}

export function exportLayout(cols: Col[], viz: Viz): ExportLayout {
  const indexes = columnOrder(cols, viz);
  const names = new UniqueNames();
  return { indexes, titles: indexes.map((i) => names.next(columnTitle(cols[i], viz))) };
}

/** Every column in order, under its display name (no visualization settings). */
export function columnTitles(cols: Col[]): string[] {
  return exportLayout(cols, null).titles;
}
