// The HTML of subscription and alert emails (reference A5), and of the preview pages, which show the same thing:
// a white card on a light background (555 px wide), the dashboard's linked name, description, sender and filter
// values, then each part in layout order — tab names, text cards, cards (linked title, description, the rendered
// body: a chart as an inline PNG, a table as HTML) — and a footer with the site and a link to manage or leave the
// subscription. Subjects as Metabase writes them.

import type { AppContext } from '../../context.js';
import { escapeHtml } from '../../util/html.js';
import { renderCardHtml, renderSettings } from '../render/index.js';
import { markdownHtml } from './markdown.js';
import { isEmptyResult, type CardPart, type SendContent } from './parts.js';

const FONT = "font-family: Lato, 'Helvetica Neue', Helvetica, Arial, sans-serif;";
const TEXT_DARK = '#4c5773';
const TEXT_LIGHT = '#949aab';
const BRAND = '#509ee3';

export const QUERY_ERROR_TEXT = 'There was a problem with this question.';
export const ATTACHED_TEXT = 'Results have been included as a file attachment';

export interface RenderedBody {
  /** The parts, as HTML. */
  html: string;
  /** Inline PNGs the HTML references as cid:… (empty in data-uri mode). */
  images: Array<{ cid: string; png: Buffer }>;
}

export function cardUrl(site: string, part: CardPart, dashboardId: number | null): string {
  return dashboardId !== null && part.dashcardId !== null ? `${site}/dashboard/${dashboardId}#scrollTo=${part.dashcardId}` : `${site}/question/${part.card.id}`;
}

/** The dashboard's link, with the subscription's filter values as query parameters. */
export function dashboardUrl(site: string, content: SendContent): string {
  if (!content.dashboard) return site;
  const params = new URLSearchParams();
  for (const f of content.filters) {
    if (f.value === null || f.value === undefined) continue;
    for (const v of Array.isArray(f.value) ? f.value : [f.value]) params.append(f.slug, String(v));
  }
  const query = params.toString();
  return `${site}/dashboard/${content.dashboard.id}${query ? `?${query}` : ''}`;
}

function placeholder(text: string): string {
  return `<div style="${FONT} font-size: 14px; color: ${TEXT_LIGHT}; padding: 16px 0;">${escapeHtml(text)}</div>`;
}

async function cardSection(ctx: AppContext, part: CardPart, url: string, mode: 'cid' | 'data-uri', options: Awaited<ReturnType<typeof renderSettings>>): Promise<RenderedBody> {
  const title = `<a href="${escapeHtml(url)}" style="${FONT} font-size: 16px; font-weight: 700; color: ${TEXT_DARK}; text-decoration: none;">${escapeHtml(part.title)}</a>`;
  const description = part.description ? markdownHtml(part.description) : '';
  const attached = (part.includeCsv || part.includeXls) && !isEmptyResult(part.result) && mode === 'cid' ? placeholder(ATTACHED_TEXT) : '';
  let body: RenderedBody;
  if (!part.result || part.result.status !== 'completed') body = { html: placeholder(QUERY_ERROR_TEXT), images: [] };
  else body = await renderCardHtml(part.renderable, part.result.data, { ...options, imageMode: mode });
  return { html: `<div style="padding: 16px 0;">${title}${description}${attached}${body.html}</div>`, images: body.images };
}

/** Every part of the send as HTML (cards rendered in the render workers, a few at a time). */
export async function renderBody(ctx: AppContext, content: SendContent, site: string, mode: 'cid' | 'data-uri'): Promise<RenderedBody> {
  const options = await renderSettings(ctx);
  const dashboardId = content.dashboard?.id ?? null;
  const rendered = await Promise.all(
    content.parts.map(async (part): Promise<RenderedBody> => {
      if (part.kind === 'tab') return { html: `<h1 style="${FONT} font-size: 22px; font-weight: 700; color: ${TEXT_DARK}; margin: 24px 0 8px;">${escapeHtml(part.name)}</h1><hr style="border: none; border-top: 1px solid #eeecec;">`, images: [] };
      if (part.kind === 'text') return { html: part.heading ? `<h2 style="${FONT} font-size: 18px; font-weight: 700; color: ${TEXT_DARK};">${escapeHtml(part.text)}</h2>` : markdownHtml(part.text), images: [] };
      return cardSection(ctx, part, cardUrl(site, part, dashboardId), mode, options);
    }),
  );
  return { html: rendered.map((r) => r.html).join(''), images: rendered.flatMap((r) => r.images) };
}

function formatFilterValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  return value === null || value === undefined ? 'All' : String(value);
}

