// People's names, e-mail addresses, user names, companies and free text, drawn from ./words.ts.

import { Prng } from './prng.js';
import {
  COMPANY_FORMS, FIRST_NAMES, LAST_NAMES, NAME_ENDINGS, NAME_NUCLEI, NAME_ONSETS, REVIEW_WORDS, SURNAME_ENDINGS, SURNAME_ROOTS, TASTING_WORDS,
} from './words.js';

export interface PersonName {
  first: string;
  last: string;
}

export function personName(rng: Prng): PersonName {
  return { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
}

/** `count` distinct names: `base` first, then `extra` candidates (in a fixed shuffled order) not already taken. */
function namePool(base: readonly string[], extra: string[], count: number, seed: number): string[] {
  const pool = [...new Set(base)];
  const taken = new Set(pool.map((n) => n.toLowerCase()));
  for (const name of new Prng(seed).shuffle(extra)) {
    if (pool.length >= count) break;
    if (taken.has(name.toLowerCase())) continue;
    taken.add(name.toLowerCase());
    pool.push(name);
  }
  if (pool.length < count) throw new Error(`only ${pool.length} distinct names for ${count}`);
  return pool.slice(0, count);
}

/** `count` distinct first names: the word list, then syllable compounds ("Mirela", "Thorin"). */
export function firstNamePool(count: number): string[] {
  const extra: string[] = [];
  for (const onset of NAME_ONSETS) for (const nucleus of NAME_NUCLEI) for (const ending of NAME_ENDINGS) extra.push(onset + nucleus + ending);
  return namePool(FIRST_NAMES, extra, count, 0x6e616d65);
}

/** `count` distinct last names: the word list, then compounds ("Ashworth", "Greenley"). */
export function lastNamePool(count: number): string[] {
  const extra: string[] = [];
  for (const root of SURNAME_ROOTS) for (const ending of SURNAME_ENDINGS) extra.push(root + ending);
  return namePool(LAST_NAMES, extra, count, 0x7375726e);
}

/**
 * `rows` names using every name of `pool` at least once (so exactly `pool.length` are distinct), the rest drawn
 * from it, in random order.
 */
export function namesFromPool(rng: Prng, pool: readonly string[], rows: number): string[] {
  const out = [...pool];
  while (out.length < rows) out.push(rng.pick(pool));
  return rng.shuffle(out);
}

const EMAIL_FORMS: ReadonlyArray<readonly [(n: PersonName) => string, number]> = [
  [(n) => `${n.last}-${n.first}`, 27],
  [(n) => `${n.first}.${n.last}`, 26],
  [(n) => `${n.last}.${n.first}`, 24],
  [(n) => `${n.first}-${n.last}`, 23],
];

/** A unique address built from the person's own name; `domains` like gmail.com or gmail.example. */
export function uniqueEmail(rng: Prng, name: PersonName, domains: readonly string[], taken: Set<string>): string {
  const local = rng.weighted(EMAIL_FORMS)({ first: name.first.toLowerCase(), last: name.last.toLowerCase() });
  const domain = rng.pick(domains);
  let email = `${local}@${domain}`;
  while (taken.has(email)) email = `${local}${rng.int(1, 999)}@${domain}`;
  taken.add(email);
  return email;
}

export function userName(rng: Prng): string {
  const n = personName(rng);
  const first = n.first.toLowerCase();
  const last = n.last.toLowerCase();
  const form = rng.weighted<string>([['first', 47], ['dot', 29], ['dash', 25]]);
  if (form === 'dot') return `${first}.${last}`;
  if (form === 'dash') return `${first}-${last}`;
  return rng.chance(0.7) ? `${first}${rng.int(1, 9999)}` : first;
}

export function companyName(rng: Prng): string {
  const form = rng.weighted(COMPANY_FORMS);
  return form
    .replace('{F}', rng.pick(FIRST_NAMES))
    .replace('{L1}', rng.pick(LAST_NAMES))
    .replace('{L2}', rng.pick(LAST_NAMES))
    .replace('{L3}', rng.pick(LAST_NAMES));
}

/** Sentences of `words`, cut at a word boundary so the text is at most `length` characters long. */
export function paragraph(rng: Prng, words: readonly string[], length: number): string {
  let text = '';
  let sentence: string[] = [];
  let sentenceLength = rng.int(4, 14);
  for (;;) {
    const word = rng.pick(words);
    const candidate = sentence.length === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word;
    const prefix = text ? `${text} ` : '';
    if ((prefix + [...sentence, candidate].join(' ') + '.').length > length) break;
    sentence.push(candidate);
    if (sentence.length === sentenceLength) {
      text = prefix + sentence.join(' ') + (rng.chance(0.15) ? '!' : '.');
      sentence = [];
      sentenceLength = rng.int(4, 14);
    }
  }
  if (sentence.length) text = (text ? `${text} ` : '') + sentence.join(' ') + '.';
  return text;
}

export function reviewBody(rng: Prng): string {
  return paragraph(rng, REVIEW_WORDS, Math.round(Math.min(325, Math.max(80, rng.normal(177, 55)))));
}

export function feedbackBody(rng: Prng): string {
  return paragraph(rng, TASTING_WORDS, Math.round(Math.min(1339, Math.max(16, Math.exp(rng.normal(5.9, 0.55))))));
}
