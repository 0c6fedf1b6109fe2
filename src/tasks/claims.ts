// Claims on occurrences of scheduled jobs: rows of `scheduled_occurrence`, one per (job kind, job key, fire time).
// The unique index on those three columns is what makes an occurrence run once in a cluster: every instance that
// sees it due tries to insert the row, and only one insert succeeds. The winner holds a lease (renewed while it
// runs); a row whose lease lapsed (its instance died) or whose retry is due is taken over by a conditional UPDATE
// that only one instance can win.

import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { insertReturningId, isUniqueViolation, nowIso, parseJson, toJson } from '../appdb/portable.js';

export interface Claim {
  id: number;
  kind: string;
  key: string;
  occurrence: Date;
  attempt: number;
  progress: Record<string, unknown>;
}

type Row = {
  id: number;
  job_kind: string;
  job_key: string;
  occurrence: string;
  status: string;
  attempt: number;
  progress: string | null;
};

function claimOf(row: Row, attempt: number): Claim {
  return {
    id: Number(row.id),
    kind: row.job_kind,
    key: row.job_key,
    occurrence: new Date(row.occurrence),
    attempt,
    progress: parseJson<Record<string, unknown>>(row.progress, {}),
  };
}

const CHUNK = 500;

/** Which of these (key, occurrence) pairs of one kind already have a row (claimed by anyone, in any state). */
export async function claimedAlready(ctx: AppContext, kind: string, candidates: Array<{ key: string; occurrence: string }>): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < candidates.length; i += CHUNK) {
    const chunk = candidates.slice(i, i + CHUNK);
    const rows = await ctx.db
      .selectFrom('scheduled_occurrence')
      .select(['job_key', 'occurrence'])
      .where('job_kind', '=', kind)
      .where('job_key', 'in', [...new Set(chunk.map((c) => c.key))])
      .where('occurrence', 'in', [...new Set(chunk.map((c) => c.occurrence))])
      .execute();
    for (const r of rows) out.add(`${r.job_key}\u0000${r.occurrence}`);
  }
  return out;
}

/** Claims a fresh occurrence: the one instance whose insert succeeds gets it (attempt 1); the others get null. */
export async function claimNew(ctx: AppContext, owner: string, kind: string, key: string, occurrence: string, leaseMs: number): Promise<Claim | null> {
  const now = nowIso();
  const row = { job_kind: kind, job_key: key, occurrence, status: 'running', owner, lease_expires_at: Date.now() + leaseMs, attempt: 1, next_attempt_at: null, progress: null, last_error: null, created_at: now, updated_at: now };
  try {
    const id = await insertReturningId(ctx.db, ctx.dialect, 'scheduled_occurrence', row);
    return claimOf({ ...row, id }, 1);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Rows another instance may take over now: a due retry, or a run whose lease lapsed. */
export async function takeoverCandidates(ctx: AppContext, kinds: string[], limit: number): Promise<Row[]> {
  if (!kinds.length || limit <= 0) return [];
  const now = Date.now();
  return ctx.db
    .selectFrom('scheduled_occurrence')
    .select(['id', 'job_kind', 'job_key', 'occurrence', 'status', 'attempt', 'progress'])
    .where('job_kind', 'in', kinds)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'retry'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', now)]),
      ]),
    )
    .orderBy('occurrence')
    .limit(limit)
    .execute();
}

/**
 * Takes over a row found by `takeoverCandidates`, if it is still in the state it was read in (a conditional update
 * only one instance wins). The attempt count goes up by one.
 */
export async function claimExisting(ctx: AppContext, owner: string, row: Row, leaseMs: number): Promise<Claim | null> {
  const now = Date.now();
  const result = await ctx.db
    .updateTable('scheduled_occurrence')
    .set({ status: 'running', owner, lease_expires_at: now + leaseMs, attempt: Number(row.attempt) + 1, updated_at: nowIso() })
    .where('id', '=', row.id)
    .where('attempt', '=', row.attempt)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'retry'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', now)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? claimOf(row, Number(row.attempt) + 1) : null;
}

