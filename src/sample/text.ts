// People's names, e-mail addresses, user names, companies and free text, drawn from ./words.ts.

import type { Prng } from './prng.js';
import { COMPANY_FORMS, FIRST_NAMES, LAST_NAMES, REVIEW_WORDS, TASTING_WORDS } from './words.js';

export interface PersonName {
  first: string;
  last: string;
}

export function personName(rng: Prng): PersonName {
  return { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
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
