import type { DetailSpec } from '../shared/details.js';
import { SCHEMA_FILTER_DETAILS } from '../shared/schema-filters.js';

export const POSTGRES_DETAILS: DetailSpec[] = [
  { name: 'host', kind: 'string', default: 'localhost', maxLength: 255 },
  { name: 'port', kind: 'integer', default: 5432, min: 1, max: 65535 },
  { name: 'dbname', kind: 'string', required: true, aliases: ['db'], maxLength: 255 },
  { name: 'user', kind: 'string', maxLength: 255 },
  { name: 'password', kind: 'password' },
  { name: 'ssl', kind: 'boolean', default: false },
  { name: 'ssl-mode', kind: 'enum', values: ['allow', 'prefer', 'require', 'verify-ca', 'verify-full'] },
  ...SCHEMA_FILTER_DETAILS,
];
