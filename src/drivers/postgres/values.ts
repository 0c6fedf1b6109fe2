// Text-format PostgreSQL values → the row conventions of ../driver.ts. Used as the per-pool type parsers, so
// other pg pools in the process (the app DB) keep their own parsing.

import pg from 'pg';
import { OID } from './types.js';
import { decimalValue, integerValue, localTimestamp, utcTimestamp } from '../shared/values.js';

const identity = (v: string) => v;

function byteaToBase64(text: string): string {
  return text.startsWith('\\x') ? Buffer.from(text.slice(2), 'hex').toString('base64') : Buffer.from(text, 'binary').toString('base64');
}

function parserFor(oid: number): ((v: string) => unknown) | null {
  switch (oid) {
    case OID.int8:
      return (v) => integerValue(v);
    case OID.numeric:
      return decimalValue;
    case OID.money:
      return (v) => decimalValue(v.replace(/[^0-9.-]/g, ''));
    case OID.date:
    case OID.time:
    case OID.timetz:
    case OID.interval:
    case OID.json:
    case OID.jsonb:
      return identity;
    case OID.timestamp:
      return localTimestamp;
    case OID.timestamptz:
      return utcTimestamp;
    case OID.bytea:
      return byteaToBase64;
    default:
      return null;
  }
}

export const postgresTypeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const own = parserFor(oid);
    if (own) return own;
    const fallback = pg.types.getTypeParser(oid, format ?? 'text') as (v: string) => unknown;
    // Arrays and other composite values come back as their JSON text.
    return (v: string) => {
      const parsed = fallback(v);
      return Array.isArray(parsed) ? JSON.stringify(parsed) : parsed instanceof Date ? parsed.toISOString() : parsed;
    };
  }) as typeof pg.types.getTypeParser,
};
