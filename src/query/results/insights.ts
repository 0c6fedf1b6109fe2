// `data.insights` of an API result (reference §4.3): when the result is a time series — exactly one temporal column
// that isn't an aggregation, and at least one numeric column — one insight per numeric column: its last and previous
// values, the relative change between them, a least-squares line (`slope`, `offset` against days since the epoch)
// and the best of four trend-line families (`best-fit`). Null otherwise. Computed while the rows stream by, in
// constant memory and O(1) per row and column: running sums for the regressions and a 20-row reservoir sample (seeded
// like Metabase's, so the same rows pick the same trend line) to choose among the fits.

import type { Col } from './annotate.js';
import { isNumeric, isTemporal } from '../compile/types.js';
import { TEMPORAL_EXTRACT_UNITS } from '../mbql/clauses.js';

const TRUNCATE_UNITS = new Set(['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);
const EXTRACT_UNITS = new Set<string>([...TEMPORAL_EXTRACT_UNITS, 'second-of-minute', 'year']);
const RELATIONS = new Set(['type/PK', 'type/FK']);

/** Days a unit lasts, for telling whether the last two points are one unit apart (Metabase's table, in its order). */
const UNIT_DAYS: Array<[string, number]> = [
  ['minute', 1 / 24 / 60],
  ['hour', 1 / 24],
  ['day', 1],
  ['week', 7],
  ['month', 30.5],
  ['quarter', 30.4 * 3],
  ['year', 365.1],
];

const MS_PER_DAY = 86_400_000;
const VALIDATION_SET = 20;

/** Java's java.util.Random (48-bit LCG) — the reservoir sample must pick the rows Metabase's picks. */
export class JavaRandom {
  // The 48-bit seed as two 24-bit halves, so the arithmetic stays exact in doubles.
  private hi: number;
  private lo: number;

  constructor(seed: number) {
    // (seed ^ 0x5DEECE66D) & (2^48 - 1), for a small non-negative seed.
    this.hi = 0x5de;
    this.lo = (0xece66d ^ seed) & 0xffffff;
  }

  /** next(31): the top 31 bits of the next seed. */
  private next31(): number {
    const MH = 0x5de;
    const ML = 0xece66d;
    const low = this.lo * ML + 0xb;
    const carry = Math.floor(low / 0x1000000);
    const hi = (this.hi * ML + this.lo * MH + carry) % 0x1000000;
    this.lo = low % 0x1000000;
    this.hi = hi;
    return hi * 128 + Math.floor(this.lo / 131072);
  }

  nextInt(bound: number): number {
    let r = this.next31();
    const m = bound - 1;
    if ((bound & m) === 0) return Math.floor(r / 2 ** (31 - Math.log2(bound)));
    for (let u = r; ((u - (r = u % bound) + m) | 0) < 0; u = this.next31());
    return r;
  }
}

/** Running least squares (Metabase's online form, so the sums agree to the last bit): [offset, slope] or null. */
class Regression {
  private c = 0;
  private mx = 0;
  private my = 0;
  private ssx = 0;
  private ssxy = 0;

  add(x: number, y: number): void {
    const c = this.c + 1;
    const mx = this.mx + (x - this.mx) / c;
    const my = this.my + (y - this.my) / c;
    this.ssx += (x - mx) * (x - this.mx);
    this.ssxy += (x - mx) * (y - this.my);
    this.c = c;
    this.mx = mx;
    this.my = my;
  }

  result(): [number, number] | null {
    if (this.ssx === 0) return null;
    const slope = this.ssxy / this.ssx;
    return [this.my - this.mx * slope, slope];
  }
}

const real = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

interface Family {
  logX: boolean;
  logY: boolean;
  model: (offset: number, slope: number) => (x: number) => number;
  formula: (offset: number, slope: number) => unknown[];
}

/** Linear, exponential, logarithmic and power trend lines, in Metabase's order. */
const FAMILIES: Family[] = [
  { logX: false, logY: false, model: (a, b) => (x) => a + b * x, formula: (a, b) => ['+', a, ['*', b, 'x']] },
  { logX: false, logY: true, model: (a, b) => (x) => Math.exp(a) * Math.exp(b * x), formula: (a, b) => ['*', Math.exp(a), ['exp', ['*', b, 'x']]] },
  { logX: true, logY: false, model: (a, b) => (x) => a + b * Math.log(x), formula: (a, b) => ['+', a, ['*', b, ['log', 'x']]] },
  { logX: true, logY: true, model: (a, b) => (x) => Math.exp(a) * Math.pow(x, b), formula: (a, b) => ['*', Math.exp(a), ['pow', 'x', b]] },
];

/** Relative change from x1 to x2, with Metabase's handling of negative values; null from 0 or a missing value. */
function change(x2: number | null, x1: number | null): number | null {
  if (x1 === null || x2 === null || x1 === 0) return null;
  if (x1 < 0 && x2 < 0) return change(-x1, -x2);
  if (x1 < 0 && x2 > 0) return negate(change(x1, x2));
  if (x1 < 0) return negate(change(x2, -x1));
  return (x2 - x1) / x1;
}

const negate = (x: number | null) => (x === null ? null : -x);

/** Whether two points (in days) are one `unit` apart, either way round; undefined for a unit Metabase can't tell. */
function validPeriod(from: number | null, to: number | null, unit: string | null): boolean | undefined {
  if (from === null || to === null || !unit) return false;
  const diff = Math.abs(to - from);
  if (unit === 'year') return diff >= 364.5 && diff <= 366.5;
  const days = UNIT_DAYS.find(([u]) => u === unit)?.[1];
  if (days === undefined) return undefined;
  const ratio = diff / days;
  return ratio > 0.9 && ratio < 1.1;
}

/** A temporal value of the result (ISO text with or without offset, or a time of day) → days since the epoch. */
function toDays(v: unknown): number | null {
  if (typeof v !== 'string') return v instanceof Date ? v.getTime() / MS_PER_DAY : null;
  let text = v;
  if (/^\d\d:\d\d/.test(text)) text = `1970-01-01T${text}`;
  else if (/^\d{4}-\d\d-\d\d$/.test(text)) text = `${text}T00:00:00Z`;
  if (!/(Z|[+-]\d\d(:?\d\d)?)$/i.test(text)) text += 'Z';
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms / MS_PER_DAY : null;
}

/** One numeric column's accumulators. */
class ColumnInsight {
  private yPrev: number | null = null;
  private yLast: number | null = null;
  private xPrev: number | null = null;
  private xLast: number | null = null;
  private readonly linear = new Regression();
  private readonly fits = FAMILIES.map(() => new Regression());
  private readonly sample: Array<[number, number]> = [];
  private sampled = 0;
  private readonly random = new JavaRandom(VALIDATION_SET);

  constructor(
    readonly name: string,
    readonly position: number,
  ) {}

  add(x: number | null, y: unknown): void {
    if (!real(y)) return;
    this.yPrev = this.yLast;
    this.yLast = y;
    this.xPrev = this.xLast;
    this.xLast = x;
    if (x === null) return;
    this.linear.add(x, y);
    FAMILIES.forEach((f, i) => this.fits[i].add(f.logX ? Math.log(x) : x, f.logY ? Math.log(y) : y));
    // Reservoir sampling of the validation set (java.util.Random seeded with its size, as Metabase does).
    const c = this.sampled;
    const idx = this.random.nextInt(c + 1);
    this.sampled = c + 1;
    if (c < VALIDATION_SET) this.sample[c] = [x, y];
    else if (idx < VALIDATION_SET) this.sample[idx] = [x, y];
  }

  /** The fitted family with the smallest mean absolute error on the sample (the later one on a tie). */
  private bestFit(): unknown[] | null {
    let best: unknown[] | null = null;
    let bestError = Infinity;
    FAMILIES.forEach((family, i) => {
      const fit = this.fits[i].result();
      if (!fit || !real(fit[0]) || !real(fit[1])) return;
      if (!this.sample.length) return;
      const model = family.model(fit[0], fit[1]);
      const error = this.sample.reduce((acc, [x, y]) => acc + Math.abs(y - model(x)), 0) / this.sample.length;
      if (!real(error)) return;
      if (error <= bestError) {
        bestError = error;
        best = family.formula(fit[0], fit[1]);
      }
    });
    return best;
  }

  /** The insight, or undefined when the unit can't be judged (Metabase fails the whole insight then). */
  build(colUnit: string | undefined): Record<string, unknown> | undefined {
    const { xPrev, xLast, yPrev } = this;
    const unit = !colUnit || colUnit === 'default' ? (UNIT_DAYS.find(([u]) => validPeriod(xPrev, xLast, u))?.[0] ?? null) : colUnit;
    const showChange = validPeriod(xPrev, xLast, unit);
    if (showChange === undefined) return undefined;
    const line = this.linear.result();
    return {
      'previous-value': showChange ? yPrev : null,
      unit,
      offset: line ? line[0] : null,
      'last-change': showChange ? change(this.yLast, yPrev) : null,
      col: this.name,
      slope: line ? line[1] : null,
      'last-value': this.yLast,
      'best-fit': this.bestFit(),
    };
  }
}

/** Accumulates the insights of a result's rows; `build()` → the `insights` array, or null. */
export class InsightsBuilder {
  private readonly x: number;
  private readonly unit: string | undefined;
  private readonly numbers: ColumnInsight[];

  constructor(cols: Col[]) {
    const datetimes: number[] = [];
    const numbers: number[] = [];
    cols.forEach((c, i) => {
      const unit = typeof c.unit === 'string' ? c.unit : undefined;
      if (typeof c.semantic_type === 'string' && RELATIONS.has(c.semantic_type)) return;
      const type = (c.effective_type as string | undefined) ?? c.base_type;
      if ((TRUNCATE_UNITS.has(unit ?? '') || isTemporal(type)) && c.source !== 'aggregation') datetimes.push(i);
      else if (EXTRACT_UNITS.has(unit ?? '') || isNumeric(c.base_type)) numbers.push(i);
    });
    const timeseries = datetimes.length === 1 && numbers.length > 0;
    this.x = timeseries ? datetimes[0] : -1;
    this.unit = timeseries ? (cols[this.x].unit as string | undefined) : undefined;
    this.numbers = timeseries ? numbers.map((i) => new ColumnInsight(cols[i].name, i)) : [];
  }

  get active(): boolean {
    return this.numbers.length > 0;
  }

  add(row: unknown[]): void {
    if (!this.numbers.length) return;
    const x = toDays(row[this.x]);
    for (const n of this.numbers) n.add(x, row[n.position]);
  }

  build(): Record<string, unknown>[] | null {
    if (!this.numbers.length) return null;
    const out: Record<string, unknown>[] = [];
    for (const n of this.numbers) {
      const insight = n.build(this.unit);
      if (!insight) return null;
      out.push(insight);
    }
    return out;
  }
}
