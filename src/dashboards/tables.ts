// The dashboard tables. `report_dashboard` and `report_dashboardcard` came first (migration 0030, made with cards
// because cards live in dashboards and collection items, search and `dashboard_count` read them); tabs, series and
// per-user filter values are migration 0040. The dashboards module owns them all.
import type { Generated } from 'kysely';

export interface ReportDashboardTable {
  id: Generated<number>;
  entity_id: string;
  name: string;
  description: string | null;
  collection_id: number | null;
  collection_position: number | null;
  creator_id: number;
  made_public_by_id: number | null;
  public_uuid: string | null;
  enable_embedding: boolean | number;
  embedding_params: string | null;
  initially_published_at: string | null;
  /** JSON array */
  parameters: string | null;
  auto_apply_filters: boolean | number;
  width: string;
  position: number | null;
  caveats: string | null;
  points_of_interest: string | null;
  show_in_getting_started: boolean | number;
  cache_ttl: number | null;
  archived: boolean | number;
  archived_directly: boolean | number;
  view_count: number;
  last_viewed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReportDashboardCardTable {
  id: Generated<number>;
  entity_id: string;
  dashboard_id: number;
  dashboard_tab_id: number | null;
  card_id: number | null;
  action_id: number | null;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  /** JSON array */
  parameter_mappings: string | null;
  /** JSON */
  visualization_settings: string | null;
  /** JSON array */
  inline_parameters: string | null;
  created_at: string;
  updated_at: string;
}

export interface DashboardTabTable {
  id: Generated<number>;
  entity_id: string;
  dashboard_id: number;
  name: string;
  /** 0-based, from the order of the last save */
  position: number;
  created_at: string;
  updated_at: string;
}

/** Extra cards drawn on a dashcard's chart, in `position` order. */
export interface DashboardCardSeriesTable {
  id: Generated<number>;
  dashboardcard_id: number;
  card_id: number;
  position: number;
}

/** A user's last value of a dashboard filter (`last_used_param_values`). */
export interface UserParameterValueTable {
  id: Generated<number>;
  user_id: number;
  dashboard_id: number;
  parameter_id: string;
  /** JSON */
  value: string | null;
  updated_at: string;
}

export interface DashboardTables {
  report_dashboard: ReportDashboardTable;
  report_dashboardcard: ReportDashboardCardTable;
  dashboard_tab: DashboardTabTable;
  dashboardcard_series: DashboardCardSeriesTable;
  user_parameter_value: UserParameterValueTable;
}
