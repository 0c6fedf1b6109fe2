// Row values as Metabase returns them (reference §4.3): temporal values as ISO-8601 with the results time zone's
// offset — DATE values as full offset date-times, local date-times given the zone's offset, instants converted to
// the zone — and booleans as booleans whichever engine produced them. One converter per column, chosen once, so a
// million-row export does no per-value type dispatch.

import { DateTime } from 'luxon';
import { isBoolean, isDate, isDateTime, isTime, isInteger, isNumeric } from '../compile/types.js';

export type Converter = (value: unknown) => unknown;

const identity: Converter = (v) => v;

const LOCAL = /^(\d{4,})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?)?$/;
const ZONED = /^(\d{4,})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?\s*(Z|[+-]\d\d(?::?\d\d)?)$/i;
const TIME = /^(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?(Z|[+-]\d\d(?::?\d\d)?)?$/i;

function fraction(f: string | undefined): string {
  if (!f) return '';
  const trimmed = f.slice(0, 9).replace(/0+$/, '');
  return trimmed ? '.' + trimmed.padEnd(3, '0').slice(0, trimmed.length > 3 ? 6 : 3) : '';
}

/** "+05:30" for an offset in minutes; "Z" for 0. */
function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Offsets of one zone at local date-times, cached per local hour (offsets change on the hour at most). */
class ZoneOffsets {
  private readonly cache = new Map<string, number>();

  constructor(readonly zone: string) {}

  atLocal(y: number, mo: number, d: number, h: number): number {
    const key = `${y}-${mo}-${d}-${h}`;
    let offset = this.cache.get(key);
    if (offset === undefined) {
      offset = DateTime.fromObject({ year: y, month: mo, day: d, hour: h }, { zone: this.zone }).offset;
      if (this.cache.size > 50_000) this.cache.clear();
      this.cache.set(key, offset);
    }
    return offset;
  }
}

/** Formats temporal values for one results time zone. */
export class TemporalFormatter {
  private readonly utc: boolean;
  private readonly offsets: ZoneOffsets;

  constructor(readonly zone: string) {
    this.utc = /^(UTC|Etc\/UTC|GMT|Etc\/GMT|Z|Universal|Zulu)$/i.test(zone);
    this.offsets = new ZoneOffsets(zone);
  }

  /** A local date or date-time → "2024-01-01T10:30:00-08:00" (midnight for dates). */
  local(y: string, mo: string, d: string, h = '00', mi = '00', s = '00', f?: string): string {
    const base = `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction(f)}`;
    if (this.utc) return base + 'Z';
    return base + offsetText(this.offsets.atLocal(Number(y), Number(mo), Number(d), Number(h)));
  }

  /** An instant in UTC → the same instant in the zone, with its offset. */
  instant(text: string): string {
    const dt = DateTime.fromISO(text.replace(' ', 'T'), { setZone: true });
    if (!dt.isValid) return text;
    const z = this.utc ? dt.toUTC() : dt.setZone(this.zone);
    const ms = z.millisecond ? '.' + String(z.millisecond).padStart(3, '0') : '';
    return `${z.toFormat("yyyy-MM-dd'T'HH:mm:ss")}${ms}${offsetText(z.offset)}`;
  }

  /** Any temporal string the drivers produce → ISO-8601 with offset. */
  format(value: string): string {
    // Fast path for the common case: a local "YYYY-MM-DDTHH:MM:SS[.fff]" in UTC.
    if (this.utc && value.length >= 19 && value.charCodeAt(10) === 84 /* T */ && value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45) {
      if (value.length === 19) return value + 'Z';
      // Milliseconds not ending in 0 are already as short as they can be.
      if (value.length === 23 && value.charCodeAt(19) === 46 && value.charCodeAt(22) !== 48 && /^\.\d\d\d$/.test(value.slice(19))) return value + 'Z';
      if (value.charCodeAt(19) === 46 /* . */ && value.length <= 29 && /^\d+$/.test(value.slice(20))) {
        return value.slice(0, 19) + fraction(value.slice(20)) + 'Z';
      }
    }
    let m = LOCAL.exec(value);
    if (m) return this.local(m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
    m = ZONED.exec(value);
    if (m) return this.instant(value);
    m = TIME.exec(value);
    if (m) {
      const base = `${m[1]}:${m[2]}:${m[3] ?? '00'}${fraction(m[4])}`;
      if (m[5]) return base + isoOffset(m[5]);
      return base + (this.utc ? 'Z' : offsetText(this.offsets.atLocal(1970, 1, 1, Number(m[1]))));
    }
    return value;
  }

  /** Without zone handling: local values as local ISO (midnight date-times as dates), instants in the zone. */
  plain(value: string): string {
    // Fast path for what the drivers produce for a timestamp without zone: "YYYY-MM-DDTHH:MM:SS".
    if (value.length === 19 && value.charCodeAt(10) === 84 /* T */ && value.charCodeAt(13) === 58 && value.charCodeAt(16) === 58 && value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45) {
      return value.endsWith('T00:00:00') ? value.slice(0, 10) : value;
    }
    let m = LOCAL.exec(value);
    if (m) {
      if (m[4] === undefined) return `${m[1]}-${m[2]}-${m[3]}`;
      const midnight = m[4] === '00' && m[5] === '00' && (m[6] ?? '00') === '00' && !fraction(m[7]);
      if (midnight) return `${m[1]}-${m[2]}-${m[3]}`;
      return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${fraction(m[7])}`;
    }
    m = ZONED.exec(value);
    if (m) return this.instant(value);
    // A time with an offset (PostgreSQL's timetz "06:38:23.4024+00"): ISO offset time.
    m = TIME.exec(value);
    if (m?.[5]) return `${m[1]}:${m[2]}:${m[3] ?? '00'}${fraction(m[4])}${isoOffset(m[5])}`;
    return value;
  }
}

/** An offset as the engines write it ("+00", "+0530", "-08:00", "Z") → ISO-8601 ("Z", "+05:30", "-08:00"). */
function isoOffset(text: string): string {
  if (text.toUpperCase() === 'Z') return 'Z';
  const digits = text.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
  return offsetText(text[0] === '-' ? -minutes : minutes);
}

function toBoolean(v: unknown): unknown {
  if (v === null || v === undefined || typeof v === 'boolean') return v ?? null;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return v === '1' || v.toLowerCase() === 'true' || v.toLowerCase() === 't';
  return v;
}

function toNumber(v: unknown): unknown {
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    if (Number.isFinite(n) && (Number.isSafeInteger(n) || !Number.isInteger(n))) return n;
  }
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  return v;
}

/** The converter for a column of `baseType`. `mode` "iso": API results; "plain": unformatted downloads. */
export function converterFor(baseType: string, formatter: TemporalFormatter, mode: 'iso' | 'plain' = 'iso'): Converter {
  if (isDate(baseType) || isDateTime(baseType) || isTime(baseType)) {
    const f = mode === 'iso' ? (s: string) => formatter.format(s) : (s: string) => formatter.plain(s);
    return (v) => (typeof v === 'string' ? f(v) : v instanceof Date ? f(v.toISOString()) : v);
  }
  if (isBoolean(baseType)) return toBoolean;
  if (isInteger(baseType) || isNumeric(baseType)) return toNumber;
  return identity;
}

export function isIdentity(c: Converter): boolean {
  return c === identity;
}
