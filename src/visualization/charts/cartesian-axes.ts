// The axes of a cartesian chart from the card's settings: titles (`graph.x_axis.title_text`, shown unless
// `graph.x_axis.labels_enabled` is false; the y title defaults to the metric's name when every series plots the
// same one), tick labels (`graph.*_axis.axis_enabled`: false hides them, rotate-45/rotate-90 turn them), the
// value range (`graph.y_axis.auto_range` off with `graph.y_axis.min`/`max`), the scale (`graph.y_axis.scale` log),
// and value ticks formatted like the metric column (compact when large).

import type { XAXisComponentOption, YAXisComponentOption } from 'echarts';
import { setting, type VizContext } from '../context.js';
import { COLORS } from '../palette.js';
import type { CartesianData } from './cartesian-data.js';

const AXIS_TITLE = { color: COLORS.textMedium, fontSize: 12, fontWeight: 'bold' as const };
const AXIS_LABEL = { color: COLORS.textMedium, fontSize: 11 };

function axisTitle(ctx: VizContext, axis: 'x' | 'y', fallback: string | null): string | undefined {
  if (ctx.settings[`graph.${axis}_axis.labels_enabled`] === false) return undefined;
  const text = setting<string>(ctx, `graph.${axis}_axis.title_text`, 'string');
  if (text !== undefined) return text || undefined;
  return fallback ?? undefined;
}

function labelRotation(ctx: VizContext): number {
  const mode = ctx.settings['graph.x_axis.axis_enabled'];
  return mode === 'rotate-45' ? 45 : mode === 'rotate-90' ? 90 : 0;
}

export function categoryAxis(ctx: VizContext, data: CartesianData, horizontal: boolean): XAXisComponentOption {
  const hidden = ctx.settings['graph.x_axis.axis_enabled'] === false;
  return {
    type: 'category',
    data: data.xLabels,
    name: axisTitle(ctx, 'x', ctx.title(data.dimension)),
    nameLocation: 'middle',
    nameGap: horizontal ? 0 : 30,
    nameTextStyle: AXIS_TITLE,
    axisLabel: { ...AXIS_LABEL, show: !hidden, rotate: horizontal ? 0 : labelRotation(ctx), hideOverlap: true },
    axisTick: { show: false },
    axisLine: { show: !hidden, lineStyle: { color: COLORS.textLight } },
    inverse: horizontal,
  } as XAXisComponentOption;
}

export interface ValueAxisInput {
  format: (value: number) => string;
  /** Values are shares of 1 (100% stacked). */
  normalized: boolean;
  title: string | null;
}

export function valueAxis(ctx: VizContext, input: ValueAxisInput, side: 'left' | 'right' | 'bottom' = 'left'): YAXisComponentOption {
  const hidden = ctx.settings['graph.y_axis.axis_enabled'] === false;
  const autoRange = ctx.settings['graph.y_axis.auto_range'] !== false;
  const min = autoRange ? undefined : setting<number>(ctx, 'graph.y_axis.min', 'number');
  const max = autoRange ? undefined : setting<number>(ctx, 'graph.y_axis.max', 'number');
  const log = ctx.settings['graph.y_axis.scale'] === 'log';
  return {
    type: log ? 'log' : 'value',
    position: side,
    min: input.normalized ? 0 : min,
    max: input.normalized ? 1 : max,
    name: side === 'right' ? input.title ?? undefined : axisTitle(ctx, 'y', input.title),
    nameLocation: 'middle',
    nameGap: side === 'bottom' ? 30 : 50,
    nameTextStyle: AXIS_TITLE,
    axisLabel: { ...AXIS_LABEL, show: !hidden, formatter: (value: number) => input.format(value) },
    splitLine: { show: side !== 'right', lineStyle: { color: COLORS.grid } },
    axisLine: { show: false },
    axisTick: { show: false },
  } as YAXisComponentOption;
}
