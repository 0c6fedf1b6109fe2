// A small seeded pseudo-random generator (sfc32) with the draws the sample generator needs. Same seed, same
// sequence, on every machine — the sample database is identical everywhere.

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Standard normal draw (Box–Muller). */
  gaussian(): number {
    let u = 0;
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  normal(mean: number, sd: number): number {
    return mean + sd * this.gaussian();
  }

  /** Picks a key with probability proportional to its weight. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, weight] of entries) {
      r -= weight;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** Exactly `count` copies of each value, in random order: exact marginal counts. */
  bag<T>(counts: ReadonlyArray<readonly [T, number]>): T[] {
    const out: T[] = [];
    for (const [value, count] of counts) for (let i = 0; i < count; i++) out.push(value);
    return this.shuffle(out);
  }

  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((Number.parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/**
 * Adjusts per-item counts, one unit at a time on random items, until they sum to `total`. Items at zero stay at
 * zero (so "people without orders" keeps its share) and counts stay within [1, max].
 */
export function adjustCounts(rng: Prng, counts: number[], total: number, max = Infinity): number[] {
  let sum = counts.reduce((a, b) => a + b, 0);
  const live = counts.map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
  while (sum !== total) {
    const i = live[Math.floor(rng.next() * live.length)];
    if (sum < total && counts[i] < max) {
      counts[i] += 1;
      sum += 1;
    } else if (sum > total && counts[i] > 1) {
      counts[i] -= 1;
      sum -= 1;
    }
  }
  return counts;
}
