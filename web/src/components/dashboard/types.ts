// Shapes of a dashboard as GET /api/dashboard/:id, the public/embed dashboard endpoints and the X-ray endpoints
// (/api/automagic-dashboards/…) answer. X-ray dashcards and cards carry generated string ids ("G__123") and no
// dashboard id; saved ones carry numbers.

import type { Parameter, VisualizationSettings } from '../../api/types';

export type DashId = number | string;

/** The card of a dashcard (or one of its overlaid `series`). */
export interface DashcardCard {
  id?: DashId;
  name?: string;
  display?: string;
  visualization_settings?: VisualizationSettings;
  dataset_query?: { type?: string; database?: number; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ParameterMapping {
  parameter_id: string;
  card_id?: DashId;
  target?: unknown;
}

/** What the grid needs to place a dashcard: Metabase's 0-based row/col and its size in grid units. */
export interface GridItem {
  id: DashId;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
}

export interface Dashcard extends GridItem {
  card_id: DashId | null;
  card: DashcardCard | null;
  dashboard_tab_id?: DashId | null;
  visualization_settings?: VisualizationSettings;
  parameter_mappings?: ParameterMapping[];
  series?: DashcardCard[];
}

export interface DashboardTab {
  id: DashId;
  name: string;
  position?: number;
}

export interface RelatedLink {
  url: string;
  title: string;
  description?: string;
}

export interface DashboardJson {
  id?: number;
  name: string;
  description?: string | null;
  parameters?: Parameter[];
  dashcards: Dashcard[];
  tabs?: DashboardTab[];
  auto_apply_filters?: boolean;
  collection_id?: number | null;
  /** X-rays: links to other X-rays, by bucket (`zoom-in`, `zoom-out`, `related`, `compare`). */
  related?: Record<string, RelatedLink[]> | null;
  /** X-rays: the page showing every card when a cap hid some (`…#show=all`). */
  more?: string | null;
  transient_name?: string;
  [key: string]: unknown;
}

/** Filter values as a page's URL holds them: slug → one or more values (`[]` = explicitly cleared). */
export type FilterValues = Record<string, string[]>;
