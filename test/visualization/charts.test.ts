// The chart descriptions: which columns become axes and series, and how each visualization setting shows in the
// ECharts option (what a user would see: titles, colours, stacking, goal line, labels, slices, comparisons).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeVisualization, type ChartVisualization, type SmartScalarVisualization, type VisualizationInput } from '../../src/visualization/index.js';

const OPTIONS = { timezone: 'UTC', width: 600 };
const month = (m: number) => `2024-${String(m).padStart(2, '0')}-01T00:00:00Z`;
const CREATED_AT_MONTH = { name: 'CREATED_AT', display_name: 'Created At: Month', base_type: 'type/DateTime', unit: 'month', source: 'breakout' };
const COUNT = { name: 'count', display_name: 'Count', base_type: 'type/BigInteger', source: 'aggregation' };
const monthly: Pick<VisualizationInput, 'cols' | 'rows'> = {
  cols: [
    CREATED_AT_MONTH,
    COUNT,
    { name: 'sum', display_name: 'Sum of Total', base_type: 'type/Float', source: 'aggregation' },
  ],
  rows: [
    [month(3), 30, 300],
    [month(1), 10, 100],
    [month(2), 20, 150],
  ],
};
const byCategory: Pick<VisualizationInput, 'cols' | 'rows'> = {
  cols: [
    CREATED_AT_MONTH,
    { name: 'CATEGORY', display_name: 'Category', base_type: 'type/Text', source: 'breakout' },
    COUNT,
  ],
  rows: [
    [month(1), 'Gadget', 4],
    [month(1), 'Widget', 6],
    [month(2), 'Gadget', 5],
    [month(2), 'Widget', 15],
  ],
};

function chart(display: string, settings: Record<string, unknown> = {}, input: Omit<VisualizationInput, 'display' | 'settings'> = monthly): ChartVisualization & { option: any } {
  const viz = describeVisualization({ display, settings, ...input }, OPTIONS);
  assert.equal(viz.kind, 'chart', `${display}: ${JSON.stringify(viz).slice(0, 200)}`);
  return viz as ChartVisualization & { option: any };
}

test('line: dates on the x axis in time order, one series per aggregation, a legend for several', () => {
  const { option } = chart('line');
  assert.deepEqual(option.xAxis.data, ['Jan 2024', 'Feb 2024', 'Mar 2024']);
  assert.deepEqual(option.series.map((s: any) => [s.type, s.name, s.data]), [
    ['line', 'Count', [10, 20, 30]],
    ['line', 'Sum of Total', [100, 150, 300]],
  ]);
  assert.equal(option.series[0].color, '#509EE3');
  assert.equal(option.series[1].color, '#88BF4D');
  assert.notEqual(option.legend.show, false);
  assert.equal(option.xAxis.name, 'Created At: Month');
});

test('graph.dimensions and graph.metrics choose the columns; a single series has no legend and names the y axis', () => {
  const { option } = chart('bar', { 'graph.dimensions': ['CREATED_AT'], 'graph.metrics': ['sum'] });
  assert.equal(option.series.length, 1);
  assert.equal(option.series[0].type, 'bar');
  assert.deepEqual(option.series[0].data, [100, 150, 300]);
  assert.equal(option.legend.show, false);
  assert.equal(option.yAxis[0].name, 'Sum of Total');
});

test('a second dimension makes one series per value, titled and coloured by series_settings', () => {
  const { option } = chart('bar', { series_settings: { Widget: { title: 'Widgets', color: '#123456' } } }, byCategory);
  assert.deepEqual(option.series.map((s: any) => [s.name, s.data, s.color]), [
    ['Gadget', [4, 5], '#509EE3'],
    ['Widgets', [6, 15], '#123456'],
  ]);
});

test('graph.series_order orders and hides breakout series; an ordinal x axis keeps only the periods present', () => {
  const { option } = chart('bar', { 'graph.series_order': [{ key: 'Widget', enabled: true }, { key: 'Gadget', enabled: false }] }, byCategory);
  assert.deepEqual(option.series.map((s: any) => s.name), ['Widget']);
  const gappy = { ...monthly, rows: [[month(1), 1, 1], [month(4), 4, 4]] };
  assert.deepEqual(chart('bar', { 'graph.x_axis.scale': 'ordinal' }, gappy).option.xAxis.data, ['Jan 2024', 'Apr 2024']);
});

