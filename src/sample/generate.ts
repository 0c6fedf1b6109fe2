// The whole sample database as rows in memory, generated once per process from a fixed seed (the result is the
// same on every run and every machine, so it is computed lazily and kept).

import { Prng } from './prng.js';
import { generateEcommerce, type Row } from './ecommerce.js';
import { generatePiespace } from './piespace.js';

export const SAMPLE_SEED = 20240419;

export type SampleRows = Record<string, Row[]>;

let cached: SampleRows | null = null;

export function generateSample(seed = SAMPLE_SEED, options: { cache?: boolean } = {}): SampleRows {
  const useCache = seed === SAMPLE_SEED && options.cache !== false;
  if (useCache && cached) return cached;
  const rng = new Prng(seed);
  const shop = generateEcommerce(rng);
  const pies = generatePiespace(rng);
  const rows: SampleRows = {
    PRODUCTS: shop.products,
    PEOPLE: shop.people,
    ORDERS: shop.orders,
    REVIEWS: shop.reviews,
    ACCOUNTS: pies.accounts,
    ANALYTIC_EVENTS: pies.events,
    FEEDBACK: pies.feedback,
    INVOICES: pies.invoices,
  };
  if (useCache) cached = rows;
  return rows;
}
