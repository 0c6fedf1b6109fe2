// GET /api/database/:id/healthcheck: can the database be reached right now, through its own pooled connection.
// Metabase answers 200 either way: `{"status": "ok"}`, or its connection-test error map with `"status": "error"`.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError } from '../http/errors.js';
import { ConnectionError } from '../drivers/shared/connect-errors.js';
import { connectionFor } from './connections.js';
import { databaseOr404 } from './databases.js';
import { checkDatabaseVisible } from './access.js';

export type Health = { status: 'ok' } | { status: 'error'; message: string; errors?: Record<string, string> };

export async function databaseHealth(ctx: AppContext, caller: Caller, id: number): Promise<Health> {
  await databaseOr404(ctx, id);
  await checkDatabaseVisible(ctx, caller, id);
  try {
    const { connection } = await connectionFor(ctx, id);
    await connection.test();
    return { status: 'ok' };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 400) throw error;
    const message = error instanceof Error && error.message ? error.message : 'Unable to connect to database.';
    const field = error instanceof ConnectionError ? error.field : undefined;
    return { status: 'error', message, ...(field ? { errors: { [field]: message } } : {}) };
  }
}
