// Time-zone offsets computed in JS, for engines that can't convert between named zones themselves (MySQL/MariaDB
// without the time-zone tables, SQLite): a zone's UTC offsets over a span of years, split where they change (DST
// and rule changes), so that SQL can pick the right offset for each value with a few comparisons.

import { DateTime } from 'luxon';
import { invalidQuery } from '../errors.js';

/** One stretch of a zone's history with a constant offset. */
export interface ZoneSegment {
  /** UTC start of the stretch, as epoch milliseconds (null: since forever). */
  fromUtc: number | null;
  /** Offset from UTC in minutes. */
  offset: number;
}

/** The span the segments cover; before and after it the nearest segment's offset applies. */
const FIRST_YEAR = 1970;
const LAST_YEAR = 2038;

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
const cache = new Map<string, ZoneSegment[]>();

function isKnownZone(zone: string): boolean {
  return typeof zone === 'string' && zone !== '' && DateTime.fromMillis(0, { zone }).isValid;
}

function offsetAt(ms: number, zone: string): number {
  return DateTime.fromMillis(ms, { zone }).offset;
}

/** The zone's offsets from 1970 to 2038 (MySQL TIMESTAMP's range), one segment per constant stretch. */
export function zoneSegments(zone: string): ZoneSegment[] {
  const cached = cache.get(zone);
  if (cached) return cached;
  if (!isKnownZone(zone)) throw invalidQuery(`Unknown time zone: ${JSON.stringify(zone)}`);
  const start = Date.UTC(FIRST_YEAR, 0, 1);
  const end = Date.UTC(LAST_YEAR, 0, 1);
  const segments: ZoneSegment[] = [{ fromUtc: null, offset: offsetAt(start, zone) }];
  let t = start;
  let current = segments[0].offset;
  while (t < end) {
    const next = Math.min(t + WEEK, end);
    const offset = offsetAt(next, zone);
    if (offset !== current) {
      // The change is in (t, next]: narrow it down to the minute.
      let lo = t;
      let hi = next;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (offsetAt(mid, zone) === current) lo = mid;
        else hi = mid;
      }
      segments.push({ fromUtc: hi, offset });
      current = offset;
    }
    t = next;
  }
  if (cache.size > 200) cache.clear();
  cache.set(zone, segments);
  return segments;
}

/** One stretch over which converting wall-clock times from one zone to another adds a constant shift. */
export interface ConversionSegment {
  /** Where the stretch starts, as a wall-clock time in the source zone (epoch ms read as UTC; null: forever). */
  fromLocal: number | null;
  /** Minutes to add to a source wall-clock time to get the target's. */
  shift: number;
}

/**
 * Converting wall-clock times in `from` to wall-clock times in `to` (either may be UTC), as a few stretches of
 * constant shift: the union of both zones' offset changes, expressed in `from`'s wall-clock time.
 */
export function zoneConversion(from: string, to: string): ConversionSegment[] {
  const a = zoneSegments(from);
  const b = zoneSegments(to);
  const offsetOf = (segments: ZoneSegment[], utc: number) => {
    let offset = segments[0].offset;
    for (const s of segments) if (s.fromUtc !== null && s.fromUtc <= utc) offset = s.offset;
    return offset;
  };
  const instants = [...new Set([...a, ...b].map((s) => s.fromUtc).filter((t): t is number => t !== null))].sort((x, y) => x - y);
  const out: ConversionSegment[] = [{ fromLocal: null, shift: b[0].offset - a[0].offset }];
  for (const t of instants) {
    const shift = offsetOf(b, t) - offsetOf(a, t);
    if (shift === out[out.length - 1].shift) continue;
    out.push({ fromLocal: t + offsetOf(a, t) * 60_000, shift });
  }
  return out;
}

/** 'YYYY-MM-DD HH:MM:SS' of epoch milliseconds read in UTC. */
export function utcText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
