// Verified-credential cache: a login that repeats a password bcrypt accepted a moment ago skips bcrypt (~60 ms of
// CPU). An entry is HMAC-SHA256, under a random key that never leaves this process, of the user id, the stored hash
// and salt, and the password; it lives QUARRY_PASSWORD_CACHE_SECONDS (0 disables the cache).
// - Only a successful bcrypt check adds an entry; a wrong password never matches one, so it always costs bcrypt and
//   is throttled as before. A hit answers only what a correct password would, so its speed reveals nothing new.
// - The stored hash and salt are part of the entry, so a password change (on any instance) makes old entries
//   unreachable; is_active and the login type are read from the user row on every login, after this check.
// - The trade-off: a dump of this process's memory holds fast-to-test verifiers (and the key) of passwords used in
//   the last few minutes, where the app DB holds only bcrypt hashes. Set the variable to 0 where that matters.

import { createHmac, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';

const MAX_ENTRIES = 10_000;

class VerifiedPasswords {
  private readonly key = randomBytes(32);
  /** Entry → expiry (ms), oldest first (Map keeps insertion order). */
  private readonly entries = new Map<string, number>();
  private readonly byUser = new Map<number, Set<string>>();

  constructor(private readonly ttlMs: number) {}

  private entry(userId: number, stored: string, salt: string | null, password: string): string {
    return createHmac('sha256', this.key).update(`${userId}\0${stored}\0${salt ?? ''}\0`).update(password).digest('base64');
  }

  has(userId: number, stored: string, salt: string | null, password: string): boolean {
    const entry = this.entry(userId, stored, salt, password);
    const expiry = this.entries.get(entry);
    if (expiry === undefined) return false;
    if (expiry > Date.now()) return true;
    this.drop(userId, entry);
    return false;
  }

  add(userId: number, stored: string, salt: string | null, password: string): void {
    const entry = this.entry(userId, stored, salt, password);
    this.entries.delete(entry);
    this.entries.set(entry, Date.now() + this.ttlMs);
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(entry);
    while (this.entries.size > MAX_ENTRIES) this.evictOldest();
  }

  forgetUser(userId: number): void {
    for (const entry of this.byUser.get(userId) ?? []) this.entries.delete(entry);
    this.byUser.delete(userId);
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next().value as string;
    this.entries.delete(oldest);
    for (const [userId, set] of this.byUser) if (set.delete(oldest) && !set.size) this.byUser.delete(userId);
  }

  private drop(userId: number, entry: string): void {
    this.entries.delete(entry);
    const set = this.byUser.get(userId);
    if (set?.delete(entry) && !set.size) this.byUser.delete(userId);
  }
}

const caches = new WeakMap<AppContext, VerifiedPasswords | null>();

function cacheOf(ctx: AppContext): VerifiedPasswords | null {
  let cache = caches.get(ctx);
  if (cache === undefined) {
    const seconds = ctx.config.passwordCacheSeconds;
    cache = seconds > 0 ? new VerifiedPasswords(seconds * 1000) : null;
    caches.set(ctx, cache);
  }
  return cache;
}

/** Whether bcrypt accepted this password for this stored hash within the cache's lifetime. */
export function recentlyVerified(ctx: AppContext, userId: number, stored: string, salt: string | null, password: string): boolean {
  return cacheOf(ctx)?.has(userId, stored, salt, password) ?? false;
}

/** Records a password bcrypt just accepted. */
export function rememberVerified(ctx: AppContext, userId: number, stored: string, salt: string | null, password: string): void {
  cacheOf(ctx)?.add(userId, stored, salt, password);
}

/** Drops a user's entries (password changed, user deactivated): belt and braces beside the hash in each entry. */
export function forgetVerified(ctx: AppContext, userId: number): void {
  cacheOf(ctx)?.forgetUser(userId);
}
