// Leases: a row per job key in the app DB. An instance runs a job only while it holds the job's lease, so a
// cluster of N instances runs each occurrence once (sync of a database, a scheduled send, …).

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';

/** This process's identity as a lease owner. */
export const INSTANCE_ID = randomUUID();

/**
 * Takes the lease on `key` for `ttlMs` if it is free or expired (or already ours). Returns true when held.
 * Works on all three app DBs: a conditional update first, then an insert that only one contender can win.
 */
export async function acquireLease(ctx: AppContext, key: string, ttlMs: number): Promise<boolean> {
  const now = Date.now();
  const expires = now + ttlMs;
  const updated = await ctx.db
    .updateTable('task_lease')
    .set({ owner: INSTANCE_ID, expires_at: expires })
    .where('lease_key', '=', key)
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('owner', '=', INSTANCE_ID)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return true;
  try {
    await ctx.db.insertInto('task_lease').values({ lease_key: key, owner: INSTANCE_ID, expires_at: expires }).execute();
    return true;
  } catch {
    return false; // the row exists and is held by someone else (or another instance inserted it first)
  }
}

export async function releaseLease(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.deleteFrom('task_lease').where('lease_key', '=', key).where('owner', '=', INSTANCE_ID).execute();
}

/** Runs `job` under the lease, renewing it while the job runs; returns false (without running) if it is held. */
export async function withLease<T>(ctx: AppContext, key: string, ttlMs: number, job: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  if (!(await acquireLease(ctx, key, ttlMs))) return { ran: false };
  const renew = setInterval(() => {
    acquireLease(ctx, key, ttlMs).catch(() => {});
  }, Math.max(1000, Math.floor(ttlMs / 3)));
  renew.unref();
  try {
    return { ran: true, value: await job() };
  } finally {
    clearInterval(renew);
    await releaseLease(ctx, key).catch(() => {});
  }
}
