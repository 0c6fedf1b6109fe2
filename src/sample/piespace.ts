// ACCOUNTS, ANALYTIC_EVENTS, FEEDBACK and INVOICES of "Piespace", the pie-subscription company. No generator for
// these is public, so they follow the empirical shape in reference/sample-database.md §2.5 / §3.2: exact row
// counts, the marginal distributions, and deliberately loose consistency between tables.

import { adjustCounts, type Prng } from './prng.js';
import { DAY, monthEnd, startOfDay, utc } from './time.js';
import { COUNTRIES } from './geography.js';
import { feedbackBody, firstNamePool, lastNamePool, namesFromPool, uniqueEmail } from './text.js';
import { RATING_LABELS } from './words.js';
import { SAMPLE_ROW_COUNTS } from './schema.js';
import type { Row } from './ecommerce.js';

export interface Piespace {
  accounts: Row[];
  events: Row[];
  feedback: Row[];
  invoices: Row[];
}

const ACCOUNTS_PER_YEAR: ReadonlyArray<readonly [number, number]> = [
  [2020, 67], [2021, 304], [2022, 233], [2023, 259], [2024, 207], [2025, 275],
  [2026, 164], [2027, 168], [2028, 182], [2029, 334], [2030, 140], [2031, 162],
];
const ACCOUNTS_FROM = utc(2020, 9, 15);
const ACCOUNTS_TO = utc(2031, 10, 10);
const BASIC_PAYMENTS: ReadonlyArray<readonly [number, number]> = [
  [251.5, 40], [295, 22], [266, 6], [280.5, 6], [309.5, 6], [324, 5], [338.5, 5], [353, 5], [367.5, 5],
];

/** Ids 1..n+gaps in order, with `gaps` ids left unused at random places (the shipped tables have holes). */
function idsWithGaps(rng: Prng, count: number, gaps: number): number[] {
  const skipped = new Set<number>();
  while (skipped.size < gaps) skipped.add(rng.int(2, count + gaps - 1));
  const ids: number[] = [];
  for (let id = 1; ids.length < count; id++) if (!skipped.has(id)) ids.push(id);
  return ids;
}

function logUniformInt(rng: Prng, min: number, max: number): number {
  return Math.round(Math.exp(rng.uniform(Math.log(min), Math.log(max))));
}

interface Account {
  id: number;
  email: string;
  createdAt: number;
  trialEndsAt: number | null;
}

/** Distinct first and last names among the accounts (reference: 1,687 / 473). */
const ACCOUNT_FIRST_NAMES = 1687;
const ACCOUNT_LAST_NAMES = 473;
const MAX_SEATS = 1325;

/**
 * The seat counts of the big (> 100 seats) accounts: most just above 100, a long tail up to the one account with
 * 1,325 — taken at evenly spaced quantiles of 101·e^X, X exponential with rate 2.5 (so their mean is about 170 and
 * the accounts' overall mean about 16, as shipped), then shuffled.
 */
function bigSeatCounts(rng: Prng, count: number): number[] {
  const out = Array.from({ length: count - 1 }, (_, k) => Math.min(MAX_SEATS - 1, Math.round(101 * Math.exp(-Math.log(1 - (k + 0.5) / (count - 1)) / 2.5))));
  out.push(MAX_SEATS);
  return rng.shuffle(out);
}

function seatsFor(rng: Prng, bucket: string, big: number[]): number {
  switch (bucket) {
    case '1':
      return 1;
    case '3':
      return 3;
    case '2-5':
      return rng.pick([2, 4, 5]);
    case '6-20':
      return logUniformInt(rng, 6, 20);
    case '21-100':
      return logUniformInt(rng, 21, 100);
    default:
      return big.pop()!;
  }
}

