// Numeric binning (reference §5.4): from the field's fingerprint min/max to "nice" bins — a bin width of 1, 1.25, 2,
// 2.5, 3, 5, 7.5 or 10 times a power of ten, with bounds on multiples of it — so that bins read well on a chart.

import { invalidQuery } from '../errors.js';

/** What binning needs to know of the column: its semantic type (coordinates bin by degrees) and name. */
export interface BinnedColumn {
  semantic_type?: string | null;
  display_name?: string;
}

export interface BinningInfo {
  binning_strategy: 'num-bins' | 'bin-width' | 'default';
  bin_width: number;
  num_bins: number;
  min_value: number;
  max_value: number;
}

export interface BinningSettings {
  binsNum: number;
  binWidth: number;
}

const NICE = [1, 1.25, 2, 2.5, 3, 5, 7.5, 10];

function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

function niceWidth(min: number, max: number, bins: number): number {
  const raw = roundTo((max - min) / bins, 5);
  if (raw <= 0) return 1;
  const scale = 10 ** Math.floor(Math.log10(raw));
  for (const n of NICE) if (n * scale >= raw) return n * scale;
  return 10 * scale;
}

function bounds(min: number, max: number, width: number): [number, number] {
  return [Math.floor(min / width) * width, Math.ceil(max / width) * width];
}

function isCoordinate(field: BinnedColumn | null): boolean {
  const s = field?.semantic_type;
  return s === 'type/Latitude' || s === 'type/Longitude' || s === 'type/Coordinate';
}

/** The min and max of a fingerprint (a field's, or a result_metadata column's), if it has them. */
export function fingerprintRange(fingerprint: unknown): { min: number; max: number } | null {
  const type = (fingerprint as { type?: Record<string, unknown> } | null | undefined)?.type;
  const number = type?.['type/Number'] as { min?: unknown; max?: unknown } | undefined;
  if (!number || typeof number.min !== 'number' || typeof number.max !== 'number') return null;
  return { min: number.min, max: number.max };
}

export function resolveBinning(
  binning: { strategy: string; 'num-bins'?: number; 'bin-width'?: number },
  field: BinnedColumn | null,
  range: { min: number; max: number } | null,
  settings: BinningSettings,
): BinningInfo {
  if (!range) throw invalidQuery(`Unable to bin ${field?.display_name ?? 'this column'}: it has no fingerprint with a minimum and maximum yet.`);
  let strategy = binning.strategy as BinningInfo['binning_strategy'];
  let numBins = binning['num-bins'];
  let width = binning['bin-width'];
  let effective: 'num-bins' | 'bin-width' = strategy === 'bin-width' ? 'bin-width' : 'num-bins';
  if (strategy === 'default') {
    if (isCoordinate(field)) {
      effective = 'bin-width';
      width = settings.binWidth;
    } else numBins = settings.binsNum;
  }
  if (effective === 'num-bins' && !(typeof numBins === 'number' && numBins > 0)) throw invalidQuery('num-bins binning needs a positive num-bins.');
  if (effective === 'bin-width' && !(typeof width === 'number' && width > 0)) throw invalidQuery('bin-width binning needs a positive bin-width.');
  let min = range.min;
  let max = range.max;
  let info: { width: number; min: number; max: number; bins: number } = { width: width ?? 1, min, max, bins: numBins ?? 1 };
  // Iterate until width and bounds agree with each other (a few steps at most).
  for (let i = 0; i < 10; i++) {
    const w = effective === 'num-bins' ? niceWidth(min, max, numBins!) : width!;
    const [lo, hi] = bounds(min, max, w);
    const next = { width: w, min: lo, max: hi, bins: effective === 'num-bins' ? numBins! : Math.max(1, Math.ceil((hi - lo) / w)) };
    const stable = next.width === info.width && next.min === info.min && next.max === info.max;
    info = next;
    min = lo;
    max = hi;
    if (stable) break;
  }
  if (info.max === info.min) info.max = info.min + info.width;
  strategy = binning.strategy as BinningInfo['binning_strategy'];
  return { binning_strategy: strategy, bin_width: info.width, num_bins: info.bins, min_value: info.min, max_value: info.max };
}

export function binningDisplaySuffix(info: BinningInfo, field: BinnedColumn | null): string {
  if (info.binning_strategy === 'default') return 'Auto binned';
  if (info.binning_strategy === 'num-bins') return `${info.num_bins} bins`;
  return isCoordinate(field) ? `${info.bin_width}°` : `${info.bin_width}`;
}
