// Settings that order and hide items by key — `graph.series_order` (series), `funnel.rows` (steps) — each an
// array of {key, enabled}: listed items first in that order, disabled ones dropped, unlisted ones after.

export function orderedByKey<T extends { key: string }>(listed: unknown, items: T[]): T[] {
  if (!Array.isArray(listed)) return items;
  const byKey = new Map(items.map((item) => [item.key, item]));
  const out: T[] = [];
  for (const entry of listed) {
    if (!entry || typeof entry !== 'object') continue;
    const { key, enabled } = entry as Record<string, unknown>;
    const item = typeof key === 'string' ? byKey.get(key) : undefined;
    if (!item) continue;
    byKey.delete(item.key);
    if (enabled !== false) out.push(item);
  }
  return [...out, ...byKey.values()];
}
