// Subscription benchmark: a 25-card dashboard (charts of every kind, numbers, tables) on the Sample Database sent by
// email to an SMTP server on loopback — POST /api/pulse/test runs the 25 queries as the sender, renders every card
// in the render workers and sends the message — timed from request to the last byte accepted by the SMTP server;
// the PNG of each card alone (GET /api/pulse/preview_card_png: its query and its 400 px picture); and the API's
// latency (GET /api/user/current, 8 at a time) while the subscription renders, beside the same load without it.
// Figures are printed, never asserted.
//
//   npm run bench notify          (builds first)      or: npm run build && npx tsx bench/notify.ts

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmtpSink } from '../test/helpers/smtp-sink.js';
import { freePort } from '../test/helpers/free-port.js';

const ROOT = new URL('..', import.meta.url).pathname;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Pass-123', first_name: 'Bench', last_name: 'Admin' };
const ROUNDS = 3;
const LOAD_CONCURRENCY = 8;
const BASELINE_MS = 5_000;

type Obj = Record<string, any>;

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-notify-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sink = await startSmtpSink();
  const server = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    env: { ...process.env, MB_DB_FILE: join(dir, 'quarry.db'), MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port), MB_LOAD_SAMPLE_CONTENT: 'false', QUARRY_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const props = (await (await fetch(`${base}/api/session/properties`)).json()) as Obj;
    const session = ((await (await fetch(`${base}/api/setup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: props['setup-token'], user: ADMIN, prefs: { site_name: 'Bench' } }) })).json()) as Obj).id as string;
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(base + path, { method, headers: { 'Content-Type': 'application/json', 'X-Metabase-Session': session }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await r.text();
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
      return text ? (JSON.parse(text) as Obj) : null;
    };
    const db = (await api('POST', '/api/database/sample_database'))!.id as number;
    const md = (await api('GET', `/api/database/${db}/metadata`))!;
    const table = (name: string) => md.tables.find((t: Obj) => t.name === name);
    const field = (t: string, name: string) => ['field', table(t).fields.find((f: Obj) => f.name === name).id, null];
    const month = (t: string) => ['field', table(t).fields.find((f: Obj) => f.name === 'CREATED_AT').id, { 'temporal-unit': 'month' }];
    const viaProduct = ['field', table('PRODUCTS').fields.find((f: Obj) => f.name === 'CATEGORY').id, { 'source-field': table('ORDERS').fields.find((f: Obj) => f.name === 'PRODUCT_ID').id }];
    const q = (t: string, inner: Obj) => ({ database: db, type: 'query', query: { 'source-table': table(t).id, ...inner } });
    const count = [['count']];
    const revenue = [['sum', field('ORDERS', 'TOTAL')]];
    const specs: Array<[string, string, Obj, Obj?]> = [
      ['Orders', 'scalar', q('ORDERS', { aggregation: count })],
      ['Revenue', 'scalar', q('ORDERS', { aggregation: revenue })],
      ['Revenue trend', 'smartscalar', q('ORDERS', { aggregation: revenue, breakout: [month('ORDERS')] })],
      ['Goal', 'progress', q('ORDERS', { aggregation: count }), { 'progress.goal': 25000 }],
      ['Gauge', 'gauge', q('ORDERS', { aggregation: [['avg', field('ORDERS', 'DISCOUNT')]] })],
      ['Orders by month', 'line', q('ORDERS', { aggregation: count, breakout: [month('ORDERS')] }), { 'graph.goal_value': 500, 'graph.show_goal': true }],
      ['Revenue by month', 'area', q('ORDERS', { aggregation: revenue, breakout: [month('ORDERS')] })],
      ['Orders by category', 'bar', q('ORDERS', { aggregation: count, breakout: [viaProduct] })],
      ['Revenue by category and month', 'bar', q('ORDERS', { aggregation: revenue, breakout: [month('ORDERS'), viaProduct] }), { 'stackable.stack_type': 'stacked' }],
      ['Share by category', 'area', q('ORDERS', { aggregation: count, breakout: [month('ORDERS'), viaProduct] }), { 'stackable.stack_type': 'normalized' }],
      ['Count and revenue', 'combo', q('ORDERS', { aggregation: [...count, ...revenue], breakout: [month('ORDERS')] })],
      ['Revenue by category', 'row', q('ORDERS', { aggregation: revenue, breakout: [viaProduct] })],
      ['Category share', 'pie', q('ORDERS', { aggregation: count, breakout: [viaProduct] })],
      ['Funnel', 'funnel', q('PEOPLE', { aggregation: count, breakout: [field('PEOPLE', 'SOURCE')] })],
      ['People by source', 'pie', q('PEOPLE', { aggregation: count, breakout: [field('PEOPLE', 'SOURCE')] })],
      ['Signups by week', 'line', q('PEOPLE', { aggregation: count, breakout: [['field', table('PEOPLE').fields.find((f: Obj) => f.name === 'CREATED_AT').id, { 'temporal-unit': 'week' }]] })],
      ['Price by category', 'bar', q('PRODUCTS', { aggregation: [['avg', field('PRODUCTS', 'PRICE')]], breakout: [field('PRODUCTS', 'CATEGORY')] })],
      ['Reviews by month', 'line', q('REVIEWS', { aggregation: count, breakout: [month('REVIEWS')] })],
      ['Ratings', 'bar', q('REVIEWS', { aggregation: count, breakout: [field('REVIEWS', 'RATING')] })],
      ['Orders by quantity', 'bar', q('ORDERS', { aggregation: count, breakout: [field('ORDERS', 'QUANTITY')] })],
      ['People by state', 'row', q('PEOPLE', { aggregation: count, breakout: [field('PEOPLE', 'STATE')] })],
      ['Latest orders', 'table', q('ORDERS', { 'order-by': [['desc', field('ORDERS', 'CREATED_AT')]] })],
      ['Products', 'table', q('PRODUCTS', {})],
      ['People', 'table', q('PEOPLE', {})],
      ['Top categories', 'table', q('ORDERS', { aggregation: revenue, breakout: [viaProduct] })],
    ];
    const cards: Obj[] = [];
    for (const [name, display, dataset_query, viz] of specs) cards.push((await api('POST', '/api/card', { name, display, dataset_query, visualization_settings: viz ?? {} }))!);
    const dashboard = (await api('POST', '/api/dashboard', { name: 'Bench dashboard' }))!;
    const layout = (await api('PUT', `/api/dashboard/${dashboard.id}`, {
      dashcards: cards.map((c, i) => ({ id: -(i + 1), card_id: c.id, row: Math.floor(i / 2) * 4, col: (i % 2) * 12, size_x: 12, size_y: 4, parameter_mappings: [], visualization_settings: {}, series: [] })),
    }))!;
    await api('PUT', '/api/email', sink.settings());

    let loading = true;
    const latencies: Array<{ at: number; ms: number }> = [];
    const worker = async () => {
      while (loading) {
        const t0 = performance.now();
        const r = await fetch(`${base}/api/user/current`, { headers: { 'X-Metabase-Session': session } });
        await r.arrayBuffer();
        latencies.push({ at: t0, ms: performance.now() - t0 });
      }
    };
    const load = Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
    const baselineStart = performance.now();
    await new Promise((r) => setTimeout(r, BASELINE_MS));
    const baselineEnd = performance.now();

    const body = {
      name: 'Bench dashboard',
      dashboard_id: dashboard.id,
      cards: layout.dashcards.map((dc: Obj) => ({ id: dc.card_id, include_csv: false, include_xls: false, dashboard_card_id: dc.id })),
      channels: [{ channel_type: 'email', enabled: true, schedule_type: 'daily', schedule_hour: 8, recipients: [{ email: 'team@example.com' }] }],
    };
    const sends: Array<{ start: number; end: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      await api('POST', '/api/pulse/test', body);
      sends.push({ start, end: performance.now() });
    }
    loading = false;
    await load;
    const during = latencies.filter((l) => sends.some((s) => l.at >= s.start && l.at <= s.end)).map((l) => l.ms);
    const baseline = latencies.filter((l) => l.at >= baselineStart && l.at <= baselineEnd).map((l) => l.ms);

    const pngTimes: number[] = [];
    for (const card of cards) {
      const t0 = performance.now();
      const r = await fetch(`${base}/api/pulse/preview_card_png/${card.id}`, { headers: { 'X-Metabase-Session': session } });
      await r.arrayBuffer();
      pngTimes.push(performance.now() - t0);
    }

    const mail = sink.messages[sink.messages.length - 1];
    const images = mail.attachments.filter((a) => a.contentType === 'image/png');
    const durations = sends.map((s) => s.end - s.start);
    console.log(`25-card dashboard subscription, rendered and sent by email to a loopback SMTP server (${ROUNDS} rounds):`);
    console.log(`  send time           median ${ms(percentile(durations, 50))}, each ${durations.map(ms).join(', ')}`);
    console.log(`  message             ${(mail.raw.length / 1024).toFixed(0)} KB, ${images.length} inline PNGs (${(images.reduce((n, a) => n + a.content.length, 0) / 1024).toFixed(0)} KB), tables as HTML`);
    console.log(`  per card            ${ms(percentile(durations, 50) / cards.length)} of the send's wall time`);
    console.log(`PNG per card alone (GET /api/pulse/preview_card_png, its query + a 400 px picture, one at a time):`);
    console.log(`  median ${ms(percentile(pngTimes, 50))}, p95 ${ms(percentile(pngTimes, 95))}, max ${ms(Math.max(...pngTimes))}`);
    console.log(`API latency, GET /api/user/current with ${LOAD_CONCURRENCY} requests at a time:`);
    console.log(`  without a send      p50 ${ms(percentile(baseline, 50))}, p95 ${ms(percentile(baseline, 95))}, p99 ${ms(percentile(baseline, 99))} (${baseline.length} requests)`);
    console.log(`  while it renders    p50 ${ms(percentile(during, 50))}, p95 ${ms(percentile(during, 95))}, p99 ${ms(percentile(during, 99))} (${during.length} requests)`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
