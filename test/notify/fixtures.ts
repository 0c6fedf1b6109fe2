// Shared by the subscription, alert and delivery tests: cards on the Sample Database, a dashboard showing them, the
// channel maps clients send, and a real HTTP receiver for webhooks.

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '../helpers/client.js';
import type { Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';
import { waitFor } from '../databases/helpers.js';

export async function sampleCard(admin: Client, sample: Sample, fields: { name?: string; display?: string; query?: Record<string, unknown>; native?: string; viz?: Record<string, unknown>; collection_id?: number | null } = {}) {
  const dataset_query = fields.native
    ? { database: sample.id, type: 'native', native: { query: fields.native, 'template-tags': {} } }
    : { database: sample.id, type: 'query', query: fields.query ?? { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']] } };
  const response = await admin.post('/api/card', {
    name: fields.name ?? uniqueName('Card'),
    display: fields.display ?? 'table',
    visualization_settings: fields.viz ?? {},
    dataset_query,
    collection_id: fields.collection_id ?? null,
  });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Products by category (four rows), a bar chart. */
export function byCategory(sample: Sample) {
  return { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']], breakout: [['field', sample.field('PRODUCTS', 'CATEGORY'), null]] };
}

/** A dashboard with one dashcard per card (stacked), and a Category filter wired to every card that has the field. */
export async function dashboardWith(admin: Client, sample: Sample, cards: any[], options: { collection_id?: number | null; filterDefault?: unknown; text?: string } = {}) {
  const created = await admin.post('/api/dashboard', { name: uniqueName('Sales'), description: 'Weekly **sales** numbers', collection_id: options.collection_id ?? null });
  assert.equal(created.status, 200, created.text);
  const dashboard = created.body;
  const parameter = { id: 'cat', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string', ...(options.filterDefault !== undefined ? { default: options.filterDefault } : {}) };
  const field = sample.field('PRODUCTS', 'CATEGORY');
  const dashcards: any[] = cards.map((card, i) => ({
    id: -(i + 1),
    card_id: card.id,
    row: i * 4,
    col: 0,
    size_x: 12,
    size_y: 4,
    visualization_settings: {},
    series: [],
    parameter_mappings: card.dataset_query?.type === 'native' ? [] : [{ parameter_id: 'cat', card_id: card.id, target: ['dimension', ['field', field, null]] }],
  }));
  if (options.text) dashcards.unshift({ id: -100, card_id: null, row: 0, col: 0, size_x: 12, size_y: 2, series: [], parameter_mappings: [], visualization_settings: { virtual_card: { display: 'text', name: null, dataset_query: {}, visualization_settings: {} }, text: options.text } });
  const put = await admin.put(`/api/dashboard/${dashboard.id}`, { dashcards, parameters: [parameter] });
  assert.equal(put.status, 200, put.text);
  return put.body;
}

export function emailChannel(recipients: Array<{ id: number } | { email: string }>, schedule: Record<string, unknown> = { schedule_type: 'daily', schedule_hour: 8 }) {
  return { channel_type: 'email', enabled: true, schedule_day: null, schedule_frame: null, details: {}, recipients, ...schedule };
}

/** The body of POST /api/alert for a `rows` alert on `cardId` by email to `recipients` and to the webhook channel `hookId`, hourly. */
export function emailAndWebhookAlert(cardId: number, recipients: Array<{ id: number } | { email: string }>, hookId: number) {
  return {
    alert_condition: 'rows',
    alert_first_only: false,
    card: { id: cardId, include_csv: false, include_xls: false },
    channels: [emailChannel(recipients, { schedule_type: 'hourly' }), { channel_type: 'http', channel_id: hookId, enabled: true, schedule_type: 'hourly', recipients: [] }],
  };
}

/** The body of POST /api/pulse for a subscription to `dashboard` (its card dashcards). */
export function subscriptionBody(dashboard: any, channels: unknown[], extra: Record<string, unknown> = {}) {
  const cards = dashboard.dashcards
    .filter((dc: any) => dc.card_id !== null)
    .map((dc: any) => ({ id: dc.card_id, include_csv: false, include_xls: false, dashboard_card_id: dc.id }));
  return { name: dashboard.name, dashboard_id: dashboard.id, skip_if_empty: false, collection_id: null, parameters: [], cards, channels, ...extra };
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answer the next requests with this status and body (then 200 again). */
  answerNext(status: number, body?: unknown, count?: number): void;
  /** Answer the next request with a redirect to `location`. */
  redirectNext(location: string, status?: number): void;
  /** Hold every request without answering until `release()` (a slow receiver). */
  hold(): void;
  release(): void;
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records what it receives. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let planned: Array<{ status: number; body: unknown; headers?: Record<string, string> }> = [];
  let holding = false;
  const held: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = body ? JSON.parse(body) : null;
      } catch {
        json = null;
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json });
      const answer = () => {
        const next = planned.shift() ?? { status: 200, body: { ok: true } };
        res.writeHead(next.status, { 'Content-Type': 'application/json', ...next.headers });
        res.end(typeof next.body === 'string' ? next.body : JSON.stringify(next.body));
      };
      if (holding) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerNext(status, body = { message: 'too bad' }, count = 1) {
      planned = [...planned, ...Array.from({ length: count }, () => ({ status, body }))];
    },
    redirectNext(location, status = 307) {
      planned = [...planned, { status, body: '', headers: { Location: location } }];
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    waitFor: (n, timeoutMs = 20_000) => waitFor(`${n} requests`, async () => requests.length >= n && requests, timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
