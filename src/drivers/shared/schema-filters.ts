// The "Schemas" setting of engines with schemas: sync all, only some, or all but some. Patterns are
// comma-separated names where `*` matches anything (Metabase's schema-filters-type / schema-filters-patterns).

import type { ConnectionDetails } from '../driver.js';
import type { DetailSpec } from './details.js';

export const SCHEMA_FILTER_DETAILS: DetailSpec[] = [
  { name: 'schema-filters-type', kind: 'enum', values: ['all', 'inclusion', 'exclusion'] },
  { name: 'schema-filters-patterns', kind: 'string' },
];

function toRegex(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

export function schemaFilter(details: ConnectionDetails): (schema: string) => boolean {
  const type = details['schema-filters-type'];
  const patterns = String(details['schema-filters-patterns'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map(toRegex);
  if (type === 'inclusion') return (schema) => patterns.some((r) => r.test(schema));
  if (type === 'exclusion') return (schema) => !patterns.some((r) => r.test(schema));
  return () => true;
}
