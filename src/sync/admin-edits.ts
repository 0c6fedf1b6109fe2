// Which attributes of a field an admin set by hand (metabase_field.admin_edited, a JSON array). Sync never
// overwrites those.

import { parseJson } from '../appdb/portable.js';

export function adminEdited(row: { admin_edited: string | null }): Set<string> {
  return new Set(parseJson<string[]>(row.admin_edited, []));
}

/** The admin edits of `row` plus `attributes`, minus `released` (attributes handed back to sync). */
export function withAdminEdits(row: { admin_edited: string | null }, attributes: Iterable<string>, released: Iterable<string> = []): string {
  const set = adminEdited(row);
  for (const a of attributes) set.add(a);
  for (const a of released) set.delete(a);
  return JSON.stringify([...set].sort());
}
