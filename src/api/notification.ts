// /api/notification — Metabase 0.54+'s alerts (reference §14.3), served from the same rows as /api/alert.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import {
  PAYLOAD_TYPES,
  createNotification,
  getNotification,
  listNotifications,
  sendNotificationNow,
  sendUnsavedNotification,
  unsubscribeFromNotification,
  updateNotification,
} from '../notify/notifications.js';

const body = {
  payload_type: s.enum(PAYLOAD_TYPES),
  payload: s.map(),
  handlers: s.array(s.map()),
  subscriptions: s.maybe(s.array(s.map())),
  active: s.maybe(s.bool()),
};

export function notificationRoutes(r: Routes): void {
  r.get(
    '/api/notification',
    {
      query: {
        creator_id: s.maybe(s.posInt()),
        recipient_id: s.maybe(s.posInt()),
        creator_or_recipient_id: s.maybe(s.posInt()),
        card_id: s.maybe(s.posInt()),
        table_id: s.maybe(s.posInt()),
        include_inactive: s.maybe(s.boolstr()),
        payload_type: s.maybe(s.enum(PAYLOAD_TYPES)),
      },
    },
    ({ ctx, caller, query }) =>
      listNotifications(ctx, caller, {
        creator_id: query.creator_id,
        recipient_id: query.recipient_id,
        creator_or_recipient_id: query.creator_or_recipient_id,
        card_id: query.card_id,
        include_inactive: query.include_inactive ?? false,
        // system-event notifications on tables aren't served: a table filter matches none
        payload_type: query.table_id !== null ? 'notification/system-event' : query.payload_type,
      }),
  );
  r.get('/api/notification/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getNotification(ctx, caller, params.id));
  r.post('/api/notification', { body }, ({ ctx, caller, body: b }) => createNotification(ctx, caller, b));
  r.put('/api/notification/:id', { params: { id: s.posInt() }, body }, ({ ctx, caller, params, body: b }) => updateNotification(ctx, caller, params.id, b));
  r.post('/api/notification/:id/send', { params: { id: s.posInt() }, body: { handler_ids: s.maybe(s.array(s.posInt())) } }, async ({ ctx, caller, params, body: b }) => {
    await sendNotificationNow(ctx, caller, params.id, b.handler_ids);
    return Respond.noContent();
  });
  r.post('/api/notification/send', { body }, async ({ ctx, caller, body: b }) => {
    await sendUnsavedNotification(ctx, caller, b);
    return Respond.noContent();
  });
  r.post('/api/notification/:id/unsubscribe', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await unsubscribeFromNotification(ctx, caller, params.id);
    return Respond.noContent();
  });
}
