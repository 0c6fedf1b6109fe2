// App-DB tables for connected databases and their metadata. Owned by src/databases (and written by src/sync).
import type { Generated } from 'kysely';

export interface MetabaseDatabaseTable {
  id: Generated<number>;
  entity_id: string;
  name: string;
  description: string | null;
  engine: string;
  /** JSON of the allow-listed connection details; AES-256-GCM encrypted when MB_ENCRYPTION_SECRET_KEY is set. */
  details: string;
  is_sample: boolean | number;
  is_full_sync: boolean | number;
  is_on_demand: boolean | number;
  is_audit: boolean | number;
  auto_run_queries: boolean | number;
  refingerprint: boolean | number | null;
  cache_ttl: number | null;
  metadata_sync_schedule: string;
  cache_field_values_schedule: string;
  timezone: string | null;
  /** JSON {"flavor", "version", "semantic-version"}. */
  dbms_version: string | null;
  /** 'incomplete' | 'complete' | 'aborted'. */
  initial_sync_status: string;
  /** JSON of database-local settings (incl. persist-models-enabled, database-enable-actions). */
  settings: string | null;
  caveats: string | null;
  points_of_interest: string | null;
  creator_id: number | null;
  uploads_enabled: boolean | number;
  uploads_schema_name: string | null;
  uploads_table_prefix: string | null;
  created_at: string;
  updated_at: string;
}

export interface MetabaseTableTable {
  id: Generated<number>;
  entity_id: string;
  db_id: number;
  schema: string | null;
  name: string;
  display_name: string;
  description: string | null;
  entity_type: string | null;
  active: boolean | number;
  visibility_type: string | null;
  initial_sync_status: string;
  is_upload: boolean | number;
  field_order: string;
  show_in_getting_started: boolean | number;
  caveats: string | null;
  points_of_interest: string | null;
  estimated_row_count: number | null;
  view_count: number;
  created_at: string;
  updated_at: string;
}

export interface MetabaseFieldTable {
  id: Generated<number>;
  entity_id: string;
  table_id: number;
  parent_id: number | null;
  name: string;
  display_name: string;
  description: string | null;
  database_type: string;
  base_type: string;
  effective_type: string | null;
  semantic_type: string | null;
  coercion_strategy: string | null;
  active: boolean | number;
  visibility_type: string;
  preview_display: boolean | number;
  position: number;
  database_position: number;
  custom_position: number;
  database_is_auto_increment: boolean | number;
  database_required: boolean | number;
  database_indexed: boolean | number | null;
  /** JSON array of strings, for fields unfolded from JSON columns. */
  nfc_path: string | null;
  json_unfolding: boolean | number;
  fk_target_field_id: number | null;
  /** 'list' | 'auto-list' | 'search' | 'none' | null (computed on read when null). */
  has_field_values: string | null;
  /** JSON map. */
  settings: string | null;
  caveats: string | null;
  points_of_interest: string | null;
  /** JSON fingerprint: {"global": {...}, "type": {...}}. */
  fingerprint: string | null;
  fingerprint_version: number;
  last_analyzed: string | null;
  /** Which attributes an admin set by hand (JSON array), so a later sync never overwrites them. */
  admin_edited: string | null;
  created_at: string;
  updated_at: string;
}

export interface MetabaseFieldValuesTable {
  id: Generated<number>;
  field_id: number;
  /** JSON array of values. */
  values: string;
  /** JSON array of display names, same length as values, or null. */
  human_readable_values: string | null;
  has_more_values: boolean | number;
  type: string;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DimensionTable {
  id: Generated<number>;
  entity_id: string;
  field_id: number;
  name: string;
  /** 'internal' | 'external'. */
  type: string;
  human_readable_field_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface DatabaseTables {
  metabase_database: MetabaseDatabaseTable;
  metabase_table: MetabaseTableTable;
  metabase_field: MetabaseFieldTable;
  metabase_fieldvalues: MetabaseFieldValuesTable;
  dimension: DimensionTable;
}
