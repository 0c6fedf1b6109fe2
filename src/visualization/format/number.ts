// Numbers as Metabase shows them, from a column's formatting settings: `number_style` (decimal, percent,
// scientific, currency), `currency` + `currency_style` (symbol, code, name), `decimals`, `scale`, `prefix`,
// `suffix`, `number_separators`. Without `decimals`, at most two fraction digits — two significant digits for
// numbers between -1 and 1. Compact form for axes and small spaces: 1.2k, 3.4M.

import type { ColumnSettings } from '../columns.js';

export interface NumberFormatOptions {
  compact?: boolean;
  /** Axis ticks: whole numbers without the currency's fraction digits ($15,000 rather than $15,000.00). */
  tick?: boolean;
  /** Leave the currency symbol out (a table puts it in the column header instead). */
  currencyInHeader?: boolean;
}

const cache = new Map<string, Intl.NumberFormat>();

function formatter(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', options);
    cache.set(key, f);
  }
  return f;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function decimalsOf(settings: ColumnSettings): number | null {
  const d = settings.decimals;
  return typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 20 ? d : null;
}

function currencyCode(settings: ColumnSettings): string {
  const c = str(settings.currency).toUpperCase();
  return /^[A-Z]{3}$/.test(c) ? c : 'USD';
}

function currencyStyle(settings: ColumnSettings): 'symbol' | 'code' | 'name' {
  const s = settings.currency_style;
  return s === 'code' || s === 'name' ? s : 'symbol';
}

/** The currency shown in a table header (`$`, `USD`, `US dollars`), or null when the column is not a currency. */
export function currencyHeaderLabel(settings: ColumnSettings): string | null {
  if (settings.number_style !== 'currency' || settings.currency_in_header === false) return null;
  const style = currencyStyle(settings);
  const parts = formatter({ style: 'currency', currency: currencyCode(settings), currencyDisplay: style }).formatToParts(style === 'name' ? 2 : 1);
  const unit = parts.find((p) => p.type === 'currency')?.value ?? currencyCode(settings);
  return unit;
}

function applySeparators(text: string, settings: ColumnSettings): string {
  const seps = str(settings.number_separators);
  if (!seps || seps === '.,') return text;
  const decimal = seps[0] ?? '.';
  const group = seps.slice(1);
  return text.replace(/[.,]/g, (c) => (c === '.' ? decimal : group));
}

function compactNumber(value: number, options: Intl.NumberFormatOptions): string {
  const abs = Math.abs(value);
  const units: Array<[number, string]> = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'k']];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const scaled = formatter({ ...options, maximumFractionDigits: 1, minimumFractionDigits: 0 }).format(value / size);
      return scaled.replace(/(\d)(?!.*\d)/, `$1${suffix}`);
    }
  }
  return formatter({ ...options, maximumFractionDigits: abs < 1 && abs > 0 ? 2 : 1, minimumFractionDigits: 0 }).format(value);
}

function baseOptions(value: number, settings: ColumnSettings, currencyInHeader: boolean): Intl.NumberFormatOptions {
  const decimals = decimalsOf(settings);
  const style = settings.number_style;
  const options: Intl.NumberFormatOptions = {};
  if (style === 'percent') options.style = 'percent';
  if (style === 'currency') {
    if (currencyInHeader) {
      const digits = formatter({ style: 'currency', currency: currencyCode(settings) }).resolvedOptions().maximumFractionDigits ?? 2;
      options.minimumFractionDigits = digits;
      options.maximumFractionDigits = digits;
    } else {
      options.style = 'currency';
      options.currency = currencyCode(settings);
      options.currencyDisplay = currencyStyle(settings);
    }
  }
  if (decimals !== null) {
    options.minimumFractionDigits = decimals;
    options.maximumFractionDigits = decimals;
  } else if (style !== 'currency') {
    const shown = style === 'percent' ? value * 100 : value;
    if (shown !== 0 && Math.abs(shown) < 1) {
      options.maximumSignificantDigits = 2;
    } else {
      options.maximumFractionDigits = 2;
    }
  }
  if (settings.number_separators !== undefined && str(settings.number_separators).length < 2) options.useGrouping = false;
  return options;
}

/** A number formatted with a column's settings. */
export function formatNumber(raw: number, settings: ColumnSettings, opts: NumberFormatOptions = {}): string {
  if (!Number.isFinite(raw)) return String(raw);
  return formatScaled(raw, settings, opts);
}

/**
 * An integer beyond 2^53 (sent as text by the API) formatted without losing digits: exact unless a scale, percent or
 * scientific style needs arithmetic on it.
 */
export function formatBigInteger(text: string, settings: ColumnSettings, opts: NumberFormatOptions = {}): string {
  const exact = !opts.compact && settings.number_style !== 'percent' && settings.number_style !== 'scientific' && (settings.scale === undefined || settings.scale === 1);
  if (!exact) return formatNumber(Number(text), settings, opts);
  const options = baseOptions(1, settings, opts.currencyInHeader === true);
  return `${str(settings.prefix)}${applySeparators(formatter(options).format(BigInt(text)), settings)}${str(settings.suffix)}`;
}

function formatScaled(raw: number, settings: ColumnSettings, opts: NumberFormatOptions): string {
  const scale = typeof settings.scale === 'number' && Number.isFinite(settings.scale) ? settings.scale : 1;
  const value = raw * scale;
  let text: string;
  if (settings.number_style === 'scientific') {
    const decimals = decimalsOf(settings);
    text = decimals !== null ? value.toExponential(decimals) : value.toExponential(2).replace(/\.?0+e/, 'e');
  } else {
    const options = baseOptions(value, settings, opts.currencyInHeader === true);
    if (opts.tick && Number.isInteger(value) && decimalsOf(settings) === null) options.minimumFractionDigits = 0;
    text = opts.compact ? compactNumber(value, { ...options, minimumFractionDigits: undefined, maximumSignificantDigits: undefined }) : formatter(options).format(value);
  }
  return `${str(settings.prefix)}${applySeparators(text, settings)}${str(settings.suffix)}`;
}
