// GET /api/table/:id/data: a table's rows as an ordinary query result — the table as the source of an MBQL query,
// through the one pipeline (so the caller's data permissions and the default 2,000-row API limit apply), without
// the keys Metabase leaves out of this answer.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { messageError } from '../http/errors.js';
import { runQueryToMemory } from './run.js';

const LEFT_OUT = ['json_query', 'context', 'cached', 'average_execution_time'];

export async function tableData(ctx: AppContext, caller: Caller, table: { id: number; db_id: number }): Promise<Record<string, unknown>> {
  const result = await runQueryToMemory(ctx, {
    query: { database: table.db_id, type: 'query', query: { 'source-table': table.id } },
    caller,
    context: 'table-grid',
  });
  const body: Record<string, unknown> = { ...result };
  for (const key of LEFT_OUT) delete body[key];
  // a query that could not run (the database is gone, the table was dropped) is the caller's 400, not a 500
  if (result.status === 'failed') throw messageError(400, String(result.error ?? 'Error running query'), body);
  return body;
}
