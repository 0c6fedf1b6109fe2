// App-DB tables of the result cache (migration 0090).
import type { Generated } from 'kysely';

export interface CacheConfigTable {
  id: Generated<number>;
  /** 'root' (model_id 0) | 'database' | 'dashboard' | 'question'. */
  model: string;
  model_id: number;
  /** 'nocache' | 'ttl' | 'duration' | 'schedule'. */
  strategy: string;
  /** JSON of the strategy's other keys (multiplier, min_duration_ms, duration, unit, schedule). */
  config: string;
  refresh_automatically: boolean | number;
  /** Results stored before this are stale (POST /api/cache/invalidate, the schedule strategy's fires). */
  invalidated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface QueryCacheTable {
  /** SHA-256 (hex) of everything that changes the answer (src/query/cache-key.ts). */
  query_hash: string;
  /** When the result was stored (its run started). */
  updated_at: string;
  /** The result, gzipped (./entries.ts). */
  results: Buffer;
  size_bytes: number;
  database_id: number | null;
  card_id: number | null;
  dashboard_id: number | null;
  config_id: number | null;
  /** JSON: how to run it again (./refresh.ts), or null. */
  refresh: string | null;
}

export interface CacheTables {
  cache_config: CacheConfigTable;
  query_cache: QueryCacheTable;
}
