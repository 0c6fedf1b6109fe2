// Fingerprints: what a field's values look like, computed from a bounded sample (the first 10,000 rows), stored as
// Metabase's JSON shape and used by classification and the query builder:
//   {"global": {"distinct-count", "nil%"},
//    "type": {"type/Number": {min, max, avg, sd, q1, q3}} | {"type/Text": {percent-json, percent-url,
//            percent-email, percent-state, average-length}} | {"type/DateTime": {earliest, latest}}}

import { isa } from '../databases/type-hierarchy.js';

export const FINGERPRINT_VERSION = 5;
export const SAMPLE_ROWS = 10_000;

export interface Fingerprint {
  global: { 'distinct-count': number; 'nil%': number };
  type?: {
    'type/Number'?: { min: number | null; max: number | null; avg: number | null; sd: number | null; q1: number | null; q3: number | null };
    'type/Text'?: { 'percent-json': number; 'percent-url': number; 'percent-email': number; 'percent-state': number; 'average-length': number };
    'type/DateTime'?: { earliest: string | null; latest: string | null };
  };
}

const US_STATES = new Set(
  ('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC ' +
    'alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine ' +
    'maryland massachusetts michigan minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia ' +
    'washington wisconsin wyoming')
    .split(' ')
    .map((s) => s.toLowerCase()),
);
for (const two of ['new hampshire', 'new jersey', 'new mexico', 'new york', 'north carolina', 'north dakota', 'rhode island', 'south carolina', 'south dakota', 'west virginia', 'district of columbia']) US_STATES.add(two);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_LIKE = /^(https?|ftp):\/\/[^\s/$.?#].[^\s]*$/i;

function isJsonText(s: string): boolean {
  const t = s.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

function quantile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function distinctKey(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
}

function numberFingerprint(values: unknown[]): NonNullable<Fingerprint['type']>['type/Number'] {
  const nums = values.map((v) => (typeof v === 'number' ? v : Number(v))).filter((n) => Number.isFinite(n)).sort((a, b) => a - b);
  if (!nums.length) return { min: null, max: null, avg: null, sd: null, q1: null, q3: null };
  const avg = nums.reduce((a, b) => a + b, 0) / nums.length;
  const variance = nums.length > 1 ? nums.reduce((acc, n) => acc + (n - avg) ** 2, 0) / (nums.length - 1) : 0;
  return { min: nums[0], max: nums[nums.length - 1], avg, sd: Math.sqrt(variance), q1: quantile(nums, 0.25), q3: quantile(nums, 0.75) };
}

function textFingerprint(values: unknown[]): NonNullable<Fingerprint['type']>['type/Text'] {
  const texts = values.map(String);
  const n = texts.length || 1;
  let json = 0, url = 0, email = 0, state = 0, length = 0;
  for (const t of texts) {
    length += t.length;
    if (isJsonText(t)) json += 1;
    if (URL_LIKE.test(t)) url += 1;
    if (EMAIL.test(t)) email += 1;
    if (US_STATES.has(t.trim().toLowerCase())) state += 1;
  }
  return { 'percent-json': json / n, 'percent-url': url / n, 'percent-email': email / n, 'percent-state': state / n, 'average-length': length / n };
}

function temporalFingerprint(values: unknown[]): NonNullable<Fingerprint['type']>['type/DateTime'] {
  let earliest: string | null = null;
  let latest: string | null = null;
  let earliestMs = Infinity;
  let latestMs = -Infinity;
  for (const v of values) {
    const text = String(v);
    const ms = Date.parse(/^\d{4}-\d\d-\d\d$/.test(text) ? `${text}T00:00:00Z` : /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
    if (Number.isNaN(ms)) continue;
    if (ms < earliestMs) {
      earliestMs = ms;
      earliest = new Date(ms).toISOString();
    }
    if (ms > latestMs) {
      latestMs = ms;
      latest = new Date(ms).toISOString();
    }
  }
  return { earliest, latest };
}

/** The fingerprint of one column's sampled values (nulls included), for a field of `baseType`. */
export function fingerprintValues(baseType: string, effectiveType: string, values: unknown[]): Fingerprint {
  const nonNull = values.filter((v) => v !== null && v !== undefined);
  const distinct = new Set(nonNull.map(distinctKey)).size;
  const fp: Fingerprint = { global: { 'distinct-count': distinct, 'nil%': values.length ? (values.length - nonNull.length) / values.length : 0 } };
  const type = effectiveType || baseType;
  if (isa(type, 'type/Number')) fp.type = { 'type/Number': numberFingerprint(nonNull) };
  else if (isa(type, 'type/Temporal')) fp.type = { 'type/DateTime': temporalFingerprint(nonNull) };
  else if (isa(type, 'type/Text')) fp.type = { 'type/Text': textFingerprint(nonNull) };
  return fp;
}

/** Whether sync samples a field at all (nested collections and unknown types are skipped). */
export function isFingerprintable(baseType: string): boolean {
  return !isa(baseType, 'type/Collection') && !isa(baseType, 'type/Structured') && baseType !== 'type/*';
}
