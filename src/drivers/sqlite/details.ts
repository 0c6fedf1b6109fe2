import type { DetailSpec } from '../shared/details.js';

export const SQLITE_DETAILS: DetailSpec[] = [
  { name: 'db', kind: 'string', required: true, maxLength: 1024 },
  // Set by Quarry for the sample database; an admin may set it too.
  { name: 'read-only', kind: 'boolean' },
];
