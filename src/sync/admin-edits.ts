// Which attributes of a field an admin set by hand (metabase_field.admin_edited, a JSON array). Sync never
// overwrites those.

import { parseJson } from '../appdb/portable.js';

export function adminEdited(row: { admin_edited: string | null }): Set<string> {
  return new Set(parseJson<string[]>(row.admin_edited, []));
}

export function withAdminEdits(row: { admin_edited: string | null }, attributes: Iterable<string>): string {
  const set = adminEdited(row);
  for (const a of attributes) set.add(a);
  return JSON.stringify([...set].sort());
}
