// Value normalisation shared by the engines, so that a row reads the same whichever database produced it
// (see the value conventions at the top of ../driver.ts).

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** Integers: a number when exactly representable, else the decimal string. */
export function integerValue(value: bigint | string | number): number | string {
  if (typeof value === 'number') return value;
  const big = typeof value === 'bigint' ? value : BigInt(value);
  return big <= MAX_SAFE && big >= MIN_SAFE ? Number(big) : big.toString();
}

/** Decimals: a number when its significant digits fit a double (15), else the exact decimal string. */
export function decimalValue(text: string): number | string {
  const trimmed = text.trim();
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) {
    const n = Number(trimmed);
    return Number.isNaN(n) ? trimmed : n;
  }
  const digits = trimmed.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length <= 15 ? Number(trimmed) : trimmed;
}

/** Fractional seconds as the conventions want them: none when zero, else at least milliseconds (".280"). */
export function fraction(digits: string | undefined): string {
  const trimmed = (digits ?? '').replace(/^\./, '').replace(/0+$/, '');
  return trimmed ? '.' + trimmed.padEnd(3, '0') : '';
}

const LOCAL_TS = /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?$/;
const OFFSET_TS = /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?\s*(Z|[+-]\d\d(?::?\d\d){0,2})$/i;

const isDigit = (text: string, at: number) => {
  const c = text.charCodeAt(at);
  return c >= 48 && c <= 57;
};

/** "YYYY-MM-DD HH:MM:SS" (space or T), optionally with milliseconds that don't end in 0: nothing to change but the T. */
function plainTimestamp(text: string): boolean {
  const n = text.length;
  if (n !== 19 && !(n === 23 && text.charCodeAt(19) === 46 /* . */ && isDigit(text, 20) && isDigit(text, 21) && isDigit(text, 22) && text.charCodeAt(22) !== 48)) return false;
  for (const at of [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]) if (!isDigit(text, at)) return false;
  const sep = text.charCodeAt(10);
  return text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && (sep === 32 || sep === 84) && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58;
}

/** "2024-01-31 10:30:00.123" → "2024-01-31T10:30:00.123" (a timestamp without time zone). */
export function localTimestamp(text: string): string {
  if (plainTimestamp(text)) return text.charCodeAt(10) === 84 ? text : `${text.slice(0, 10)}T${text.slice(11)}`;
  const m = LOCAL_TS.exec(text);
  if (!m) return text;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${fraction(m[7])}`;
}

/** "2024-01-31 10:30:00.123456+05:30" → "2024-01-31T05:00:00.123456Z" (the instant in UTC). */
export function utcTimestamp(text: string): string {
  const m = OFFSET_TS.exec(text);
  if (!m) return LOCAL_TS.test(text) ? localTimestamp(text) + 'Z' : text;
  const [, y, mo, d, h, mi, s, digits, zone] = m;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const parts = zone.slice(1).replace(/:/g, '');
    offsetMinutes = sign * (Number(parts.slice(0, 2)) * 60 + Number(parts.slice(2, 4) || 0) + Number(parts.slice(4, 6) || 0) / 60);
  }
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)) - offsetMinutes * 60_000;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return text;
  return date.toISOString().replace(/\.\d{3}Z$/, `${fraction(digits)}Z`);
}

/** Microseconds since the epoch → ISO-8601, with "Z" when `utc`. Keeps microsecond digits when present. */
export function microsToIso(micros: bigint, utc: boolean): string {
  const ms = micros / 1000n;
  const rest = Number(((micros % 1_000_000n) + 1_000_000n) % 1_000_000n);
  const date = new Date(Number(ms));
  if (Number.isNaN(date.getTime())) return micros.toString();
  const base = date.toISOString().slice(0, 19);
  return `${base}${fraction(String(rest).padStart(6, '0'))}${utc ? 'Z' : ''}`;
}

export function base64(buffer: Uint8Array): string {
  return Buffer.from(buffer).toString('base64');
}
