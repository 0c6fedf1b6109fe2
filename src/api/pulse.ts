// /api/pulse — dashboard subscriptions (reference §14.1, A1): CRUD, unsubscribing, previews, form input, test sends.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { createPulse, getPulse, listPulses, unsubscribeFromPulse, updatePulse } from '../notify/pulses.js';
import { formInput } from '../notify/form-input.js';
import { previewCardHtml, previewCardInfo, previewCardPng, previewDashboardHtml } from '../notify/previews.js';
import { sendTestPulse } from '../notify/test-send.js';
import { unsubscribeEmail } from '../notify/unsubscribe.js';
import { CARDS_MESSAGE, CHANNELS_MESSAGE, isCardItem, isMapList } from '../notify/body-schemas.js';
import { collectionPosition } from './card.js';

const cards = s.check<Array<Record<string, unknown>>>(CARDS_MESSAGE, (v) => Array.isArray(v) && v.length > 0 && v.every(isCardItem));
const channels = s.check<Array<Record<string, unknown>>>(CHANNELS_MESSAGE, isMapList);
const parameters = s.maybe(s.array(s.map()));

const html = (body: string) => new Respond(200, body, { 'Content-Type': 'text/html; charset=utf-8' });

export function pulseRoutes(r: Routes): void {
  r.get(
    '/api/pulse',
    { query: { archived: s.maybe(s.boolstr()), dashboard_id: s.maybe(s.posInt()), creator_or_recipient: s.maybe(s.boolstr()) } },
    ({ ctx, caller, query }) => listPulses(ctx, caller, { archived: query.archived ?? false, dashboardId: query.dashboard_id, creatorOrRecipient: query.creator_or_recipient ?? false }),
  );
  r.get('/api/pulse/form_input', {}, ({ ctx }) => formInput(ctx));
  r.get('/api/pulse/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getPulse(ctx, caller, params.id));
  r.post(
    '/api/pulse',
    {
      body: {
        name: s.name(),
        cards,
        channels,
        skip_if_empty: s.maybe(s.bool()),
        collection_id: s.maybe(s.posInt()),
        collection_position: s.maybe(collectionPosition),
        dashboard_id: s.maybe(s.posInt()),
        parameters,
      },
    },
    ({ ctx, caller, body }) => createPulse(ctx, caller, body),
  );
  r.put(
    '/api/pulse/:id',
    {
      params: { id: s.posInt() },
      body: {
        name: s.maybe(s.name()),
        cards: s.maybe(cards),
        channels: s.maybe(channels),
        skip_if_empty: s.maybe(s.bool()),
        collection_id: s.maybe(s.posInt()),
        collection_position: s.maybe(collectionPosition),
        archived: s.maybe(s.bool()),
        dashboard_id: s.maybe(s.posInt()),
        parameters,
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updatePulse(ctx, caller, params.id, body, bodyKeys),
  );
  r.delete('/api/pulse/:id/subscription', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await unsubscribeFromPulse(ctx, caller, params.id);
    return Respond.noContent();
  });
  r.post(
    '/api/pulse/test',
    {
      body: { name: s.name(), cards, channels, skip_if_empty: s.maybe(s.bool()), collection_id: s.maybe(s.posInt()), dashboard_id: s.maybe(s.posInt()), parameters },
    },
    ({ ctx, caller, body }) => sendTestPulse(ctx, caller, body),
  );

  r.get('/api/pulse/preview_card/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => html(await previewCardHtml(ctx, caller, params.id)));
  r.get('/api/pulse/preview_card_info/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => previewCardInfo(ctx, caller, params.id));
  r.get('/api/pulse/preview_card_png/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => new Respond(200, await previewCardPng(ctx, caller, params.id), { 'Content-Type': 'image/png' }, [], true));
  r.get('/api/pulse/preview_dashboard/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => html(await previewDashboardHtml(ctx, caller, params.id)));

  // the links in emails sent to addresses without an account
  const unsubscribeBody = { email: s.email(), hash: s.nbstr(), 'pulse-id': s.posInt() };
  r.post('/api/pulse/unsubscribe', { auth: 'none', body: unsubscribeBody }, ({ ctx, body, request }) => unsubscribeEmail(ctx, request.ip, { email: body.email, hash: body.hash, pulseId: body['pulse-id'] }, false));
  r.post('/api/pulse/unsubscribe/undo', { auth: 'none', body: unsubscribeBody }, ({ ctx, body, request }) => unsubscribeEmail(ctx, request.ip, { email: body.email, hash: body.hash, pulseId: body['pulse-id'] }, true));
}
