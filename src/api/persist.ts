// Model persistence (spec §4.5 card endpoints, reference B8): the card switches under both of Metabase's paths
// (`/api/card/:card-id/…` and the newer `/api/persist/card/:card-id/…`), the site and database switches, the refresh
// schedule and the status listing. Persisting single models is a paid feature in Metabase (402); free here.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { badRequest, notFound } from '../http/errors.js';
import { pagingQuery, paging } from '../http/paging.js';
import { collectionAccess } from '../permissions/collections.js';
import { checkDatabaseVisible } from '../databases/access.js';
import { databaseOr404 } from '../databases/databases.js';
import { rescheduleJobs } from '../tasks/scheduler.js';
import { persistedInfoCount, persistedInfos } from '../persistence/json.js';
import '../persistence/lookup.js';
import { CRON_FORMAT_MESSAGE, CRON_YEAR_MESSAGE } from '../persistence/settings.js';
import { isValidCron } from '../tasks/cron.js';
import { disableDatabase, disableSite, enableDatabase, enableSite, persistCard, refreshCard, unpersistCard } from '../persistence/switch.js';

const cardId = { 'card-id': s.posInt() };
const noContent = () => Respond.noContent();

export function persistRoutes(r: Routes) {
  for (const prefix of ['/api/card/:card-id', '/api/persist/card/:card-id']) {
    r.post(`${prefix}/persist`, { params: cardId }, async ({ ctx, caller, params }) => {
      await persistCard(ctx, caller, params['card-id']);
      return noContent();
    });
    r.post(`${prefix}/refresh`, { params: cardId }, async ({ ctx, caller, params }) => {
      await refreshCard(ctx, caller, params['card-id']);
      return noContent();
    });
    r.post(`${prefix}/unpersist`, { params: cardId }, async ({ ctx, caller, params }) => {
      await unpersistCard(ctx, caller, params['card-id']);
      return noContent();
    });
  }

  r.get('/api/persist', { auth: 'admin', query: pagingQuery }, async ({ ctx, query }) => {
    const page = paging(query);
    const [data, total] = await Promise.all([persistedInfos(ctx, { limit: page.limit, offset: page.offset }), persistedInfoCount(ctx)]);
    return { data, total, limit: page.limit, offset: page.offset };
  });

  r.get('/api/persist/:persisted-info-id', { auth: 'admin', params: { 'persisted-info-id': s.posInt() } }, async ({ ctx, params }) => {
    const [info] = await persistedInfos(ctx, { id: params['persisted-info-id'] });
    if (!info) throw notFound();
    return info;
  });

  r.get('/api/persist/card/:card-id', { params: cardId }, async ({ ctx, caller, params }) => {
    const [info] = await persistedInfos(ctx, { cardId: params['card-id'] });
    if (!info) throw notFound();
    (await collectionAccess(ctx, caller)).checkRead(info.collection_id);
    await checkDatabaseVisible(ctx, caller, info.database_id);
    return info;
  });

  r.post('/api/persist/enable', { auth: 'admin' }, async ({ ctx, caller }) => {
    await enableSite(ctx, caller);
    return noContent();
  });

  r.post('/api/persist/disable', { auth: 'admin' }, async ({ ctx, caller }) => {
    await disableSite(ctx, caller);
    return noContent();
  });

  r.post(
    '/api/persist/set-refresh-schedule',
    { auth: 'admin', body: { cron: s.check<string>(CRON_FORMAT_MESSAGE, (v) => typeof v === 'string' && v.trim() !== '' && v.split(' ').length === 7) } },
    async ({ ctx, caller, body }) => {
      if (!body.cron.endsWith('*') || !isValidCron(body.cron)) throw badRequest(CRON_YEAR_MESSAGE);
      await ctx.settings.set('persisted-model-refresh-cron-schedule', body.cron, caller);
      await rescheduleJobs(ctx);
      return noContent();
    },
  );

  r.post('/api/persist/database/:id/persist', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await enableDatabase(ctx, caller, await databaseOr404(ctx, params.id));
    return noContent();
  });

  r.post('/api/persist/database/:id/unpersist', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await disableDatabase(ctx, caller, await databaseOr404(ctx, params.id));
    return noContent();
  });
}
