// DuckDB values (DuckDBValue objects) → the row conventions of ../driver.ts.

import {
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBArrayValue,
  DuckDBStructValue,
  DuckDBMapValue,
  DuckDBTimestampValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampNanosecondsValue,
} from '@duckdb/node-api';
import { base64, decimalValue, integerValue, microsToIso } from '../shared/values.js';

/** A nested value (inside a list or struct) as plain JSON. */
function toJsonValue(value: unknown): unknown {
  const v = convertDuckdbValue(value);
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue || value instanceof DuckDBStructValue || value instanceof DuckDBMapValue) {
    return JSON.parse(v as string);
  }
  return v;
}

/**
 * DuckDB's infinite timestamps and dates (±(2^63 − 1) in the value's unit, ±(2^31 − 1) days) read as the text both
 * DuckDB and PostgreSQL print for them — "infinity" / "-infinity" — like the PostgreSQL driver's values, rather than a
 * number or a date in the year 5881580.
 */
const TIMESTAMP_INFINITY = 2n ** 63n - 1n;
const DATE_INFINITY = 2 ** 31 - 1;

function infinity(raw: bigint): string | null {
  if (raw === TIMESTAMP_INFINITY) return 'infinity';
  if (raw === -TIMESTAMP_INFINITY) return '-infinity';
  return null;
}

export function convertDuckdbValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
      return integerValue(value);
    case 'number':
    case 'string':
    case 'boolean':
      return value;
    default:
      break;
  }
  if (value instanceof DuckDBDecimalValue) return decimalValue(value.toString());
  if (value instanceof DuckDBTimestampTZValue) return infinity(value.micros) ?? microsToIso(value.micros, true);
  if (value instanceof DuckDBTimestampValue) return infinity(value.micros) ?? microsToIso(value.micros, false);
  if (value instanceof DuckDBTimestampMillisecondsValue) return infinity(value.millis) ?? microsToIso(value.millis * 1000n, false);
  if (value instanceof DuckDBTimestampSecondsValue) return infinity(value.seconds) ?? microsToIso(value.seconds * 1_000_000n, false);
  if (value instanceof DuckDBTimestampNanosecondsValue) return infinity(value.nanos) ?? microsToIso(value.nanos / 1000n, false);
  if (value instanceof DuckDBDateValue && Math.abs(value.days) === DATE_INFINITY) return value.days > 0 ? 'infinity' : '-infinity';
  if (value instanceof DuckDBBlobValue) return base64(value.bytes);
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) return JSON.stringify(value.items.map(toJsonValue));
  if (value instanceof DuckDBStructValue) {
    return JSON.stringify(Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, toJsonValue(v)])));
  }
  if (value instanceof DuckDBMapValue) return JSON.stringify(value.entries.map((e) => ({ key: toJsonValue(e.key), value: toJsonValue(e.value) })));
  // DATE, TIME, UUID, INTERVAL, BIT, TIMETZ: their SQL text form ("2024-01-31", "10:30:00", …).
  return String(value);
}
