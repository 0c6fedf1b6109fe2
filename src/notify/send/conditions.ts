// When an alert fires (reference A2): `rows` — the card returned something (not no rows, not a lone null); `goal` —
// some row's value reaches the card's goal line (`graph.goal_value` on line, bar and area charts, `progress.goal` on
// progress bars): `value >= goal` above, `value < goal` below. The value compared is the column `graph.metrics[0]`
// names (any case), else Metabase's default: progress → the first column; [dimension, metric] → the second;
// [dimension, dimension, metric] → the third; [dimension, metric, metric…] → the second.

import { normalizeColumns, isDimensionColumn } from '../../visualization/columns.js';
import { isEmptyResult, type CardPart } from './parts.js';

export const GOAL_ERROR = 'Unable to compare results to goal for alert.';

export type AlertOutcome = { fire: true; goal: number | null } | { fire: false; reason: string };

function goalOf(display: string, settings: Record<string, unknown>): number | null {
  const value = ['line', 'bar', 'area'].includes(display) ? settings['graph.goal_value'] : display === 'progress' ? settings['progress.goal'] : undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function comparedColumn(part: CardPart): number | null {
  const cols = normalizeColumns(part.result?.data.cols ?? []);
  const metrics = part.renderable.visualization_settings['graph.metrics'];
  if (Array.isArray(metrics) && typeof metrics[0] === 'string') {
    const i = cols.findIndex((c) => c.name.toLowerCase() === (metrics[0] as string).toLowerCase());
    if (i >= 0) return i;
  }
  if (part.card.display === 'progress') return cols.length ? 0 : null;
  if (cols.length === 2) return 1;
  if (cols.length >= 3) return isDimensionColumn(cols[1]) ? 2 : 1;
  return null;
}

export function alertOutcome(condition: string, aboveGoal: boolean, part: CardPart): AlertOutcome {
  if (!part.result || part.result.status !== 'completed') return { fire: false, reason: part.error ?? 'The question failed.' };
  if (isEmptyResult(part.result)) return { fire: false, reason: 'The question returned no results.' };
  if (condition === 'rows') return { fire: true, goal: null };
  const goal = goalOf(part.card.display, part.renderable.visualization_settings);
  const column = comparedColumn(part);
  if (goal === null || column === null) throw new Error(GOAL_ERROR);
  const reached = part.result.data.rows.some((row) => {
    const v = typeof row[column] === 'string' ? Number(row[column]) : row[column];
    return typeof v === 'number' && Number.isFinite(v) && (aboveGoal ? v >= goal : v < goal);
  });
  return reached ? { fire: true, goal } : { fire: false, reason: aboveGoal ? 'The goal was not reached.' : 'The results did not go below the goal.' };
}