function generateAccounts(rng: Prng): { rows: Row[]; accounts: Account[] } {
  const n = SAMPLE_ROW_COUNTS.ACCOUNTS;
  const created = rng
    .bag(ACCOUNTS_PER_YEAR)
    .map((year) => {
      const from = Math.max(ACCOUNTS_FROM, utc(year, 1, 1));
      const to = Math.min(ACCOUNTS_TO, utc(year + 1, 1, 1));
      return Math.floor(rng.uniform(from, to));
    })
    .sort((a, b) => a - b);
  const plans = rng.bag<string>([['Basic', 2378], ['Premium', 86], ['Business', 31]]);
  const sources = rng.bag<string | null>([[null, 835], ['Invite', 436], ['Google', 420], ['Twitter', 414], ['Facebook', 390]]);
  const seatBuckets = rng.bag<string>([['1', 501], ['3', 954], ['2-5', 213], ['6-20', 438], ['21-100', 306], ['101+', 83]]);
  const bigSeats = bigSeatCounts(rng, 83);
  const firstNames = namesFromPool(rng, firstNamePool(ACCOUNT_FIRST_NAMES), n);
  const lastNames = namesFromPool(rng, lastNamePool(ACCOUNT_LAST_NAMES), n);
  const trialLengths = rng.bag<number | null>([[14, 975], [15, 1499], [null, 3], [-1, 18]]);
  const converted = rng.bag<boolean>([[true, 1063], [false, n - 1063]]);
  const convertedIndexes = converted.map((c, i) => (c ? i : -1)).filter((i) => i >= 0);
  const active = new Set(rng.shuffle(convertedIndexes).slice(0, 464));
  const businessIndexes = plans.map((p, i) => (p === 'Business' ? i : -1)).filter((i) => i >= 0);
  const legacy = new Set(rng.shuffle(businessIndexes).slice(0, 6));
  const noLocation = rng.int(0, n - 1);
  const noCountry = new Set([rng.int(0, n - 1), rng.int(0, n - 1)]);
  const countryWeights = COUNTRIES.map((c) => [c, c.weight] as const);
  const emails = new Set<string>();
  const rows: Row[] = [];
  const accounts: Account[] = [];
  for (let i = 0; i < n; i++) {
    const name = { first: firstNames[i], last: lastNames[i] };
    const email = uniqueEmail(rng, name, ['gmail.example', 'yahoo.example', 'hotmail.example'], emails);
    const createdAt = created[i];
    const trialDays = trialLengths[i] === -1 ? rng.int(7, 30) : trialLengths[i];
    const trialEndsAt = trialDays === null ? null : startOfDay(createdAt) + trialDays * DAY + 12 * 3600_000;
    const trialEnd = trialEndsAt ?? createdAt + 14 * DAY;
    let canceledAt: number | null = null;
    if (!active.has(i)) {
      canceledAt = converted[i]
        ? trialEnd + Math.floor(rng.uniform(30 * DAY, 3 * 365 * DAY))
        : trialEnd - DAY + Math.floor(rng.uniform(-6, 6) * 3600_000);
    }
    const country = rng.weighted(countryWeights);
    const latitude = i === noLocation ? null : Math.max(-55, Math.min(72, country.lat + rng.normal(0, country.spread / 2)));
    const longitude = i === noLocation ? null : ((country.lon + rng.normal(0, country.spread / 2) + 540) % 360) - 180;
    accounts.push({ id: i + 1, email, createdAt, trialEndsAt });
    rows.push([
      i + 1, email, name.first, name.last, plans[i], sources[i], seatsFor(rng, seatBuckets[i], bigSeats), createdAt, trialEndsAt, canceledAt,
      converted[i], active.has(i), legacy.has(i), latitude, longitude, noCountry.has(i) ? null : country.code,
    ]);
  }
  return { rows, accounts };
}

