// Comparing a secret a client sent with the expected one without leaking, through timing, how much of it matched.

import { createHash, timingSafeEqual } from 'node:crypto';

export function secretsEqual(sent: string, expected: string): boolean {
  // Hashes first, so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(sent).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