test('stacking: stacked shares a stack; normalized plots shares of 100%', () => {
  const stacked = chart('bar', { 'stackable.stack_type': 'stacked' }, byCategory).option;
  assert.ok(stacked.series.every((s: any) => s.stack === stacked.series[0].stack && s.stack));
  const normalized = chart('bar', { 'stackable.stack_type': 'normalized' }, byCategory).option;
  assert.deepEqual(normalized.series.map((s: any) => s.data), [[0.4, 0.25], [0.6, 0.75]]);
  assert.equal(normalized.yAxis[0].max, 1);
  assert.equal(normalized.yAxis[0].axisLabel.formatter(0.5), '50%');
  const unstacked = chart('bar', {}, byCategory).option;
  assert.ok(unstacked.series.every((s: any) => !s.stack));
  const area = chart('area', {}, byCategory).option;
  assert.ok(area.series.every((s: any) => s.stack && s.areaStyle), 'areas with a breakout stack by default');
});

test('goal line: value and label', () => {
  const { option } = chart('line', { 'graph.show_goal': true, 'graph.goal_value': 25, 'graph.goal_label': 'Target' });
  assert.deepEqual(option.series[0].markLine.data, [{ yAxis: 25 }]);
  assert.equal(option.series[0].markLine.label.formatter, 'Target');
  assert.equal(chart('line', { 'graph.goal_value': 25 }).option.series[0].markLine, undefined, 'only with show_goal');
});

test('axes: titles, hidden titles, hidden or rotated labels, range, log scale', () => {
  const titled = chart('line', { 'graph.x_axis.title_text': 'Month', 'graph.y_axis.title_text': 'Orders' }).option;
  assert.equal(titled.xAxis.name, 'Month');
  assert.equal(titled.yAxis[0].name, 'Orders');
  const hidden = chart('line', { 'graph.x_axis.labels_enabled': false, 'graph.y_axis.labels_enabled': false, 'graph.y_axis.axis_enabled': false }).option;
  assert.equal(hidden.xAxis.name, undefined);
  assert.equal(hidden.yAxis[0].name, undefined);
  assert.equal(hidden.yAxis[0].axisLabel.show, false);
  assert.equal(chart('line', { 'graph.x_axis.axis_enabled': 'rotate-45' }).option.xAxis.axisLabel.rotate, 45);
  assert.equal(chart('line', { 'graph.x_axis.axis_enabled': false }).option.xAxis.axisLabel.show, false);
  const ranged = chart('line', { 'graph.y_axis.auto_range': false, 'graph.y_axis.min': 5, 'graph.y_axis.max': 50 }).option;
  assert.deepEqual([ranged.yAxis[0].min, ranged.yAxis[0].max], [5, 50]);
  assert.equal(chart('line', { 'graph.y_axis.scale': 'log' }).option.yAxis[0].type, 'log');
});

test('value ticks and labels follow the metric column settings', () => {
  const { option } = chart('bar', { 'graph.metrics': ['sum'], 'graph.show_values': true, column_settings: { '["name","sum"]': { number_style: 'currency' } } });
  assert.equal(option.yAxis[0].axisLabel.formatter(300), '$300');
  assert.equal(option.series[0].label.show, true);
  assert.equal(option.series[0].label.formatter({ value: 1500 }), '$1.5k');
});

test('combo: per-series display, a right axis for series set to it', () => {
  const { option } = chart('combo', { series_settings: { sum: { display: 'line', axis: 'right' } } });
  assert.deepEqual(option.series.map((s: any) => [s.type, s.yAxisIndex]), [['bar', 0], ['line', 1]]);
  assert.equal(option.yAxis.length, 2);
  assert.equal(option.yAxis[1].name, 'Sum of Total');
  const byDefault = chart('combo').option;
  assert.deepEqual(byDefault.series.map((s: any) => s.type), ['bar', 'line']);
  const lineAsBar = chart('line', { series_settings: { count: { display: 'bar' } } }).option;
  assert.deepEqual(lineAsBar.series.map((s: any) => s.type), ['bar', 'line']);
});

