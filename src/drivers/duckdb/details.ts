import type { DetailSpec } from '../shared/details.js';

export const DUCKDB_DETAILS: DetailSpec[] = [
  { name: 'db', kind: 'string', required: true, maxLength: 1024 },
  { name: 'read_only', kind: 'boolean', default: false },
];
