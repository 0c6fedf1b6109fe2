// PostgreSQL write errors (SQLSTATE codes, and the columns its messages name) → engine-neutral violations.

import type { WriteViolation } from '../driver.js';

interface PgError {
  code?: string;
  column?: string;
  detail?: string;
}

/** "Key (a, b)=(1, 2) already exists." → ["a", "b"] */
function keyColumns(detail: string | undefined): string[] {
  const m = /Key \(([^)]*)\)=/.exec(detail ?? '');
  return m ? m[1].split(',').map((c) => c.trim().replace(/^"|"$/g, '')) : [];
}

export function describePostgresWriteError(error: unknown): WriteViolation | null {
  const e = (error ?? {}) as PgError;
  switch (e.code) {
    case '23502':
      return { kind: 'not-null', columns: e.column ? [e.column] : [] };
    case '23505':
      return { kind: 'unique', columns: keyColumns(e.detail) };
    case '23503':
      return { kind: /is still referenced/.test(e.detail ?? '') ? 'referenced' : 'foreign-key', columns: keyColumns(e.detail) };
    case '22P02': // invalid text representation
    case '22007': // invalid datetime format
    case '22008': // datetime field overflow
    case '22003': // numeric value out of range
    case '22001': // string too long
    case '42804': // datatype mismatch
      return { kind: 'incorrect-type', columns: e.column ? [e.column] : [] };
    default:
      return null;
  }
}
