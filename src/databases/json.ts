// The API shapes of databases, tables and fields (reference §3.6–3.8). Hydration is batched: callers load the
// rows they need with one query per kind and pass them in.

import type { Caller } from '../http/caller.js';
import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import { findDriver } from '../drivers/registry.js';
import type { DatabaseRow, FieldRow, TableRow } from './database-row.js';
import { maskDetails, readDetails } from './details.js';
import { cronToSchedule } from './schedules.js';
import { effectiveHasFieldValues } from './field-values.js';
import type { DimensionRow } from './dimensions.js';
import type { DataAccess } from '../permissions/data-access.js';

/**
 * A database as the API shows it. With the caller's data permissions (`access`), `native_permissions`,
 * `can-manage` and the connection details follow them; without, only admins manage.
 */
export function databaseJson(ctx: AppContext, row: DatabaseRow, caller: Caller | null, access?: DataAccess | null): Record<string, unknown> {
  const driver = findDriver(row.engine);
  const canManage = Boolean(caller?.isSuperuser) || Boolean(access?.canManageDatabase(row.id));
  const settings = parseJson<Record<string, unknown> | null>(row.settings, null);
  const features = driver ? [...driver.features] : [];
  if (settings?.['persist-models-enabled']) features.push('persist-models-enabled');
  const json: Record<string, unknown> = {
    id: row.id,
    entity_id: row.entity_id,
    name: row.name,
    description: row.description,
    engine: row.engine,
    features: features.sort(),
    native_permissions: !access || access.canNative(row.id) ? 'write' : 'none',
    is_sample: bool(row.is_sample),
    is_full_sync: bool(row.is_full_sync),
    is_on_demand: bool(row.is_on_demand),
    is_audit: bool(row.is_audit),
    is_attached_dwh: false,
    auto_run_queries: bool(row.auto_run_queries),
    refingerprint: row.refingerprint === null ? null : bool(row.refingerprint),
    cache_ttl: row.cache_ttl,
    metadata_sync_schedule: row.metadata_sync_schedule,
    cache_field_values_schedule: row.cache_field_values_schedule,
    schedules: {
      metadata_sync: cronToSchedule(row.metadata_sync_schedule),
      cache_field_values: cronToSchedule(row.cache_field_values_schedule),
    },
    timezone: row.timezone,
    dbms_version: parseJson(row.dbms_version, null),
    initial_sync_status: row.initial_sync_status,
    settings,
    caveats: row.caveats,
    points_of_interest: row.points_of_interest,
    creator_id: row.creator_id,
    can_upload: false,
    uploads_enabled: bool(row.uploads_enabled),
    uploads_schema_name: row.uploads_schema_name,
    uploads_table_prefix: row.uploads_table_prefix,
    'can-manage': canManage,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  // Connection details only for those who may change them, with secrets masked.
  if (canManage) {
    try {
      json.details = maskDetails(driver, readDetails(ctx, row.details));
    } catch {
      json.details = {};
    }
  }
  return json;
}

export function tableJson(row: TableRow): Record<string, unknown> {
  return {
    id: row.id,
    entity_id: row.entity_id,
    db_id: row.db_id,
    schema: row.schema,
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    entity_type: row.entity_type,
    active: bool(row.active),
    visibility_type: row.visibility_type,
    initial_sync_status: row.initial_sync_status,
    is_upload: bool(row.is_upload),
    field_order: row.field_order,
    show_in_getting_started: bool(row.show_in_getting_started),
    caveats: row.caveats,
    points_of_interest: row.points_of_interest,
    estimated_row_count: row.estimated_row_count === null ? null : Number(row.estimated_row_count),
    view_count: row.view_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function dimensionJson(row: DimensionRow, humanReadable?: Record<string, unknown> | null): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: row.id,
    entity_id: row.entity_id,
    field_id: row.field_id,
    name: row.name,
    type: row.type,
    human_readable_field_id: row.human_readable_field_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (humanReadable !== undefined) json.human_readable_field = humanReadable;
  return json;
}

/** A field's own columns, without hydrated relations. */
export function fieldJson(row: FieldRow): Record<string, unknown> {
  return {
    id: row.id,
    entity_id: row.entity_id,
    table_id: row.table_id,
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    database_type: row.database_type,
    base_type: row.base_type,
    effective_type: row.effective_type ?? row.base_type,
    semantic_type: row.semantic_type,
    coercion_strategy: row.coercion_strategy,
    active: bool(row.active),
    visibility_type: row.visibility_type,
    preview_display: bool(row.preview_display),
    position: row.position,
    database_position: row.database_position,
    custom_position: row.custom_position,
    database_is_auto_increment: bool(row.database_is_auto_increment),
    database_required: bool(row.database_required),
    database_indexed: row.database_indexed === null ? null : bool(row.database_indexed),
    database_partitioned: null,
    parent_id: row.parent_id,
    nfc_path: parseJson(row.nfc_path, null),
    json_unfolding: bool(row.json_unfolding),
    fk_target_field_id: row.fk_target_field_id,
    has_field_values: effectiveHasFieldValues(row),
    settings: parseJson(row.settings, null),
    caveats: row.caveats,
    points_of_interest: row.points_of_interest,
    fingerprint: parseJson(row.fingerprint, null),
    fingerprint_version: row.fingerprint_version,
    last_analyzed: row.last_analyzed,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
