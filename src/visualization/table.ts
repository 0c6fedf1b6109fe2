// The table every card can fall back to, as an emailed Metabase table is: columns in `table.columns` order (hidden
// ones dropped; description and details-only/retired/sensitive columns never shown), currency in the header,
// values formatted like the app, rows cut at the row limit, and `table.column_formatting` colours.

import { exportLayout } from '../query/write/titles.js';
import { isNumberColumn } from './columns.js';
import { numberOf, type VizContext } from './context.js';
import { currencyHeaderLabel } from './format/number.js';
import { shade, validColor } from './palette.js';
import type { Column, TableCell, TableVisualization } from './types.js';

/** Metabase's `attachment-table-row-limit` default, and the most any setting may show. */
export const DEFAULT_TABLE_ROWS = 20;
export const MAX_TABLE_ROWS = 100;

const HIDDEN_VISIBILITY = new Set(['details-only', 'retired', 'sensitive']);

function shownInTables(col: Column): boolean {
  return col.semantic_type !== 'type/Description' && !HIDDEN_VISIBILITY.has(String(col.visibility_type ?? ''));
}

type Rule = Record<string, unknown>;

function rulesOf(ctx: VizContext): Rule[] {
  const rules = ctx.settings['table.column_formatting'];
  return Array.isArray(rules) ? rules.filter((r): r is Rule => !!r && typeof r === 'object' && Array.isArray((r as Rule).columns)) : [];
}

function singleMatches(rule: Rule, value: unknown): boolean {
  const target = rule.value;
  const n = numberOf(value);
  const t = numberOf(target);
  const text = value === null || value === undefined ? '' : String(value);
  const targetText = target === null || target === undefined ? '' : String(target);
  switch (rule.operator) {
    case 'is-null':
      return value === null || value === undefined;
    case 'not-null':
      return value !== null && value !== undefined;
    case '=':
      return n !== null && t !== null ? n === t : text === targetText;
    case '!=':
      return n !== null && t !== null ? n !== t : text !== targetText;
    case '<':
      return n !== null && t !== null && n < t;
    case '>':
      return n !== null && t !== null && n > t;
    case '<=':
      return n !== null && t !== null && n <= t;
    case '>=':
      return n !== null && t !== null && n >= t;
    case 'contains':
      return text.includes(targetText);
    case 'does-not-contain':
      return !text.includes(targetText);
    case 'starts-with':
      return text.startsWith(targetText);
    case 'ends-with':
      return text.endsWith(targetText);
    case 'is-true':
      return value === true;
    case 'is-false':
      return value === false;
    default:
      return false;
  }
}

function mix(a: string, b: string, at: number): string {
  const ch = (hex: string, i: number) => parseInt(hex.slice(i, i + 2), 16);
  const part = (i: number) => Math.round(ch(a, i) + (ch(b, i) - ch(a, i)) * at).toString(16).padStart(2, '0');
  return `#${part(1)}${part(3)}${part(5)}`.toUpperCase();
}

function hex6(color: string | null): string | null {
  if (!color) return null;
  if (/^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(color)) return color.slice(0, 7);
  if (/^#[0-9a-f]{3}$/i.test(color)) return `#${color[1]}${color[1]}${color[2]}${color[2]}${color[3]}${color[3]}`;
  return null;
}

/** Cell backgrounds: a light tint of the rule's colour, as the app draws them. */
function tint(color: string): string {
  return shade(color, 0.35);
}

export interface CellPainter {
  (row: unknown[], colIndex: number): string | undefined;
  rowColor(row: unknown[]): string | undefined;
}

export function painter(ctx: VizContext): CellPainter {
  const rules = rulesOf(ctx);
  const ranges = new Map<Rule, { min: number; max: number }>();
  for (const rule of rules) {
    if (rule.type !== 'range') continue;
    const values: number[] = [];
    for (const name of rule.columns as unknown[]) {
      const i = ctx.cols.findIndex((c) => c.name === name);
      if (i >= 0) for (const row of ctx.rows) {
        const n = numberOf(row[i]);
        if (n !== null) values.push(n);
      }
    }
    const min = rule.min_type === 'custom' && typeof rule.min_value === 'number' ? rule.min_value : Math.min(...values);
    const max = rule.max_type === 'custom' && typeof rule.max_value === 'number' ? rule.max_value : Math.max(...values);
    ranges.set(rule, { min, max });
  }
  const cell = ((row: unknown[], colIndex: number) => {
    const name = ctx.cols[colIndex].name;
    for (const rule of rules) {
      if (!(rule.columns as unknown[]).includes(name) || rule.highlight_row === true) continue;
      const value = row[colIndex];
      if (rule.type === 'single' || rule.type === undefined) {
        const color = hex6(validColor(rule.color));
        if (color && singleMatches(rule, value)) return tint(color);
      } else if (rule.type === 'range') {
        const colors = Array.isArray(rule.colors) ? rule.colors.map((c) => hex6(validColor(c))).filter((c): c is string => !!c) : [];
        const range = ranges.get(rule);
        const n = numberOf(value);
        if (colors.length < 2 || !range || n === null || !Number.isFinite(range.min) || !Number.isFinite(range.max)) continue;
        const at = range.max === range.min ? 1 : Math.min(1, Math.max(0, (n - range.min) / (range.max - range.min)));
        return tint(mix(colors[0], colors[colors.length - 1], at));
      }
    }
    return undefined;
  }) as CellPainter;
  cell.rowColor = (row) => {
    for (const rule of rules) {
      if (rule.highlight_row !== true) continue;
      const color = hex6(validColor(rule.color));
      for (const name of rule.columns as unknown[]) {
        const i = ctx.cols.findIndex((c) => c.name === name);
        if (color && i >= 0 && singleMatches(rule, row[i])) return tint(color);
      }
    }
    return undefined;
  };
  return cell;
}

export function rowLimit(requested: number | undefined): number {
  const n = requested !== undefined && Number.isInteger(requested) && requested > 0 ? requested : DEFAULT_TABLE_ROWS;
  return Math.min(n, MAX_TABLE_ROWS);
}

/** The columns a table shows, in order: their result index, title (with the currency when it goes in the header), alignment. */
export interface TableColumn {
  index: number;
  title: string;
  align: 'left' | 'right';
  currencyInHeader: boolean;
}

export function tableColumns(ctx: VizContext): TableColumn[] {
  const ordered = exportLayout(ctx.cols, ctx.settings).indexes;
  const visible = ordered.filter((i) => shownInTables(ctx.cols[i]));
  return (visible.length > 0 ? visible : ordered).map((i) => {
    const currency = currencyHeaderLabel(ctx.columnSettings(i));
    const title = ctx.title(i);
    return { index: i, title: currency ? `${title} (${currency})` : title, align: isNumberColumn(ctx.cols[i]) ? 'right' : 'left', currencyInHeader: currency !== null };
  });
}

export function describeTable(ctx: VizContext): TableVisualization {
  const layout = tableColumns(ctx);
  const paint = painter(ctx);
  const columns = layout.map(({ title, align }) => ({ title, align }));
  const shown = ctx.rows.slice(0, rowLimit(ctx.options.tableRowLimit));
  const rows = shown.map((row): TableCell[] => {
    const rowColor = paint.rowColor(row);
    return layout.map(({ index: i, currencyInHeader }) => {
      const text = ctx.format(i)(row[i], { currencyInHeader });
      const background = paint(row, i) ?? rowColor;
      return background ? { text, background } : { text };
    });
  });
  return { kind: 'table', columns, rows, totalRows: ctx.rows.length };
}
