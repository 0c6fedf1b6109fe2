// The "Schemas" setting of engines with schemas: sync all, only some, or all but some. Patterns are
// comma-separated names where `*` matches anything (Metabase's schema-filters-type / schema-filters-patterns).

import type { ConnectionDetails } from '../driver.js';
import type { DetailSpec } from './details.js';

export const SCHEMA_FILTER_DETAILS: DetailSpec[] = [
  { name: 'schema-filters-type', kind: 'enum', values: ['all', 'inclusion', 'exclusion'] },
  { name: 'schema-filters-patterns', kind: 'string' },
];

/**
 * Whether `name` matches `pattern` (`*` matches anything, case-insensitively). Matched without a regular expression:
 * `a*a*a*…b` as a regex backtracks exponentially against a long name, and sync runs in the server's process.
 * This walks both strings once, going back only to the last `*` (at most length × length steps).
 */
export function wildcardMatches(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase();
  const s = name.toLowerCase();
  let i = 0;
  let j = 0;
  let star = -1;
  let resume = 0;
  while (j < s.length) {
    if (i < p.length && p[i] !== '*' && p[i] === s[j]) {
      i++;
      j++;
    } else if (i < p.length && p[i] === '*') {
      star = i++;
      resume = j;
    } else if (star !== -1) {
      i = star + 1;
      j = ++resume;
    } else {
      return false;
    }
  }
  while (i < p.length && p[i] === '*') i++;
  return i === p.length;
}

export function schemaFilter(details: ConnectionDetails): (schema: string) => boolean {
  const type = details['schema-filters-type'];
  const patterns = String(details['schema-filters-patterns'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (type === 'inclusion') return (schema) => patterns.some((p) => wildcardMatches(p, schema));
  if (type === 'exclusion') return (schema) => !patterns.some((p) => wildcardMatches(p, schema));
  return () => true;
}
