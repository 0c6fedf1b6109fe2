// Leases: a row per job key in the app DB. A job runs only while it holds the job's lease, so a cluster of N
// instances runs each occurrence once (sync of a database, a scheduled send, a model's refresh, …).
//
// Each acquisition is its own holder (`<instance>/<n>`), not the instance: a lease held by this process is not
// taken a second time by another caller in the same process (two refreshes of one model started at once here, by a
// schedule and by a click, must not both run), and only the holder renews or releases it. A holder that crashed
// stops renewing; once its lease has expired, exactly one contender takes it over (a conditional update, or the
// insert only one can win).

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { isUniqueViolation } from '../appdb/portable.js';

/** This process's identity; lease holders are `${INSTANCE_ID}/<n>`. */
export const INSTANCE_ID = randomUUID();

let acquisitions = 0;

export interface Lease {
  key: string;
  holder: string;
}

/** Takes the lease on `key` for `ttlMs` if it is free or expired. Returns the lease, or null when someone holds it. */
export async function acquireLease(ctx: AppContext, key: string, ttlMs: number): Promise<Lease | null> {
  const holder = `${INSTANCE_ID}/${++acquisitions}`;
  const now = Date.now();
  const expires = now + ttlMs;
  const updated = await ctx.db
    .updateTable('task_lease')
    .set({ owner: holder, expires_at: expires })
    .where('lease_key', '=', key)
    .where('expires_at', '<', now)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return { key, holder };
  try {
    await ctx.db.insertInto('task_lease').values({ lease_key: key, owner: holder, expires_at: expires }).execute();
    return { key, holder };
  } catch (error) {
    // The row exists and is held, or another contender inserted it first — and may have released it since, which
    // leaves no row: either way someone else had it a moment ago. Any other failure (the app DB gone, a key it can't
    // store) is not "someone else has it" and must surface.
    const held = await ctx.db.selectFrom('task_lease').select('owner').where('lease_key', '=', key).executeTakeFirst();
    if (held ? held.owner !== holder : isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Extends a lease its holder still has; false when it lapsed and someone else took it. */
export async function renewLease(ctx: AppContext, lease: Lease, ttlMs: number): Promise<boolean> {
  const updated = await ctx.db
    .updateTable('task_lease')
    .set({ expires_at: Date.now() + ttlMs })
    .where('lease_key', '=', lease.key)
    .where('owner', '=', lease.holder)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

export async function releaseLease(ctx: AppContext, lease: Lease): Promise<void> {
  await ctx.db.deleteFrom('task_lease').where('lease_key', '=', lease.key).where('owner', '=', lease.holder).execute();
}

/** Runs `job` under the lease, renewing it while the job runs; returns false (without running) if it is held. */
export async function withLease<T>(ctx: AppContext, key: string, ttlMs: number, job: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const lease = await acquireLease(ctx, key, ttlMs);
  if (!lease) return { ran: false };
  const renew = setInterval(() => {
    renewLease(ctx, lease, ttlMs).then(
      (held) => held || ctx.log.warn({ lease: key }, 'a lease lapsed while its job ran (another instance may have taken it over)'),
      () => {},
    );
  }, Math.max(1000, Math.floor(ttlMs / 3)));
  renew.unref();
  try {
    return { ran: true, value: await job() };
  } finally {
    clearInterval(renew);
    await releaseLease(ctx, lease).catch(() => {});
  }
}