function filtersTable(content: SendContent): string {
  const set = content.filters.filter((f) => f.value !== null && f.value !== undefined);
  if (!set.length) return '';
  const cells = set.map(
    (f) => `<td style="padding: 4px 16px 4px 0; vertical-align: top;"><div style="${FONT} font-size: 12px; color: ${TEXT_LIGHT};">${escapeHtml(f.name)}</div><div style="${FONT} font-size: 14px; font-weight: 700; color: ${TEXT_DARK};">${escapeHtml(formatFilterValue(f.value))}</div></td>`,
  );
  const rows: string[] = [];
  for (let i = 0; i < cells.length; i += 2) rows.push(`<tr>${cells.slice(i, i + 2).join('')}</tr>`);
  return `<table style="margin-top: 8px;" cellpadding="0" cellspacing="0">${rows.join('')}</table>`;
}

/** How the footer lets the reader leave: users manage their subscriptions, raw addresses get a signed link. */
export type Footer = { kind: 'user' } | { kind: 'address'; unsubscribeUrl: string } | { kind: 'preview' };

function footerHtml(site: string, footer: Footer): string {
  const link = (href: string, text: string) => `<a href="${escapeHtml(href)}" style="color: ${BRAND}; text-decoration: none;">${escapeHtml(text)}</a>`;
  const leave = footer.kind === 'user' ? link(`${site}/account/notifications`, 'Manage your subscriptions') : footer.kind === 'address' ? link(footer.unsubscribeUrl, 'Unsubscribe') : '';
  return `<div style="${FONT} font-size: 12px; color: ${TEXT_LIGHT}; padding-top: 16px;">Sent from ${escapeHtml(site || 'Metabase')}. ${leave}</div>`;
}

function page(inner: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin: 0; padding: 24px 0; background-color: #f9fbfc;"><div style="max-width: 555px; margin: 0 auto; background-color: #ffffff; border-radius: 24px; padding: 24px 32px;">${inner}</div></body></html>`;
}

export interface SubscriptionView {
  title: string;
  description: string | null;
  sender: string;
  site: string;
}

/** A dashboard subscription (or card pulse): header, filters, the parts, the footer. */
export function subscriptionHtml(view: SubscriptionView, content: SendContent, body: RenderedBody, footer: Footer): string {
  const titleUrl = content.dashboard ? dashboardUrl(view.site, content) : view.site;
  const header =
    `<a href="${escapeHtml(titleUrl)}" style="${FONT} font-size: 24px; font-weight: 700; color: ${TEXT_DARK}; text-decoration: none;">${escapeHtml(view.title)}</a>` +
    (view.description ? markdownHtml(view.description) : '') +
    `<div style="${FONT} font-size: 13px; color: ${TEXT_LIGHT}; padding-top: 8px;">Sent by ${escapeHtml(view.sender)}</div>` +
    filtersTable(content);
  const hasTabs = content.parts.some((p) => p.kind === 'tab');
  return page(`${header}${hasTabs ? '' : '<hr style="border: none; border-top: 1px solid #eeecec; margin: 16px 0;">'}${body.html}<hr style="border: none; border-top: 1px solid #eeecec; margin: 16px 0;">${footerHtml(view.site, footer)}`);
}

export interface AlertView {
  cardName: string;
  cardUrl: string;
  sender: string;
  site: string;
  /** e.g. "reached its goal of 100" */
  goalSentence: string | null;
  firstOnly: boolean;
}

/** An alert: the card's name, who set it up, the card, the goal sentence, the footer. */
export function alertHtml(view: AlertView, body: RenderedBody, footer: Footer): string {
  const header =
    `<a href="${escapeHtml(view.cardUrl)}" style="${FONT} font-size: 24px; font-weight: 700; color: ${TEXT_DARK}; text-decoration: none;">${escapeHtml(view.cardName)}</a>` +
    `<div style="${FONT} font-size: 13px; color: ${TEXT_LIGHT}; padding-top: 8px;">Sent by ${escapeHtml(view.sender)}</div>`;
  const goal = view.goalSentence ? `<p style="${FONT} font-size: 14px; color: ${TEXT_DARK};">${escapeHtml(view.goalSentence)}</p>` : '';
  const last = view.firstOnly ? `<p style="${FONT} font-size: 14px; color: ${TEXT_DARK};">We’ll stop sending you alerts about this question now.</p>` : '';
  return page(`${header}<hr style="border: none; border-top: 1px solid #eeecec; margin: 16px 0;">${body.html}${goal}${last}<hr style="border: none; border-top: 1px solid #eeecec; margin: 16px 0;">${footerHtml(view.site, footer)}`);
}

/** Subjects: a dashboard subscription is named after its dashboard, a card pulse `Pulse: <name>`, alerts by outcome. */
export function subscriptionSubject(pulseName: string | null, content: SendContent): string {
  if (content.dashboard) return content.dashboard.name;
  return `Pulse: ${pulseName ?? ''}`;
}

export function alertSubject(cardName: string, condition: string, aboveGoal: boolean): string {
  if (condition === 'goal') return `Alert: ${cardName} has ${aboveGoal ? 'reached its goal' : 'gone below its goal'}`;
  return `Alert: ${cardName} has results`;
}
