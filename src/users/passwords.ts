// Password hashing compatible with Metabase: bcrypt ($2a$, cost 10) of salt + password, the salt a random UUID.
// Metabase-made hashes verify here and ours verify there. Hashing runs natively on libuv's thread pool
// (@node-rs/bcrypt), so a login's ~60 ms of bcrypt never blocks the event loop.

import { hash, verify } from '@node-rs/bcrypt';
import { randomUUID } from 'node:crypto';
import { MAX_PASSWORD_LENGTH } from './password-policy.js';

const COST = 10;
// Compared against when the user doesn't exist, so that unknown and known emails take the same time.
// Made on first use rather than at start-up (a bcrypt hash costs ~60 ms of CPU).
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => (dummyHash ??= bcryptHash('not-a-real-password'));

/** @node-rs/bcrypt writes `$2y$`; `$2a$` is the same algorithm and is what jBCrypt (Metabase) reads. */
async function bcryptHash(text: string): Promise<string> {
  return (await hash(text, COST)).replace(/^\$2[by]\$/, '$2a$');
}

export interface HashedPassword {
  hash: string;
  salt: string;
}

export async function hashPassword(password: string): Promise<HashedPassword> {
  const salt = randomUUID();
  return { hash: await bcryptHash(salt + password), salt };
}

export async function verifyPassword(password: string, salt: string | null, hash: string | null): Promise<boolean> {
  // No password this long can be set (password-policy.ts), so it can't match: skip hashing megabytes.
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (!hash) {
    await verify(password, await getDummyHash());
    return false;
  }
  return verify((salt ?? '') + password, hash);
}

export async function dummyPasswordCheck(password: string): Promise<void> {
  await verify(password.slice(0, MAX_PASSWORD_LENGTH), await getDummyHash());
}
