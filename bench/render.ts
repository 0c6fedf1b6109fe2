// Rendering benchmark: milliseconds per picture by display type (drawn on this thread, after a warm-up) and the
// PNG's size; then a 25-card dashboard subscription rendered through the worker pool as the email path does
// (renderCardHtml, all cards at once): wall time and the event loop's delay p99 meanwhile — beside the same 25
// cards drawn on the main thread, to show what the pool spares the server. Figures are printed, never asserted.
//
//   npm run bench render        or: npx tsx bench/render.ts

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { renderPngNow, renderHtmlNow } from '../src/notify/render/job.js';
import { closeRenderer, renderCardHtml, type RenderableCard, type RenderableResult } from '../src/notify/render/index.js';
import { poolSize } from '../src/notify/render/pool.js';

const ROUNDS = 10;
const month = (i: number) => new Date(Date.UTC(2022, 3 + i, 1)).toISOString().replace('.000Z', 'Z');
const col = (name: string, display_name: string, base_type: string, extra: object = {}) => ({ name, display_name, base_type, ...extra });
const CATEGORIES = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'];

const monthly: RenderableResult = {
  cols: [col('CREATED_AT', 'Created At: Month', 'type/DateTime', { unit: 'month', source: 'breakout' }), col('count', 'Count', 'type/BigInteger', { source: 'aggregation' }), col('sum', 'Sum of Total', 'type/Float', { source: 'aggregation' })],
  rows: Array.from({ length: 48 }, (_, i) => [month(i), 100 + ((i * 37) % 400), 8000 + ((i * 7919) % 30000) + 0.25]),
};
const breakout: RenderableResult = {
  cols: [col('CREATED_AT', 'Created At: Month', 'type/DateTime', { unit: 'month', source: 'breakout' }), col('CATEGORY', 'Category', 'type/Text', { source: 'breakout' }), col('count', 'Count', 'type/BigInteger', { source: 'aggregation' })],
  rows: Array.from({ length: 48 }, (_, i) => CATEGORIES.map((c, k) => [month(i), c, 20 + ((i * 13 + k * 29) % 120)])).flat(),
};
const byCategory: RenderableResult = {
  cols: [col('CATEGORY', 'Category', 'type/Text', { source: 'breakout' }), col('sum', 'Sum of Total', 'type/Float', { source: 'aggregation' })],
  rows: CATEGORIES.map((c, i) => [c, 300000 + i * 41234.5]),
};
const single: RenderableResult = { cols: [col('count', 'Count', 'type/BigInteger', { source: 'aggregation' })], rows: [[18760]] };
const rawRows: RenderableResult = {
  cols: [col('ID', 'ID', 'type/Integer', { semantic_type: 'type/PK' }), col('CREATED_AT', 'Created At', 'type/DateTime'), col('CATEGORY', 'Category', 'type/Text'), col('TOTAL', 'Total', 'type/Float'), col('QUANTITY', 'Quantity', 'type/Integer')],
  rows: Array.from({ length: 2000 }, (_, i) => [i + 1, `2024-0${1 + (i % 9)}-1${i % 10}T1${i % 10}:30:00Z`, CATEGORIES[i % 4], 10 + ((i * 7.31) % 150), 1 + (i % 7)]),
};

const CASES: Array<[string, RenderableCard, RenderableResult]> = [
  ['line', { name: 'Orders', display: 'line', visualization_settings: { 'graph.show_goal': true, 'graph.goal_value': 300 } }, monthly],
  ['bar (stacked, 4 series)', { name: 'By category', display: 'bar', visualization_settings: { 'stackable.stack_type': 'stacked' } }, breakout],
  ['area (100%)', { name: 'Share', display: 'area', visualization_settings: { 'stackable.stack_type': 'normalized' } }, breakout],
  ['combo', { name: 'Count and revenue', display: 'combo', visualization_settings: { series_settings: { sum: { axis: 'right' } } } }, monthly],
  ['row', { name: 'Revenue', display: 'row', visualization_settings: { 'graph.show_values': true } }, byCategory],
  ['pie', { name: 'Revenue share', display: 'pie', visualization_settings: {} }, byCategory],
  ['scalar', { name: 'Orders', display: 'scalar', visualization_settings: {} }, single],
  ['smartscalar', { name: 'Trend', display: 'smartscalar', visualization_settings: {} }, monthly],
  ['progress', { name: 'Progress', display: 'progress', visualization_settings: { 'progress.goal': 25000 } }, single],
  ['gauge', { name: 'Gauge', display: 'gauge', visualization_settings: {} }, single],
  ['funnel', { name: 'Funnel', display: 'funnel', visualization_settings: {} }, byCategory],
  ['table (2,000 rows → 20)', { name: 'Orders', display: 'table', visualization_settings: {} }, rawRows],
];

const OPTIONS = { timezone: 'UTC' };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

console.log(`Per picture, drawn on this thread (median of ${ROUNDS} after one warm-up), 1,200 px PNG:`);
console.log('display                     ms     PNG KB');
for (const [name, card, result] of CASES) {
  renderPngNow(card, result, OPTIONS);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    bytes = renderPngNow(card, result, OPTIONS).length;
    times.push(performance.now() - t);
  }
  console.log(`${name.padEnd(26)} ${median(times).toFixed(1).padStart(6)} ${(bytes / 1024).toFixed(1).padStart(9)}`);
}

const dashboard = Array.from({ length: 25 }, (_, i) => CASES[i % CASES.length]);

async function measure(label: string, render: () => Promise<unknown>): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const t = performance.now();
  await render();
  const wall = performance.now() - t;
  delay.disable();
  console.log(`${label.padEnd(44)} wall ${wall.toFixed(0).padStart(6)} ms   event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1).padStart(7)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`);
}

console.log(`\n25-card dashboard subscription (email HTML + inline PNGs), pool of ${poolSize()} worker thread(s):`);
await measure('worker pool, cold (threads start)', () => Promise.all(dashboard.map(([, card, result]) => renderCardHtml(card, result, { ...OPTIONS, imageMode: 'cid' }))));
for (let i = 1; i <= 3; i++) {
  await measure(`worker pool, warm #${i}`, () => Promise.all(dashboard.map(([, card, result]) => renderCardHtml(card, result, { ...OPTIONS, imageMode: 'cid' }))));
}
await measure('main thread, no pool (for comparison)', async () => {
  for (const [, card, result] of dashboard) {
    renderHtmlNow(card, result, { ...OPTIONS, imageMode: 'cid' });
    await new Promise((resolve) => setImmediate(resolve));
  }
});
await closeRenderer();
