// Metabase base types the compiler reasons about: which are numbers, text, temporal, and how a value of each is
// bound as a parameter.

import type { ParamType } from './sql.js';
import type { TemporalKind } from './dialect.js';

const INTEGER_TYPES = new Set(['type/Integer', 'type/BigInteger', 'type/Quantity']);
const FLOAT_TYPES = new Set(['type/Float', 'type/Decimal', 'type/Number', 'type/Currency']);
const DATETIME_TYPES = new Set(['type/DateTime', 'type/DateTimeWithTZ', 'type/DateTimeWithLocalTZ', 'type/DateTimeWithZoneID', 'type/DateTimeWithZoneOffset', 'type/Instant']);
const ZONED_TYPES = new Set(['type/DateTimeWithTZ', 'type/DateTimeWithLocalTZ', 'type/DateTimeWithZoneID', 'type/DateTimeWithZoneOffset', 'type/Instant']);
const TEXT_TYPES = new Set(['type/Text', 'type/TextLike', 'type/UUID', 'type/URL', 'type/Email', 'type/Name', 'type/Category', 'type/PostgresEnum', 'type/MySQLEnum']);

export const isInteger = (t: string | null | undefined): boolean => !!t && INTEGER_TYPES.has(t);
export const isNumeric = (t: string | null | undefined): boolean => !!t && (INTEGER_TYPES.has(t) || FLOAT_TYPES.has(t));
export const isDate = (t: string | null | undefined): boolean => t === 'type/Date';
export const isTime = (t: string | null | undefined): boolean => t === 'type/Time' || t === 'type/TimeWithLocalTZ' || t === 'type/TimeWithZoneOffset' || t === 'type/TimeWithTZ';
export const isDateTime = (t: string | null | undefined): boolean => !!t && DATETIME_TYPES.has(t);
export const isZoned = (t: string | null | undefined): boolean => !!t && ZONED_TYPES.has(t);
export const isTemporal = (t: string | null | undefined): boolean => isDate(t) || isTime(t) || isDateTime(t);
export const isText = (t: string | null | undefined): boolean => !!t && TEXT_TYPES.has(t);
export const isBoolean = (t: string | null | undefined): boolean => t === 'type/Boolean';

export function temporalKind(t: string | null | undefined): TemporalKind | null {
  if (isDate(t)) return 'date';
  if (isTime(t)) return 'time';
  if (isDateTime(t)) return 'datetime';
  return null;
}

/** The type a literal of this JS value has. */
export function literalType(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'type/Integer' : 'type/Float';
  if (typeof value === 'boolean') return 'type/Boolean';
  if (typeof value === 'string') return 'type/Text';
  return 'type/*';
}

export function paramTypeFor(value: unknown): ParamType {
  // An integer past 2^53 (1e20, 1e308) is no exact integer and no engine's BIGINT: it is compared as a float.
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'integer' : 'float';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'bigint') return 'integer';
  return 'text';
}