function generateInvoices(rng: Prng, accounts: Account[]): Row[] {
  const total = SAMPLE_ROW_COUNTS.INVOICES;
  const counts = adjustCounts(rng, accounts.map(() => Math.min(22, Math.max(1, Math.ceil(-Math.log(1 - rng.next()) * 5.6)))), total, 22);
  const plans = rng.bag<string>([['Basic', 12579], ['Business', 1083], ['Premium', 194]]);
  const expected = rng.bag<boolean>([[true, 13401], [false, 455]]);
  const pending: Array<[number, number, number, boolean, string, number]> = [];
  let k = 0;
  accounts.forEach((account, a) => {
    const firstMonth = account.trialEndsAt ?? account.createdAt;
    for (let i = 0; i < counts[a]; i++, k++) {
      const plan = plans[k];
      let payment: number;
      if (plan === 'Business') payment = Math.round(1455 * 1.15 ** i * 10) / 10;
      else if (plan === 'Premium') payment = 875;
      else payment = rng.weighted(BASIC_PAYMENTS) * (rng.chance(0.1) ? 0.93 : 1);
      const date = monthEnd(firstMonth, i) - rng.int(0, 4) * DAY;
      pending.push([0, account.id, payment, expected[k], plan, date]);
    }
  });
  pending.sort((x, y) => x[5] - y[5] || x[1] - y[1]);
  const ids = idsWithGaps(rng, total, 14101 - total);
  return pending.map((row, i) => [ids[i], row[1], row[2], row[3], row[4], row[5]]);
}

function generateFeedback(rng: Prng, accounts: Account[]): Row[] {
  const chosen = rng.shuffle([...accounts]).slice(0, SAMPLE_ROW_COUNTS.FEEDBACK);
  const ratings = rng.bag<number>([[1, 6], [2, 78], [3, 277], [4, 239], [5, 42]]);
  const last = utc(2031, 12, 1);
  const rows = chosen.map((account, i) => {
    const received = startOfDay(Math.min(last, account.createdAt + Math.floor(rng.uniform(20, 400)) * DAY));
    return [0, account.id, account.email, received, ratings[i], RATING_LABELS[ratings[i]], feedbackBody(rng)] as Row;
  });
  rows.sort((x, y) => (x[3] as number) - (y[3] as number) || (x[1] as number) - (y[1] as number));
  rows.forEach((row, i) => (row[0] = i + 1));
  return rows;
}

function generateEvents(rng: Prng, accounts: Account[]): Row[] {
  const total = SAMPLE_ROW_COUNTS.ANALYTIC_EVENTS;
  const active = rng.shuffle([...accounts]).slice(0, 1528);
  const counts = active.map((_, i) => (i < 326 ? 1 : Math.max(2, Math.ceil(Math.exp(rng.normal(2.7, 1.25))))));
  const singles = counts.slice(0, 326);
  const rest = adjustCounts(rng, counts.slice(326), total - singles.length, 1581);
  const from = utc(2022, 3, 15, 0, 18);
  const to = utc(2022, 6, 21, 23, 10);
  const kinds = rng.bag<string>([['Page Viewed', 31985], ['Button Clicked', 5184]]);
  const pages = ['help', 'home', 'invite', 'login', 'pies'];
  const buttons = ['Checkout', 'Create Item', 'Invite', 'Signup', 'Subscribe'];
  const pending: Array<[number, number]> = [];
  [...singles, ...rest].forEach((count, i) => {
    let left = count;
    while (left > 0) {
      const session = Math.min(left, rng.int(1, 15));
      let at = Math.floor(rng.uniform(from, to));
      for (let e = 0; e < session; e++) {
        pending.push([active[i].id, Math.min(to, at)]);
        at += rng.int(20, 360) * 1000;
      }
      left -= session;
    }
  });
  pending.sort((x, y) => x[1] - y[1] || x[0] - y[0]);
  const ids = idsWithGaps(rng, total, 3);
  return pending.map(([accountId, timestamp], i) => {
    const event = kinds[i];
    const page = event === 'Page Viewed' ? `www.piespace.example/${rng.pick(pages)}` : null;
    const button = event === 'Button Clicked' ? rng.pick(buttons) : null;
    return [ids[i], accountId, event, timestamp, page, button];
  });
}

export function generatePiespace(rng: Prng): Piespace {
  const { rows: accounts, accounts: info } = generateAccounts(rng);
  const invoices = generateInvoices(rng, info);
  const feedback = generateFeedback(rng, info);
  const events = generateEvents(rng, info);
  return { accounts, events, feedback, invoices };
}