/** Extends the lease of a run this owner holds; false when it no longer holds it. */
export async function renewClaim(ctx: AppContext, owner: string, id: number, leaseMs: number): Promise<boolean> {
  const result = await ctx.db
    .updateTable('scheduled_occurrence')
    .set({ lease_expires_at: Date.now() + leaseMs })
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records what the run has done so far (read back by a retry). */
export async function saveProgress(ctx: AppContext, owner: string, id: number, progress: Record<string, unknown>): Promise<void> {
  await ctx.db
    .updateTable('scheduled_occurrence')
    .set({ progress: toJson(progress), updated_at: nowIso() })
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('status', '=', 'running')
    .execute();
}

export type Outcome =
  | { status: 'success' }
  | { status: 'failed'; error: string }
  | { status: 'retry'; error: string; at: number; refundAttempt?: boolean };

/** Ends a run this owner holds; false when another instance took it over meanwhile. */
export async function finishClaim(ctx: AppContext, owner: string, claim: Claim, outcome: Outcome): Promise<boolean> {
  const result = await ctx.db
    .updateTable('scheduled_occurrence')
    .set({
      status: outcome.status,
      owner: null,
      lease_expires_at: null,
      next_attempt_at: outcome.status === 'retry' ? outcome.at : null,
      last_error: outcome.status === 'success' ? null : outcome.error,
      attempt: outcome.status === 'retry' && outcome.refundAttempt ? claim.attempt - 1 : claim.attempt,
      updated_at: nowIso(),
    })
    .where('id', '=', claim.id)
    .where('owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a lapsed run that has used up its attempts as failed (so nobody takes it over again). */
export async function giveUp(ctx: AppContext, row: Row, error: string): Promise<boolean> {
  const result = await ctx.db
    .updateTable('scheduled_occurrence')
    .set({ status: 'failed', owner: null, lease_expires_at: null, next_attempt_at: null, last_error: error, updated_at: nowIso() })
    .where('id', '=', row.id)
    .where('attempt', '=', row.attempt)
    .where('status', '=', row.status)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Per job key of a kind: the latest occurrence that was claimed, and its state (GET /api/task/info). */
export async function latestOccurrences(ctx: AppContext, kind: string): Promise<Map<string, { occurrence: string; status: string }>> {
  const rows = await ctx.db
    .selectFrom('scheduled_occurrence as o')
    .select(['o.job_key', 'o.occurrence', 'o.status'])
    .where('o.job_kind', '=', kind)
    .where('o.occurrence', '=', (eb) =>
      eb.selectFrom('scheduled_occurrence as l').select((e) => e.fn.max('l.occurrence').as('m')).where('l.job_kind', '=', kind).whereRef('l.job_key', '=', 'o.job_key'),
    )
    .execute();
  return new Map(rows.map((r) => [r.job_key, { occurrence: r.occurrence, status: r.status }]));
}

/**
 * Housekeeping: drops finished rows older than `before`, except each job's latest (which stops the scheduler from
 * running that occurrence again) — unless the job no longer exists (`liveKeys` of its kind does not list it).
 */
export async function pruneOccurrences(ctx: AppContext, before: Date, liveKeys: Map<string, Set<string>>): Promise<number> {
  const old = await ctx.db
    .selectFrom('scheduled_occurrence')
    .select(['id', 'job_kind', 'job_key', 'occurrence'])
    .where('status', 'in', ['success', 'failed'])
    .where('updated_at', '<', before.toISOString())
    .execute();
  if (!old.length) return 0;
  const latest = await ctx.db
    .selectFrom('scheduled_occurrence')
    .select(['job_kind', 'job_key', sql<string>`max(occurrence)`.as('m')])
    .groupBy(['job_kind', 'job_key'])
    .execute();
  const latestOf = new Map(latest.map((r) => [`${r.job_kind}\u0000${r.job_key}`, r.m]));
  const doomed = old
    .filter((r) => {
      const live = liveKeys.get(r.job_kind);
      const gone = live !== undefined && !live.has(r.job_key);
      return gone || latestOf.get(`${r.job_kind}\u0000${r.job_key}`) !== r.occurrence;
    })
    .map((r) => r.id);
  for (let i = 0; i < doomed.length; i += CHUNK) {
    await ctx.db.deleteFrom('scheduled_occurrence').where('id', 'in', doomed.slice(i, i + CHUNK)).execute();
  }
  return doomed.length;
}
