// Password rules, as Metabase applies them: a complexity level (MB_PASSWORD_COMPLEXITY) and, unless the level is
// weak, a list of common passwords (fxa-common-password-list, ~50k entries, checked case-insensitively).
// Every failure carries the same message, as in Metabase.

import { createRequire } from 'node:module';
import type { Config } from '../config.js';

export const PASSWORD_MESSAGE = 'password is too common.';

/**
 * Longest password accepted anywhere (setting, checking, logging in). bcrypt reads only 72 bytes anyway; the limit
 * keeps a multi-megabyte "password" from costing seconds of character counting or hashing.
 */
export const MAX_PASSWORD_LENGTH = 1024;
export const PASSWORD_TOO_LONG = `should be at most ${MAX_PASSWORD_LENGTH} characters`;

export function isTooLongPassword(password: unknown): boolean {
  return typeof password === 'string' && password.length > MAX_PASSWORD_LENGTH;
}

interface Requirements {
  total: number;
  lower?: number;
  upper?: number;
  digit?: number;
  special?: number;
}

export function requirements(config: Pick<Config, 'passwordComplexity' | 'passwordLength'>): Requirements {
  const base: Requirements =
    config.passwordComplexity === 'weak'
      ? { total: 6 }
      : config.passwordComplexity === 'strong'
        ? { total: 8, lower: 2, upper: 2, digit: 1, special: 1 }
        : { total: 6, digit: 1 };
  return config.passwordLength ? { ...base, total: config.passwordLength } : base;
}

/** The `password-complexity` setting: the requirements map, e.g. {"total": 6, "digit": 1}. */
export function passwordComplexityDescription(config: Pick<Config, 'passwordComplexity' | 'passwordLength'>) {
  return requirements(config);
}

let commonList: { test(password: string): boolean } | null = null;
function isCommon(password: string): boolean {
  commonList ??= createRequire(import.meta.url)('fxa-common-password-list') as { test(password: string): boolean };
  return commonList.test(password.toLowerCase());
}

function count(password: string, test: (ch: string) => boolean): number {
  let n = 0;
  for (const ch of password) if (test(ch)) n++;
  return n;
}

export function isValidPassword(password: unknown, config: Pick<Config, 'passwordComplexity' | 'passwordLength'>): boolean {
  if (typeof password !== 'string' || isTooLongPassword(password)) return false;
  const req = requirements(config);
  const lower = count(password, (c) => c !== c.toUpperCase() && c === c.toLowerCase());
  const upper = count(password, (c) => c !== c.toLowerCase() && c === c.toUpperCase());
  const digit = count(password, (c) => /\p{Nd}/u.test(c));
  const special = [...password].length - lower - upper - digit;
  if ([...password].length < req.total) return false;
  if ((req.lower ?? 0) > lower || (req.upper ?? 0) > upper || (req.digit ?? 0) > digit || (req.special ?? 0) > special) {
    return false;
  }
  return config.passwordComplexity === 'weak' || !isCommon(password);
}