test('two metrics of very different size get an axis each, unless auto split is off', () => {
  const split = chart('line').option;
  assert.deepEqual(split.series.map((s: any) => s.yAxisIndex), [0, 0], 'count and sum are within 20× of each other');
  const far = { ...monthly, rows: monthly.rows.map((r) => [r[0], r[1], (r[2] as number) * 100]) };
  assert.deepEqual(chart('line', {}, far).option.series.map((s: any) => s.yAxisIndex), [0, 1]);
  assert.equal(chart('line', {}, far).option.yAxis[1].name, 'Sum of Total');
  assert.deepEqual(chart('line', { 'graph.y_axis.auto_split': false }, far).option.series.map((s: any) => s.yAxisIndex), [0, 0]);
  assert.deepEqual(chart('line', { 'stackable.stack_type': 'stacked' }, far).option.series.map((s: any) => s.yAxisIndex), [0, 0]);
});

test('missing periods of a time series are on the axis, as gaps or zeros', () => {
  const gappy = { ...monthly, rows: [[month(1), 1, 1], [month(4), 4, 4]] };
  const { option } = chart('bar', { 'graph.metrics': ['count'] }, gappy);
  assert.deepEqual(option.xAxis.data, ['Jan 2024', 'Feb 2024', 'Mar 2024', 'Apr 2024']);
  assert.deepEqual(option.series[0].data, [1, null, null, 4]);
  const zeros = chart('line', { 'graph.metrics': ['count'], series_settings: { count: { 'line.missing': 'zero' } } }, gappy).option;
  assert.deepEqual(zeros.series[0].data, [1, 0, 0, 4]);
  const weeks = {
    cols: [{ name: 'W', display_name: 'Week', base_type: 'type/DateTime', unit: 'week' }, { name: 'n', display_name: 'N', base_type: 'type/Integer' }],
    rows: [['2024-03-03T00:00:00-05:00', 1], ['2024-03-17T00:00:00-04:00', 3]],
  };
  const dst = describeVisualization({ display: 'line', settings: {}, ...weeks }, { timezone: 'America/New_York', width: 600 }) as any;
  assert.deepEqual(dst.option.xAxis.data, ['Mar 3, 2024', 'Mar 10, 2024', 'Mar 17, 2024']);
  assert.deepEqual(dst.option.series[0].data, [1, null, 3]);
});

test('line settings: interpolation, markers, missing values', () => {
  const gaps = { ...monthly, rows: [[month(1), 1, 1], [month(2), null, 2], [month(3), 3, 3]] };
  const settings = (s: Record<string, unknown>) => ({ series_settings: { count: s } });
  const step = chart('line', settings({ 'line.interpolate': 'step-after', 'line.marker_enabled': false }), gaps).option.series[0];
  assert.equal(step.step, 'end');
  assert.equal(step.showSymbol, false);
  assert.equal(chart('line', settings({ 'line.interpolate': 'cardinal' }), gaps).option.series[0].smooth, true);
  assert.deepEqual(chart('line', settings({ 'line.missing': 'zero' }), gaps).option.series[0].data, [1, 0, 3]);
  assert.equal(chart('line', settings({ 'line.missing': 'none' }), gaps).option.series[0].connectNulls, false);
  assert.equal(chart('line', {}, gaps).option.series[0].connectNulls, true);
});

test('row: horizontal bars, categories top to bottom', () => {
  const viz = chart('row', {}, { cols: [monthly.cols[0], monthly.cols[1]].map((c, i) => (i === 0 ? { ...c, name: 'C', base_type: 'type/Text', unit: undefined } : c)), rows: [['a', 3], ['b', 2], ['c', 1]] });
  assert.equal(viz.option.yAxis.type, 'category');
  assert.equal(viz.option.yAxis.inverse, true);
  assert.deepEqual(viz.option.yAxis.data, ['a', 'b', 'c']);
  assert.equal(viz.option.xAxis.type, 'value');
});

const pieInput: Pick<VisualizationInput, 'cols' | 'rows'> = {
  cols: [
    { name: 'CATEGORY', display_name: 'Category', base_type: 'type/Text' },
    { name: 'sum', display_name: 'Sum', base_type: 'type/Float' },
  ],
  rows: [['Gizmo', 30], ['Widget', 60], ['Tiny', 1], ['Small', 1], ['Empty', 0], ['Gadget', 8]],
};

