// The vocabulary of X-ray templates: data describing which fields make which dimensions, which metrics exist, and
// which cards to draw from them. Templates are plain TypeScript data (bundled with the server, never read from disk).
//
// Placeholders in titles: {{this}} (the root's name), {{<Dimension>}} (the display name of the field bound to that
// dimension; through a foreign key "Product → Category"), {{<Metric>}} (the metric's own title), {{unit}} (the
// temporal unit of the card's time breakout: "month", "day of the week"…).

/** A field matches when its semantic type or its base/effective type is a kind of `type`. */
export interface Matcher {
  type: string;
  /** Case-insensitive pattern on the column name. */
  named?: string;
  score: number;
  /** Fingerprint distinct count bounds (fields without a fingerprint pass). */
  maxDistinct?: number;
  minDistinct?: number;
  /** Only fields reached through a foreign key to a table of this entity type (`entity/ProductTable`). */
  linkedTo?: string;
  /** Only fields of the root's own table. */
  ownOnly?: boolean;
}

export interface DimensionDef {
  name: string;
  matchers: Matcher[];
}

export type Aggregation = 'count' | 'sum' | 'avg' | 'distinct' | 'min' | 'max' | 'stddev';

export interface MetricDef {
  name: string;
  aggregation: Aggregation;
  /** The dimension whose field is aggregated (all but count). */
  dimension?: string;
  /** e.g. "Average {{Income}}"; for count, usually "Number of {{this}}". */
  title: string;
}

export interface CardDimension {
  dimension: string;
  /** A fixed temporal unit; without one, time breakouts take a unit from the field's span. */
  unit?: string;
  /** Number breakouts: default binning. */
  binning?: boolean;
}

export type CardFilter = { kind: 'last-30-days'; dimension: string } | { kind: 'is-null'; dimension: string };

export interface CardTemplate {
  title: string;
  description?: string;
  group: string;
  metrics: string[];
  dimensions?: CardDimension[];
  filter?: CardFilter;
  display: 'scalar' | 'line' | 'bar' | 'row' | 'table' | 'map' | 'area';
  score: number;
  width?: number;
  height?: number;
  /** One card per matching combination of fields (else only the best one). At most this many. */
  each?: number;
  /** Row charts: sort by the first metric, largest first, and keep this many rows. */
  top?: number;
  /** Region maps: which region. */
  region?: 'us_states' | 'world_countries';
  /** Card only when each breakout field has at most this many distinct values. */
  maxDistinct?: number;
}

export interface GroupDef {
  id: string;
  title: string;
  /** The heading used when the dashboard is one side of a comparison. */
  comparisonTitle?: string;
}

/** A narrower dashboard reachable from the related block: the parent's dimensions and metrics, fewer cards. */
export interface SubTemplate {
  name: string;
  title: string;
  description: string;
  groups: string[];
}

export interface Template {
  name: string;
  /** The table entity type (or field kind) it is for; the most specific applicable template wins. */
  appliesTo: string;
  specificity: number;
  title: string;
  description: string;
  dimensions: DimensionDef[];
  metrics: MetricDef[];
  groups: GroupDef[];
  cards: CardTemplate[];
  /** Dimensions offered as dashboard filters, best first. */
  filters: string[];
  subTemplates: SubTemplate[];
}
