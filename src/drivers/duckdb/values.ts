// DuckDB values (DuckDBValue objects) → the row conventions of ../driver.ts.

import {
  DuckDBBlobValue,
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
  if (value instanceof DuckDBTimestampTZValue) return microsToIso(value.micros, true);
  if (value instanceof DuckDBTimestampValue) return microsToIso(value.micros, false);
  if (value instanceof DuckDBTimestampMillisecondsValue) return microsToIso(value.millis * 1000n, false);
  if (value instanceof DuckDBTimestampSecondsValue) return microsToIso(value.seconds * 1_000_000n, false);
  if (value instanceof DuckDBTimestampNanosecondsValue) return microsToIso(value.nanos / 1000n, false);
  if (value instanceof DuckDBBlobValue) return base64(value.bytes);
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) return JSON.stringify(value.items.map(toJsonValue));
  if (value instanceof DuckDBStructValue) {
    return JSON.stringify(Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, toJsonValue(v)])));
  }
  if (value instanceof DuckDBMapValue) return JSON.stringify(value.entries.map((e) => ({ key: toJsonValue(e.key), value: toJsonValue(e.value) })));
  // DATE, TIME, UUID, INTERVAL, BIT, TIMETZ: their SQL text form ("2024-01-31", "10:30:00", …).
  return String(value);
}
