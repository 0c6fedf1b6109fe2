// Metabase's default colours: the eight accents series take in order, then lighter and darker shades of them, and
// the UI colours charts use for text, grid lines and goals.

export const COLORS = {
  brand: '#509EE3',
  success: '#84BB4C',
  error: '#ED6E6E',
  warning: '#F9CF48',
  textDark: '#4C5773',
  textMedium: '#696E7B',
  textLight: '#949AAB',
  border: '#EEECEC',
  grid: '#EEECEC',
  bgLight: '#F9FBFC',
  bgMedium: '#EDF2F5',
  white: '#FFFFFF',
  other: '#949AAB',
} as const;

export const ACCENTS = ['#509EE3', '#88BF4D', '#A989C5', '#EF8C8C', '#F9D45C', '#F2A86F', '#98D9D9', '#7172AD'];

function channel(hex: string, at: number): number {
  return parseInt(hex.slice(at, at + 2), 16);
}

/** `hex` mixed with white (amount > 0) or black (amount < 0). */
export function shade(hex: string, amount: number): string {
  const target = amount > 0 ? 255 : 0;
  const a = Math.abs(amount);
  const mix = (v: number) => Math.round(v + (target - v) * a).toString(16).padStart(2, '0');
  return `#${mix(channel(hex, 1))}${mix(channel(hex, 3))}${mix(channel(hex, 5))}`.toUpperCase();
}

/** The colour of the n-th series: the accents, then their darker, then their lighter shades, and round again. */
export function seriesColor(index: number): string {
  const accent = ACCENTS[index % ACCENTS.length];
  const round = Math.floor(index / ACCENTS.length) % 3;
  return round === 0 ? accent : round === 1 ? shade(accent, -0.25) : shade(accent, 0.35);
}

/** A colour value from the settings, if it is one. */
export function validColor(value: unknown): string | null {
  return typeof value === 'string' && /^(#[0-9a-f]{3,8}|rgba?\([^)]*\)|hsla?\([^)]*\))$/i.test(value.trim()) ? value.trim() : null;
}
