// App-DB table of the query engine: one row per query execution (reference §3.12, Metabase's QueryExecution).
import type { Generated } from 'kysely';

export interface QueryExecutionTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the normalized query without constraints/middleware (see pipeline.ts `queryHash`). */
  hash: string;
  started_at: string;
  /** Milliseconds. */
  running_time: number;
  result_rows: number;
  native: boolean | number;
  context: string | null;
  error: string | null;
  executor_id: number | null;
  card_id: number | null;
  dashboard_id: number | null;
  pulse_id: number | null;
  action_id: number | null;
  database_id: number | null;
  cache_hit: boolean | number;
  is_sandboxed: boolean | number;
  parameterized: boolean | number;
  embedding_client: string | null;
  embedding_version: string | null;
}

export interface QueryTables {
  query_execution: QueryExecutionTable;
}
