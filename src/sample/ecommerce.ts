// PRODUCTS, REVIEWS, PEOPLE and ORDERS, following the statistical model of Metabase's sample generator as
// restated in reference/sample-database.md §3.1 (generated in that order, ids assigned in loop order), with exact
// row counts and the exact category and source splits of the shipped data.

import { adjustCounts, type Prng } from './prng.js';
import { ANCHOR, addYears, formatDate, utc } from './time.js';
import { CITY_PATTERNS, CITY_PREFIXES, CITY_SUFFIXES, PRODUCT_ADJECTIVES, PRODUCT_MATERIALS, PRODUCT_NOUNS, STREET_DIRECTIONS, STREET_NAMES, STREET_TYPES } from './words.js';
import { TAX_RATE_BY_STATE, US_STATES, type UsState } from './geography.js';
import { companyName, personName, reviewBody, uniqueEmail, userName } from './text.js';
import { SAMPLE_ROW_COUNTS } from './schema.js';

export type Row = unknown[];

const CREATED_FROM = addYears(ANCHOR, -2);
const CREATED_TO = addYears(ANCHOR, 1);
const ACTIVITY_END = addYears(ANCHOR, 2);
const PRICE_RISE = utc(2024, 1, 1);
const MONTH_FACTORS = [0.6, 0.5, 0.3, 0.9, 1.3, 1.9, 1.5, 2.1, 1.5, 1.7, 0.9, 0.6];
const REVIEW_RATINGS: ReadonlyArray<readonly [number, number]> = [[1, 2], [2, 3], [3, 2], [4, 21], [5, 13]];

/** The generator's "two humps": a normal around one of two means, redrawn until it lands in [min, max]. */
function twoHump(rng: Prng, min: number, max: number, low: number, high: number, sd: number): number {
  for (;;) {
    const v = rng.normal(rng.chance(0.5) ? low : high, sd);
    if (v >= min && v <= max) return v;
  }
}

/** A count drawn as max(0, Normal(mean, sd)), where any fraction counts as one more (the original's behaviour). */
function fractionalCount(rng: Prng, mean: number, sd: number): number {
  return Math.ceil(Math.max(0, rng.normal(mean, sd)));
}

function ean13(rng: Prng): string {
  const digits = Array.from({ length: 12 }, () => rng.int(0, 9));
  const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 1 : 3), 0);
  return digits.join('') + ((10 - (sum % 10)) % 10);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface Ecommerce {
  products: Row[];
  reviews: Row[];
  people: Row[];
  orders: Row[];
}

interface Product {
  id: number;
  price: number;
  createdAt: number;
}

function generateProducts(rng: Prng): { rows: Row[]; products: Product[] } {
  const categories = rng.bag<string>([['Doohickey', 42], ['Gadget', 53], ['Gizmo', 51], ['Widget', 54]]);
  const vendors = new Set<string>();
  const rows: Row[] = [];
  const products: Product[] = [];
  for (let i = 0; i < SAMPLE_ROW_COUNTS.PRODUCTS; i++) {
    let vendor = companyName(rng);
    while (vendors.has(vendor)) vendor = companyName(rng);
    vendors.add(vendor);
    const price = twoHump(rng, 12, 100, 38.4, 78, 11);
    const createdAt = Math.floor(rng.uniform(CREATED_FROM, CREATED_TO));
    const title = `${rng.pick(PRODUCT_ADJECTIVES)} ${rng.pick(PRODUCT_MATERIALS)} ${rng.pick(PRODUCT_NOUNS)}`;
    products.push({ id: i + 1, price, createdAt });
    rows.push([i + 1, ean13(rng), title, categories[i], vendor, price, 0, createdAt]);
  }
  return { rows, products };
}

function generateReviews(rng: Prng, productRows: Row[], products: Product[]): Row[] {
  const counts = adjustCounts(rng, products.map(() => fractionalCount(rng, 5, 4)), SAMPLE_ROW_COUNTS.REVIEWS, 18);
  const rows: Row[] = [];
  products.forEach((product, index) => {
    const ratings: number[] = [];
    for (let i = 0; i < counts[index]; i++) {
      const rating = rng.weighted(REVIEW_RATINGS);
      ratings.push(rating);
      const createdAt = Math.floor(rng.uniform(product.createdAt, ACTIVITY_END));
      rows.push([rows.length + 1, product.id, userName(rng), rating, reviewBody(rng), createdAt]);
    }
    const mean = ratings.length ? ratings.reduce((a, b) => a + b, 0) / ratings.length : 0;
    productRows[index][6] = Math.floor(mean * 10 + 1e-9) / 10;
  });
  return rows;
}

function cityName(rng: Prng): string {
  const pattern = rng.pick(CITY_PATTERNS);
  return pattern.replace('{p}', rng.pick(CITY_PREFIXES)).replace('{s}', rng.pick(CITY_SUFFIXES));
}