test('pie: largest first, small slices into Other, colours, total and percentages', () => {
  const { option } = chart('pie', { 'pie.colors': { Widget: '#000000' } }, pieInput);
  const data = option.series[0].data;
  assert.deepEqual(data.map((d: any) => [d.name, d.value]), [['Widget', 60], ['Gizmo', 30], ['Gadget', 8], ['Other', 2]]);
  assert.equal(data[0].itemStyle.color, '#000000');
  assert.equal(option.graphic[1].style.text, '100');
  assert.equal(option.legend.formatter('Widget'), 'Widget  60%');
  const unsorted = chart('pie', { 'pie.sort_rows': false, 'pie.slice_threshold': 0 }, pieInput).option.series[0].data;
  assert.deepEqual(unsorted.map((d: any) => d.name), ['Gizmo', 'Widget', 'Tiny', 'Small', 'Gadget']);
  const plain = chart('pie', { 'pie.show_total': false, 'pie.show_legend': false, 'pie.percent_visibility': 'inside', 'pie.decimal_places': 1 }, pieInput).option;
  assert.deepEqual(plain.graphic, []);
  assert.equal(plain.legend.show, false);
  assert.equal(plain.series[0].label.formatter({ value: 60 }), '60.0%');
});

test('pie: a result of many slices names the fourteen largest and gathers the rest', () => {
  const states = { cols: pieInput.cols, rows: Array.from({ length: 40 }, (_, i) => [`S${i}`, 100 + i]) };
  const data = chart('pie', {}, states).option.series[0].data;
  assert.equal(data.length, 15);
  assert.equal(data[14].name, 'Other');
  assert.equal(data.reduce((sum: number, d: any) => sum + d.value, 0), states.rows.reduce((sum, r) => sum + (r[1] as number), 0));
});

function trend(settings: Record<string, unknown> = {}, input = monthly): SmartScalarVisualization {
  const viz = describeVisualization({ display: 'smartscalar', settings, ...input }, OPTIONS);
  assert.equal(viz.kind, 'smartscalar');
  return viz as SmartScalarVisualization;
}

test('smart scalar: the latest value, its period, and the change vs. the previous period', () => {
  const t = trend({ 'scalar.field': 'sum' });
  assert.equal(t.value, '300');
  assert.equal(t.period, 'Mar 2024');
  assert.deepEqual(t.comparisons, [{ label: 'vs. previous month', change: '100%', direction: 'up', previous: '150', color: '#84BB4C' }]);
  const swapped = trend({ 'scalar.field': 'sum', 'scalar.switch_positive_negative': true });
  assert.equal(swapped.comparisons[0].color, '#ED6E6E');
});

test('smart scalar: other comparisons, and what a missing period shows', () => {
  const t = trend({
    'scalar.field': 'count',
    'scalar.comparisons': [
      { type: 'periodsAgo', value: 2 },
      { type: 'periodsAgo', value: 5 },
      { type: 'previousValue' },
      { type: 'staticNumber', value: 40, label: 'Goal' },
      { type: 'anotherColumn', column: 'sum', label: 'Sum' },
    ],
  });
  assert.deepEqual(
    t.comparisons.map((c) => [c.label, c.change, c.direction, c.previous]),
    [
      ['vs. 2 months ago', '200%', 'up', '10'],
      ['vs. 5 months ago', 'N/A', 'missing', '(No data)'],
      ['vs. previous value', '50%', 'up', '20'],
      ['vs. Goal', '25%', 'down', '40'],
      ['vs. Sum', '90%', 'down', '300'],
    ],
  );
  const flat = trend({}, { ...monthly, rows: [[month(1), 5, 5], [month(2), 5, 5]] });
  assert.equal(flat.comparisons[0].change, 'No change');
  const fromZero = trend({}, { ...monthly, rows: [[month(1), 0, 5], [month(2), 5, 5]] });
  assert.equal(fromZero.comparisons[0].change, '∞%');
});

test('smart scalar: previous period across a daylight-saving change', () => {
  const input = {
    cols: [{ name: 'D', display_name: 'D', base_type: 'type/DateTime', unit: 'week' }, { name: 'n', display_name: 'N', base_type: 'type/Integer' }],
    rows: [['2024-03-03T00:00:00-05:00', 10], ['2024-03-10T00:00:00-05:00', 12]],
  };
  const t = describeVisualization({ display: 'smartscalar', settings: {}, ...input }, { timezone: 'America/New_York', width: 600 }) as SmartScalarVisualization;
  assert.equal(t.comparisons[0].previous, '10');
});

