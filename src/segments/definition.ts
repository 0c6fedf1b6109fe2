// A segment's definition: what a client may send, and the one form it is stored in — Metabase's legacy segment
// definition `{"source-table": <table id>, "filter": <MBQL filter>}`.
//
// Accepted input: that fragment (any legacy spelling), a whole legacy query (`{database, type: "query", query}`) or
// an MBQL 5 query (`{"lib/type": "mbql/query", stages: [...]}`), as Metabase's newer clients send them. The filter goes
// through the query engine's own normalize/validate, and the whole thing is prepared (compiled, not run) against the
// table's database, so a definition that is saved is one that runs.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, fieldError } from '../http/errors.js';
import { normalizeQuery, prepareQuery, QueryError } from '../query/index.js';
import { isPmbql } from '../query/mbql/pmbql.js';
import { walkClauses } from '../query/mbql/clauses.js';
import type { Clause } from '../query/mbql/types.js';
import { parseJson } from '../appdb/portable.js';

export interface SegmentDefinition {
  'source-table': number;
  filter: Clause;
}

export const NO_SOURCE_TABLE = 'Segment definition must specify a source table.';

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Turns a QueryError (the engine's "invalid query" and friends) into the 400 a client of this endpoint expects. */
function definitionError(message: string): ApiError {
  return fieldError('definition', message);
}

/** The legacy inner query of whatever form the client sent. */
function innerQuery(input: Record<string, unknown>): Record<string, unknown> {
  try {
    if (isPmbql(input) || (isObject(input.query) && typeof input.type === 'string')) {
      const q = normalizeQuery(input);
      if (q.type !== 'query' || !isObject(q.query)) throw definitionError('A segment is defined by a structured (MBQL) query.');
      return q.query as Record<string, unknown>;
    }
    return (normalizeQuery({ database: 1, type: 'query', query: input }).query ?? {}) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof QueryError) throw definitionError(e.message);
    throw e;
  }
}

/** The ids of the segments a filter uses. */
export function segmentRefs(filter: unknown): number[] {
  const ids = new Set<number>();
  walkClauses(filter, (c) => {
    if (c[0] === 'segment' && typeof c[1] === 'number') ids.add(c[1]);
  });
  return [...ids];
}

export interface CheckDefinitionInput {
  definition: Record<string, unknown>;
  /** The table the client named (POST's `table_id`), if any. */
  tableId: number | null;
  /** The segment being edited (it must not end up using itself). */
  selfId: number | null;
}

/**
 * A definition made canonical and checked: its table exists, its filter is valid MBQL on that table (fields of the
 * table, or reached from it through a foreign key with `source-field`), the segments it uses exist on the same table
 * and don't lead back to `selfId`, and the query compiles on the table's database. 400s otherwise.
 */
export async function checkDefinition(ctx: AppContext, caller: Caller, input: CheckDefinitionInput): Promise<SegmentDefinition> {
  const inner = innerQuery(input.definition);
  if (inner['source-query'] !== undefined || inner.joins !== undefined) {
    throw definitionError('A segment filters one table: its definition has a source-table and a filter, no source query or joins.');
  }
  const given = inner['source-table'];
  if (given !== undefined && !(typeof given === 'number' && Number.isInteger(given) && given > 0)) throw new ApiError(400, NO_SOURCE_TABLE);
  const tableId = (given as number | undefined) ?? input.tableId;
  if (tableId === null || tableId === undefined) throw new ApiError(400, NO_SOURCE_TABLE);
  if (input.tableId !== null && given !== undefined && given !== input.tableId) {
    throw definitionError(`The definition's source-table (${given}) is not the segment's table_id (${input.tableId}).`);
  }
  const table = await ctx.db.selectFrom('metabase_table').select(['id', 'db_id']).where('id', '=', tableId).executeTakeFirst();
  if (!table) throw fieldError(input.tableId !== null ? 'table_id' : 'definition', `Table ${tableId} does not exist.`);
  const filter = inner.filter as Clause | undefined;
  if (!filter) throw definitionError('A segment needs a filter.');

  await checkFields(ctx, table.id, filter);
  await checkSegments(ctx, table.id, filter, input.selfId);

  try {
    await prepareQuery(ctx, {
      query: { database: table.db_id, type: 'query', query: { 'source-table': table.id, filter } },
      caller,
      context: 'ad-hoc',
      constraints: null,
    });
  } catch (e) {
    if (e instanceof QueryError) throw definitionError(e.message);
    throw e;
  }
  return { 'source-table': table.id, filter };
}

/** Fields named by id belong to the table, or are reached from one of its fields through `source-field`. */
async function checkFields(ctx: AppContext, tableId: number, filter: Clause): Promise<void> {
  // the field of the table itself: the one named, or the key it is reached through
  const named = new Set<number>();
  walkClauses(filter, (c) => {
    if (c[0] !== 'field' || typeof c[1] !== 'number') return;
    const sourceField = (c[2] as Record<string, unknown> | null | undefined)?.['source-field'];
    named.add(typeof sourceField === 'number' ? sourceField : c[1]);
  });
  const ids = [...named];
  if (!ids.length) return;
  const rows = await ctx.db.selectFrom('metabase_field').select(['id', 'table_id']).where('id', 'in', ids).execute();
  const tableOf = new Map(rows.map((r) => [r.id, r.table_id]));
  for (const id of ids) {
    const t = tableOf.get(id);
    if (t === undefined) throw definitionError(`Field ${id} does not exist.`);
    if (t !== tableId) throw definitionError(`Field ${id} is not a field of table ${tableId}; reach other tables' fields through a foreign key ("source-field").`);
  }
}

/** Segments used inside a definition: they exist, filter the same table, and never lead back to the segment itself. */
async function checkSegments(ctx: AppContext, tableId: number, filter: Clause, selfId: number | null): Promise<void> {
  let pending = segmentRefs(filter);
  const seen = new Set<number>();
  let first = true;
  while (pending.length) {
    if (selfId !== null && pending.includes(selfId)) throw definitionError('A segment cannot use itself, directly or through other segments.');
    const rows = await ctx.db.selectFrom('segment').select(['id', 'table_id', 'definition']).where('id', 'in', pending).execute();
    const found = new Map(rows.map((r) => [r.id, r]));
    const next = new Set<number>();
    for (const id of pending) {
      seen.add(id);
      const row = found.get(id);
      if (!row) {
        if (first) throw definitionError(`Segment ${id} does not exist.`);
        continue;
      }
      if (first && row.table_id !== tableId) throw definitionError(`Segment ${id} filters another table (${row.table_id}).`);
      for (const ref of segmentRefs(parseJson<Record<string, unknown>>(row.definition, {}).filter)) if (!seen.has(ref)) next.add(ref);
    }
    pending = [...next];
    first = false;
  }
}
