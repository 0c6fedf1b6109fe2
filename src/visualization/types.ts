// What goes into a visualization and what comes out. Pure data: the server's renderer (src/notify/render) and a
// browser both consume a `Visualization`.

import type { EChartsOption } from 'echarts';

/** A result column as the query API returns it (`data.cols`); only `name` is required. */
export type Column = Record<string, unknown> & { name: string; display_name: string; base_type: string };

export type VisualizationSettings = Record<string, unknown>;

/** The `custom-formatting` setting: formatting defaults keyed by `type/Temporal`, `type/Number`, `type/Currency`. */
export type GlobalFormatting = Record<string, Record<string, unknown> | undefined>;

export interface VisualizationInput {
  display: string;
  settings: VisualizationSettings;
  cols: Array<Record<string, unknown>>;
  rows: unknown[][];
  /** The card's name: what its series is called when other cards are overlaid on it. */
  name?: string;
  /** Other cards overlaid on this one's chart (a dashcard's `series`), in order, each with its own result. */
  series?: SeriesCardInput[];
}

export interface SeriesCardInput {
  name: string;
  display: string;
  settings: VisualizationSettings;
  cols: Array<Record<string, unknown>>;
  rows: unknown[][];
}

export interface DescribeOptions {
  /** Zone for values that carry no offset (values with an offset are shown at their own offset, as the app does). */
  timezone: string;
  /** Layout width in CSS pixels; charts are laid out at this width. */
  width: number;
  /** Rows a table shows before "Showing N of M rows." (Metabase's `attachment-table-row-limit`, capped at 100). */
  tableRowLimit?: number;
  /** `start-of-week` setting: how a `day-of-week` number maps to a day name. */
  startOfWeek?: string;
  formatting?: GlobalFormatting;
}

export interface ChartVisualization {
  kind: 'chart';
  /** The display actually drawn (`bar`, `line`, `pie`, `gauge`, …). */
  display: string;
  width: number;
  height: number;
  option: EChartsOption;
}

export interface TableCell {
  text: string;
  /** `table.column_formatting` colours. */
  background?: string;
}

export interface TableVisualization {
  kind: 'table';
  columns: Array<{ title: string; align: 'left' | 'right' }>;
  rows: TableCell[][];
  /** Rows in the result; more than `rows.length` means the table was cut. */
  totalRows: number;
}

export interface ScalarVisualization {
  kind: 'scalar';
  /** As shown: compact when the settings ask for it. */
  value: string;
  /** The value in full (a tooltip in the app; the plain-text form). */
  fullValue: string;
}

export interface SmartScalarComparison {
  /** `vs. previous month`, `vs. 3 months ago`, `vs. Goal`… */
  label: string;
  /** `12.5%`, `No change`, `N/A`. */
  change: string;
  direction: 'up' | 'down' | 'none' | 'missing';
  /** The compared value, formatted (`(No data)` when there is none). */
  previous: string;
  color: string;
}

export interface SmartScalarVisualization {
  kind: 'smartscalar';
  value: string;
  /** The period of the value (`Jan 2024`), when the dimension is a date. */
  period: string | null;
  comparisons: SmartScalarComparison[];
}

export interface EmptyVisualization {
  kind: 'empty';
  message: string;
}

export type Visualization = ChartVisualization | TableVisualization | ScalarVisualization | SmartScalarVisualization | EmptyVisualization;