test('progress: value against progress.goal in progress.color', () => {
  const one = { cols: [{ name: 'n', display_name: 'N', base_type: 'type/Integer' }], rows: [[75]] };
  const { option } = chart('progress', { 'progress.goal': 100, 'progress.color': '#ABCDEF' }, one);
  const texts = option.graphic.filter((g: any) => g.type === 'text').map((g: any) => g.style.text);
  assert.deepEqual(texts, ['75', '0', 'Goal 100']);
  const [track, fill] = option.graphic;
  assert.equal(fill.style.fill, '#ABCDEF');
  assert.equal(fill.shape.width / track.shape.width, 0.75);
  const met = chart('progress', { 'progress.goal': 50 }, one).option.graphic.map((g: any) => g.style?.text);
  assert.ok(met.includes('Goal exceeded'));
});

test('gauge: segments colour the arc; their bounds and labels are written', () => {
  const one = { cols: [{ name: 'n', display_name: 'N', base_type: 'type/Integer' }], rows: [[75]] };
  const segments = [
    { min: 0, max: 50, color: '#ED6E6E', label: 'Low' },
    { min: 50, max: 100, color: '#84BB4C', label: 'High' },
  ];
  const { option } = chart('gauge', { 'gauge.segments': segments }, one);
  const series = option.series[0];
  assert.deepEqual([series.min, series.max, series.data[0].value], [0, 100, 75]);
  assert.deepEqual(series.axisLine.lineStyle.color, [[0.5, '#ED6E6E'], [1, '#84BB4C']]);
  assert.equal(series.detail.formatter(), '75');
  const texts = option.graphic.map((g: any) => g.style.text);
  for (const t of ['0', '50', '100', 'Low', 'High']) assert.ok(texts.includes(t), t);
});

test('funnel: steps in order with their share of the first; funnel.rows reorders and hides', () => {
  const input = {
    cols: [{ name: 'STEP', display_name: 'Step', base_type: 'type/Text' }, { name: 'N', display_name: 'N', base_type: 'type/Integer' }],
    rows: [['Visit', 1000], ['Cart', 250], ['Buy', 50]],
  };
  const { option } = chart('funnel', {}, input);
  assert.deepEqual(option.series[0].data.map((d: any) => [d.name, d.value]), [['Visit', 1000], ['Cart', 250], ['Buy', 50]]);
  assert.match(option.series[0].label.formatter({ name: 'Cart', value: 250 }), /250 · 25%/);
  const arranged = chart('funnel', { 'funnel.rows': [{ key: 'Visit', enabled: true }, { key: 'Buy', enabled: true }, { key: 'Cart', enabled: false }] }, input);
  assert.deepEqual(arranged.option.series[0].data.map((d: any) => d.name), ['Visit', 'Buy']);
  const asBars = chart('funnel', { 'funnel.type': 'bar' }, input);
  assert.equal(asBars.option.series[0].type, 'bar');
  const fromColumns = chart('funnel', {}, { cols: [{ name: 'a', display_name: 'Visits', base_type: 'type/Integer' }, { name: 'b', display_name: 'Buys', base_type: 'type/Integer' }], rows: [[10, 4]] });
  assert.deepEqual(fromColumns.option.series[0].data.map((d: any) => d.name), ['Visits', 'Buys']);
});

test('native results: the first date or text column is the dimension, the numbers the series', () => {
  const native = {
    cols: [
      { name: 'ID', display_name: 'ID', base_type: 'type/Integer', semantic_type: 'type/PK', source: 'native' },
      { name: 'DAY', display_name: 'DAY', base_type: 'type/Date', source: 'native' },
      { name: 'TOTAL', display_name: 'TOTAL', base_type: 'type/Float', source: 'native' },
    ],
    rows: [[1, '2024-01-02T00:00:00Z', 5], [2, '2024-01-01T00:00:00Z', 7]],
  };
  const { option } = chart('line', {}, native);
  assert.deepEqual(option.xAxis.data, ['Jan 2, 2024', 'Jan 1, 2024'].reverse());
  assert.deepEqual(option.series.map((s: any) => [s.name, s.data]), [['TOTAL', [7, 5]]]);
});

