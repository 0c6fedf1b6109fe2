// /api/alert — alerts on questions (reference §14.2, A2).

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { alertsForCard, createAlert, getAlert, listAlerts, unsubscribeFromAlert, updateAlert } from '../notify/alerts.js';
import { ALERT_CARD_MESSAGE, CHANNELS_MESSAGE, isAlertCard, isMapList } from '../notify/body-schemas.js';

const card = s.check<Record<string, unknown>>(ALERT_CARD_MESSAGE, isAlertCard);
const channels = s.check<Array<Record<string, unknown>>>(CHANNELS_MESSAGE, isMapList);
const CONDITIONS = ['rows', 'goal'] as const;

export function alertRoutes(r: Routes): void {
  r.get('/api/alert', { query: { archived: s.maybe(s.boolstr()), user_id: s.maybe(s.posInt()) } }, ({ ctx, caller, query }) =>
    listAlerts(ctx, caller, { archived: query.archived ?? false, userId: query.user_id }),
  );
  r.get('/api/alert/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getAlert(ctx, caller, params.id));
  r.get('/api/alert/question/:id', { params: { id: s.posInt() }, query: { archived: s.maybe(s.boolstr()) } }, ({ ctx, caller, params, query }) =>
    alertsForCard(ctx, caller, params.id, query.archived ?? false),
  );
  r.post(
    '/api/alert',
    { body: { alert_condition: s.enum(CONDITIONS), alert_first_only: s.bool(), alert_above_goal: s.maybe(s.bool()), card, channels } },
    ({ ctx, caller, body }) => createAlert(ctx, caller, body),
  );
  r.put(
    '/api/alert/:id',
    {
      params: { id: s.posInt() },
      body: {
        alert_condition: s.maybe(s.enum(CONDITIONS)),
        alert_first_only: s.maybe(s.bool()),
        alert_above_goal: s.maybe(s.bool()),
        card: s.maybe(card),
        channels: s.maybe(channels),
        archived: s.maybe(s.bool()),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateAlert(ctx, caller, params.id, body, bodyKeys),
  );
  r.delete('/api/alert/:id/subscription', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await unsubscribeFromAlert(ctx, caller, params.id);
    return Respond.noContent();
  });
}
