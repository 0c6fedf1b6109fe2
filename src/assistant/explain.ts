// Does SQL a model wrote run on the database? `EXPLAIN <sql>` plans it without running it (a hallucinated column or
// a function the engine lacks fails here), through the database's pooled connection and its statement guard, with
// a short timeout. Returns the engine's error message, or null when the statement plans.

import type { AppContext } from '../context.js';
import { connectionFor } from '../databases/connections.js';

const EXPLAIN_TIMEOUT_MS = 10_000;

export async function planError(ctx: AppContext, databaseId: number, sql: string): Promise<string | null> {
  try {
    const { connection } = await connectionFor(ctx, databaseId);
    const stream = await connection.execute(`EXPLAIN ${sql}`, [], { timeoutMs: EXPLAIN_TIMEOUT_MS });
    await stream.close();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
