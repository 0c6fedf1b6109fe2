// Column and table names of an upload: a CSV header becomes a lower-case ASCII name (`Unit Price` → `unit_price`);
// twins get a counter. Shared by new uploads and by appending to or replacing an uploaded table.

import { slugify } from '../util/slug.js';

export { slugify as slug };

export const MAX_NAME_LENGTH = 60;

export function uniqueNames(names: string[], separator: string): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), count);
    return count === 1 ? name : `${name}${separator}${count}`;
  });
}

/** The column name of each header cell. */
export function columnNamesOf(header: string[]): string[] {
  return uniqueNames(header.map((h) => (h.trim() ? slugify(h).slice(0, MAX_NAME_LENGTH) || 'unnamed_column' : 'unnamed_column')), '_');
}
