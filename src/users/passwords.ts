// Password hashing compatible with Metabase: bcrypt ($2a$, cost 10) of salt + password, the salt a random UUID.
// Metabase-made hashes verify here and ours verify there.

import bcrypt from 'bcryptjs';
import { randomUUID } from 'node:crypto';
import { MAX_PASSWORD_LENGTH } from './password-policy.js';

const COST = 10;
// Compared against when the user doesn't exist, so that unknown and known emails take the same time.
// Made on first use rather than at start-up (a bcrypt hash costs ~100 ms).
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => (dummyHash ??= bcrypt.hash('not-a-real-password', COST));

export interface HashedPassword {
  hash: string;
  salt: string;
}

export async function hashPassword(password: string): Promise<HashedPassword> {
  const salt = randomUUID();
  // bcryptjs makes `$2b$` salts; `$2a$` is the same algorithm and is what jBCrypt (Metabase) reads.
  const generated = (await bcrypt.genSalt(COST)).replace(/^\$2b\$/, '$2a$');
  return { hash: await bcrypt.hash(salt + password, generated), salt };
}

export async function verifyPassword(password: string, salt: string | null, hash: string | null): Promise<boolean> {
  // No password this long can be set (password-policy.ts), so it can't match: skip hashing megabytes.
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (!hash) {
    await bcrypt.compare(password, await getDummyHash());
    return false;
  }
  return bcrypt.compare((salt ?? '') + password, hash);
}

export async function dummyPasswordCheck(password: string): Promise<void> {
  await bcrypt.compare(password.slice(0, MAX_PASSWORD_LENGTH), await getDummyHash());
}