test('waterfall: each step starts where the last ended; increases, decreases and the total in their colours', () => {
  const input = {
    cols: [{ name: 'M', display_name: 'Month', base_type: 'type/Text' }, { name: 'd', display_name: 'Change', base_type: 'type/Float' }],
    rows: [['a', 100], ['b', -30], ['c', -120], ['d', 20]],
  };
  const { option } = chart('waterfall', { 'waterfall.total_color': '#000000' }, input);
  const [base, bars] = option.series;
  assert.deepEqual(base.data, [0, 70, -50, -50, -30]);
  assert.deepEqual(bars.data.map((b: any) => b.value), [100, 30, 120, 20, 30]);
  assert.deepEqual(bars.data.map((b: any) => b.itemStyle.color), ['#88BF4D', '#EF8C8C', '#EF8C8C', '#88BF4D', '#000000']);
  assert.deepEqual(option.xAxis.data, ['a', 'b', 'c', 'd', 'Total']);
  assert.equal(chart('waterfall', { 'waterfall.show_total': false }, input).option.xAxis.data.length, 4);
});

test('scatter: points against a number axis, sized by scatter.bubble', () => {
  const input = {
    cols: [{ name: 'x', display_name: 'Price', base_type: 'type/Float' }, { name: 'y', display_name: 'Rating', base_type: 'type/Float' }, { name: 's', display_name: 'Reviews', base_type: 'type/Integer' }],
    rows: [[10, 4.5, 100], [10, 2, 25], [30, 3, 0]],
  };
  const { option } = chart('scatter', { 'graph.dimensions': ['x'], 'scatter.bubble': 's' }, input);
  assert.equal(option.series.length, 1);
  assert.deepEqual(option.series[0].data, [[10, 4.5, 100], [10, 2, 25], [30, 3, 0]]);
  assert.ok(option.series[0].symbolSize([10, 4.5, 100]) > option.series[0].symbolSize([10, 2, 25]));
  assert.equal(option.xAxis.name, 'Price');
  assert.equal(option.yAxis.name, 'Rating');
});

test('a card with other cards overlaid (a dashcard\'s series) is one chart: every card a series, on one x axis', () => {
  const revenue = {
    name: 'Revenue',
    display: 'line',
    settings: {},
    cols: [CREATED_AT_MONTH, { name: 'sum', display_name: 'Sum of Total', base_type: 'type/Float', source: 'aggregation' }],
    rows: [[month(4), 400], [month(2), 200]],
  };
  const { option } = chart('bar', { 'graph.metrics': ['count'], series_settings: { Revenue: { color: '#123456' } } }, {
    ...monthly,
    name: 'Orders',
    series: [revenue],
  });
  assert.deepEqual(option.xAxis.data, ['Jan 2024', 'Feb 2024', 'Mar 2024', 'Apr 2024']);
  assert.deepEqual(option.series.map((s: any) => [s.type, s.name, s.data]), [
    ['bar', 'Orders', [10, 20, 30, null]],
    ['line', 'Revenue', [null, 200, null, 400]],
  ]);
  assert.equal(option.series[1].color, '#123456');
  assert.notEqual(option.legend.show, false);
  assert.equal(option.xAxis.name, 'Created At: Month');
});

test('overlaid cards: several metrics are "card: metric", a card with a breakout is left out, non-charts ignore series', () => {
  const other = { name: 'Other', display: 'bar', settings: {}, ...monthly };
  const { option } = chart('line', {}, { ...monthly, name: 'Main', series: [other, { name: 'Split', display: 'bar', settings: {}, ...byCategory }] });
  assert.deepEqual(option.series.map((s: any) => [s.type, s.name]), [
    ['line', 'Main: Count'],
    ['line', 'Main: Sum of Total'],
    ['bar', 'Other: Count'],
    ['bar', 'Other: Sum of Total'],
  ]);
  const alone = describeVisualization({ display: 'table', settings: {}, ...monthly, name: 'T', series: [other] }, OPTIONS);
  assert.equal(alone.kind, 'table');
  assert.equal((alone as any).columns.length, 3);
  const odd = describeVisualization({ display: 'line', settings: {}, ...monthly, name: 'M', series: [{ name: 'x', display: 'line', settings: {}, cols: 7, rows: null } as any] }, OPTIONS) as any;
  assert.equal(odd.option.series.length, 2, 'an unusable series leaves the card alone');
});
