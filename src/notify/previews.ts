// The preview endpoints of /api/pulse (reference A1): a card or a whole dashboard drawn exactly as in an email —
// same sections, same rendering — with images inlined as data: URIs, and the PNG of a card (400 px wide). The query
// runs as the caller (context `pulse`), who must be able to read the card or dashboard.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableCard } from '../cards/cards.js';
import { readableDashboard } from '../dashboards/dashboards.js';
import { describeVisualization } from '../visualization/index.js';
import { escapeHtml } from '../util/html.js';
import { renderCardPng, renderSettings } from './render/index.js';
import { siteUrl } from './links.js';
import { gatherContent, type CardPart, type SendContent } from './send/parts.js';
import { cardUrl, renderBody, subscriptionHtml } from './send/email-message.js';
import { commonName } from '../users/user-json.js';
import type { LoadedPulse } from './store.js';
import { unsavedPulse } from './unsaved.js';

/** A card pulse made up for one card (not stored), run as the caller. */
function cardOnlyPulse(caller: Caller, cardId: number | null, dashboardId: number | null = null): LoadedPulse {
  const cards = cardId === null ? [] : [{ card_id: cardId, include_csv: false, include_xls: false, format_rows: true, pivot_results: false, dashboard_card_id: null }];
  return unsavedPulse({ name: null, creator_id: caller.user.id, skip_if_empty: false, alert_condition: null, alert_first_only: null, alert_above_goal: null, collection_id: null, collection_position: null, dashboard_id: dashboardId, parameters: [] }, cards, []);
}

async function previewContent(ctx: AppContext, caller: Caller, cardId: number): Promise<{ content: SendContent; part: CardPart }> {
  await readableCard(ctx, await collectionAccess(ctx, caller), cardId);
  const content = await gatherContent(ctx, cardOnlyPulse(caller, cardId), caller);
  return { content, part: content.parts[0] as CardPart };
}

/** GET /api/pulse/preview_card/:id — an HTML document of the card as an email shows it. */
export async function previewCardHtml(ctx: AppContext, caller: Caller, cardId: number): Promise<string> {
  const { content } = await previewContent(ctx, caller, cardId);
  const body = await renderBody(ctx, content, await siteUrl(ctx), 'data-uri');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin: 0;">${body.html}</body></html>`;
}

const PULSE_CARD_TYPES: Record<string, string> = { chart: 'javascript_visualization', smartscalar: 'javascript_visualization', table: 'table', scalar: 'scalar', empty: 'empty' };

/** GET /api/pulse/preview_card_info/:id. */
export async function previewCardInfo(ctx: AppContext, caller: Caller, cardId: number) {
  const { content, part } = await previewContent(ctx, caller, cardId);
  const site = await siteUrl(ctx);
  const body = await renderBody(ctx, content, site, 'data-uri');
  const data = part.result?.status === 'completed' ? part.result.data : null;
  const options = await renderSettings(ctx);
  const kind = data ? describeVisualization({ display: part.renderable.display, settings: part.renderable.visualization_settings, cols: data.cols, rows: data.rows }, { ...options, width: 600 }).kind : null;
  return {
    id: cardId,
    pulse_card_type: kind ? PULSE_CARD_TYPES[kind] ?? kind : null,
    pulse_card_html: body.html,
    pulse_card_name: part.title,
    pulse_card_url: cardUrl(site, part, null),
    row_count: data ? data.rows.length : 0,
    col_count: data ? data.cols.length : 0,
  };
}

/** GET /api/pulse/preview_card_png/:id — the card at 400 px. */
export async function previewCardPng(ctx: AppContext, caller: Caller, cardId: number): Promise<Buffer> {
  const { part } = await previewContent(ctx, caller, cardId);
  const data = part.result?.status === 'completed' ? part.result.data : { cols: [], rows: [] };
  return renderCardPng(part.renderable, data, { ...(await renderSettings(ctx)), width: 400 });
}

/** GET /api/pulse/preview_dashboard/:id — the whole dashboard as its subscription email shows it. */
export async function previewDashboardHtml(ctx: AppContext, caller: Caller, dashboardId: number): Promise<string> {
  const dashboard = await readableDashboard(ctx, await collectionAccess(ctx, caller), dashboardId);
  const content = await gatherContent(ctx, cardOnlyPulse(caller, null, dashboard.id), caller);
  const site = await siteUrl(ctx);
  const body = await renderBody(ctx, content, site, 'data-uri');
  const email = subscriptionHtml({ title: dashboard.name, description: dashboard.description, sender: commonName(caller.user), site }, content, body, { kind: 'preview' });
  const inner = email.replace(/^[\s\S]*?<body[^>]*>/, '').replace(/<\/body>[\s\S]*$/, '');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><link href="https://fonts.googleapis.com/css?family=Lato:400,700" rel="stylesheet"></head><body><h2>Backend Artifacts Preview for Dashboard ${escapeHtml(String(dashboard.id))}</h2>${inner}</body></html>`;
}
