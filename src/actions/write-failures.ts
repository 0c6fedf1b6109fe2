// How actions write — one transaction on one pooled connection, through the database's query queue — and how a
// failed write reads to the person who filled in the action's form (Metabase's messages): a 400
// `{"message": …, "errors": {column: …}}`. Constraint violations are worded per column; anything else keeps the
// database's own message.

import type { AppContext } from '../context.js';
import { ApiError, messageError } from '../http/errors.js';
import type { Driver, WriteSession, WriteViolation } from '../drivers/driver.js';
import { QueryCancelledError } from '../drivers/shared/row-stream.js';
import { connectionForRow } from '../databases/connections.js';
import { acquireDatabaseSlot } from '../query/index.js';
import type { ActionRun } from './run.js';

export type WriteKind = 'create' | 'update' | 'delete' | 'query';

/** Metabase capitalizes column names like Clojure's `str/capitalize`: first letter up, the rest down. */
const capitalize = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).toLowerCase();

function sentence(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function violationBody(v: WriteViolation, kind: WriteKind): { message: string; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  switch (v.kind) {
    case 'not-null': {
      for (const c of v.columns) errors[c] = 'You must provide a value.';
      return { message: v.columns.length ? `${capitalize(v.columns[0])} must have values.` : 'A required value is missing.', errors };
    }
    case 'unique': {
      for (const c of v.columns) errors[c] = `This ${capitalize(c)} value already exists.`;
      const names = sentence(v.columns.map(capitalize));
      return { message: names ? `${names} already ${v.columns.length > 1 ? 'exist' : 'exists'}.` : 'A record with these values already exists.', errors };
    }
    case 'foreign-key': {
      for (const c of v.columns) errors[c] = `This ${capitalize(c)} does not exist.`;
      return { message: kind === 'create' ? 'Unable to create a new record.' : 'Unable to update the record.', errors };
    }
    case 'referenced': {
      if (kind === 'delete') return { message: 'Other tables rely on this row so it cannot be deleted.', errors };
      for (const c of v.columns) errors[c] = `This ${capitalize(c)} does not exist.`;
      return { message: 'Unable to update the record.', errors };
    }
    case 'incorrect-type':
      return { message: 'Some of your values aren’t of the correct type for the database.', errors };
  }
}

/** The API error for a write that failed on the database. */
export function writeFailure(driver: Driver, error: unknown, kind: WriteKind): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof QueryCancelledError) return messageError(400, error.message, { errors: {} });
  const violation = driver.describeWriteError?.(error) ?? null;
  if (violation) {
    const { message, errors } = violationBody(violation, kind);
    return messageError(400, message, { errors });
  }
  const message = error instanceof Error ? error.message : String(error);
  return messageError(400, message, { errors: {} });
}

/**
 * Runs `work` in one transaction on the run's database, in its turn in the database's queue and cancelled with the
 * run; a failure comes back as the API error for a write of `kind`.
 */
export async function inWriteTransaction<T>(ctx: AppContext, run: ActionRun, kind: WriteKind, work: (session: WriteSession) => Promise<T>): Promise<T> {
  const { driver, connection } = connectionForRow(ctx, run.database);
  const release = await acquireDatabaseSlot(ctx, run.database, String(run.caller?.user.id ?? 'public-action'), run.signal);
  try {
    return await connection.transaction!(work, { signal: run.signal }).catch((error) => {
      throw writeFailure(driver, error, kind);
    });
  } finally {
    release();
  }
}