function streetAddress(rng: Prng): string {
  const first = rng.int(1, 9899);
  const number = rng.chance(0.3) ? `${first}-${first + rng.int(2, 300)}` : String(first);
  const direction = rng.chance(0.25) ? `${rng.pick(STREET_DIRECTIONS)} ` : '';
  return `${number} ${direction}${rng.pick(STREET_NAMES)} ${rng.pick(STREET_TYPES)}`;
}

interface Person {
  id: number;
  state: string;
  createdAt: number;
}

function generatePeople(rng: Prng): { rows: Row[]; people: Person[] } {
  const states = rng.bag(US_STATES.map((s) => [s, s.people] as [UsState, number]));
  const sources = rng.bag<string>([['Affiliate', 506], ['Facebook', 512], ['Google', 503], ['Organic', 484], ['Twitter', 495]]);
  const emails = new Set<string>();
  const birthFrom = utc(1958, 4, 19);
  const birthTo = utc(2000, 4, 19);
  const rows: Row[] = [];
  const people: Person[] = [];
  for (let i = 0; i < SAMPLE_ROW_COUNTS.PEOPLE; i++) {
    const name = personName(rng);
    const state = states[i];
    const email = uniqueEmail(rng, name, ['gmail.com', 'yahoo.com', 'hotmail.com'], emails);
    const zip = String(rng.int(state.zip[0], state.zip[1]) * 100 + rng.int(0, 99)).padStart(5, '0');
    const latitude = rng.uniform(state.lat[0], state.lat[1]);
    const longitude = rng.uniform(state.lon[0], state.lon[1]);
    const birthDate = formatDate(Math.floor(rng.uniform(birthFrom, birthTo)));
    const createdAt = Math.floor(rng.uniform(CREATED_FROM, CREATED_TO));
    people.push({ id: i + 1, state: state.code, createdAt });
    rows.push([
      i + 1, streetAddress(rng), email, rng.uuid(), `${name.first} ${name.last}`, cityName(rng), longitude, state.code,
      sources[i], birthDate, zip, latitude, createdAt,
    ]);
  }
  return { rows, people };
}

function generateOrders(rng: Prng, people: Person[], products: Product[]): Row[] {
  const counts = adjustCounts(rng, people.map(() => fractionalCount(rng, 5, 10)), SAMPLE_ROW_COUNTS.ORDERS, 46);
  const rows: Row[] = [];
  const rawQuantities: number[] = [];
  for (let p = 0; p < people.length; p++) {
    const person = people[p];
    for (let i = 0; i < counts[p]; i++) {
      const product = rng.pick(products);
      const createdAt = Math.floor(rng.uniform(Math.min(person.createdAt, product.createdAt), ACTIVITY_END));
      const subtotal = createdAt >= PRICE_RISE ? product.price * 1.5 : product.price;
      const tax = round2(subtotal * (TAX_RATE_BY_STATE[person.state] ?? 0));
      const discount = rng.chance(0.1) ? twoHump(rng, 0, 10, 3, 7.5, 1.25) : null;
      rawQuantities.push(twoHump(rng, 1, 5, 2.2, 4.0, 0.5));
      // ID, USER_ID, PRODUCT_ID, SUBTOTAL, TAX, TOTAL, DISCOUNT, CREATED_AT, QUANTITY
      rows.push([rows.length + 1, person.id, product.id, subtotal, tax, 0, discount, createdAt, 0]);
    }
  }
  // Post-processing over the whole list, in person order (§3.1 step 5).
  const discounted = rows.map((r, i) => (r[6] !== null ? i : -1)).filter((i) => i >= 0);
  const boostedDiscounts = new Set(rng.shuffle(discounted).slice(0, 5));
  rows.forEach((row, i) => {
    let quantity = i === 0 ? rawQuantities[0] : (rawQuantities[i] + rawQuantities[i - 1]) / 2;
    if (rng.chance(0.01)) quantity *= 10;
    quantity *= MONTH_FACTORS[new Date(row[7] as number).getUTCMonth()];
    row[8] = Math.min(100, Math.round(quantity));
    if (boostedDiscounts.has(i)) row[6] = (row[6] as number) * 10;
    row[5] = (row[3] as number) + (row[4] as number) - ((row[6] as number | null) ?? 0);
  });
  return rows;
}

export function generateEcommerce(rng: Prng): Ecommerce {
  const { rows: products, products: productInfo } = generateProducts(rng);
  const reviews = generateReviews(rng, products, productInfo);
  const { rows: people, people: personInfo } = generatePeople(rng);
  const orders = generateOrders(rng, personInfo, productInfo);
  return { products, reviews, people, orders };
}
