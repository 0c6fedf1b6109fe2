// Every app-DB migration, in order. Add a file `NNNN_name.ts` exporting `up(db, dialect)` and list it here.
import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_task_lease.js';
import * as m0003 from './0003_databases.js';
import * as m0004 from './0004_app_locks.js';
import * as m0005 from './0005_group_name_case.js';
import * as m0010 from './0010_field_database_type_text.js';
import * as m0011 from './0011_sample_database_lock.js';
import * as m0012 from './0012_admin_membership_lock.js';
import * as m0020 from './0020_query_execution.js';
import * as m0030 from './0030_cards_and_dashboards.js';
import * as m0031 from './0031_collection_permissions.js';
import * as m0032 from './0032_revisions.js';
import * as m0033 from './0033_snippets_and_timelines.js';
import * as m0034 from './0034_activity_and_bookmarks.js';
import * as m0035 from './0035_card_entity_id_unique.js';
import * as m0040 from './0040_dashboard_tabs_series_params.js';
import * as m0050 from './0050_data_permissions.js';
import * as m0060 from './0060_actions.js';
import * as m0070 from './0070_segments.js';
import * as m0080 from './0080_task_history_and_scheduler.js';
import * as m0081 from './0081_pulses_and_channels.js';
import * as m0090 from './0090_result_cache.js';
import * as m0091 from './0091_persisted_info.js';
import * as m0100 from './0100_snippet_template_tags.js';
import * as m0105 from './0105_user_key_value.js';
import * as m0106 from './0106_model_index.js';
import * as m0110 from './0110_card_lookup_indexes.js';
import * as m0155 from './0155_assistant_feedback.js';

export interface AppMigration {
  up(db: Kysely<any>, dialect: AppDbDialect): Promise<void>;
}

export const migrations: Record<string, AppMigration> = {
  '0001_foundation': m0001,
  '0002_task_lease': m0002,
  '0003_databases': m0003,
  '0004_app_locks': m0004,
  '0005_group_name_case': m0005,
  '0010_field_database_type_text': m0010,
  '0011_sample_database_lock': m0011,
  '0012_admin_membership_lock': m0012,
  '0020_query_execution': m0020,
  '0030_cards_and_dashboards': m0030,
  '0031_collection_permissions': m0031,
  '0032_revisions': m0032,
  '0033_snippets_and_timelines': m0033,
  '0034_activity_and_bookmarks': m0034,
  '0035_card_entity_id_unique': m0035,
  '0040_dashboard_tabs_series_params': m0040,
  '0050_data_permissions': m0050,
  '0060_actions': m0060,
  '0070_segments': m0070,
  '0080_task_history_and_scheduler': m0080,
  '0081_pulses_and_channels': m0081,
  '0090_result_cache': m0090,
  '0091_persisted_info': m0091,
  '0100_snippet_template_tags': m0100,
  '0105_user_key_value': m0105,
  '0106_model_index': m0106,
  '0110_card_lookup_indexes': m0110,
  '0155_assistant_feedback': m0155,
};
