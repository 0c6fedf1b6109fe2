// `persisted_info` rows as /api/persist shows them (reference B8, exact keys — note `next-fire-time`): with the
// card, its collection, the database, Quarry's schema name, the creator, and when the database's refresh next runs.

import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import { userInfos } from '../cards/creators.js';
import { nextFireTime } from '../tasks/cron.js';
import { schemaName } from './naming.js';
import { siteUuid } from './site.js';
import { databasePersists } from './warehouse.js';

export interface PersistedQuery {
  id?: number;
  cardId?: number;
  limit?: number | null;
  offset?: number | null;
}

function baseQuery(ctx: AppContext, where: PersistedQuery) {
  let q = ctx.db
    .selectFrom('persisted_info as p')
    .innerJoin('report_card as c', 'c.id', 'p.card_id')
    .leftJoin('metabase_database as db', 'db.id', 'p.database_id')
    .leftJoin('collection as col', 'col.id', 'c.collection_id');
  if (where.id !== undefined) q = q.where('p.id', '=', where.id);
  if (where.cardId !== undefined) q = q.where('p.card_id', '=', where.cardId);
  return q.where('c.type', '=', 'model').where('c.archived', '=', false);
}

export async function persistedInfos(ctx: AppContext, where: PersistedQuery) {
  let q = baseQuery(ctx, where)
    .select([
      'p.id',
      'p.database_id',
      'p.card_id',
      'p.definition',
      'p.active',
      'p.state',
      'p.error',
      'p.refresh_begin',
      'p.refresh_end',
      'p.table_name',
      'p.creator_id',
      'c.name as card_name',
      'c.archived as card_archived',
      'c.type as card_type',
      'db.name as database_name',
      'db.settings as database_settings',
      'col.id as collection_id',
      'col.name as collection_name',
      'col.authority_level as collection_authority_level',
    ])
    .orderBy('p.refresh_begin', 'desc')
    .orderBy('p.id', 'desc');
  if (where.limit !== undefined && where.limit !== null) q = q.limit(where.limit).offset(where.offset ?? 0);
  const rows = await q.execute();
  const [creators, uuid, siteOn, cron, zone] = await Promise.all([
    userInfos(ctx.db, rows.map((r) => r.creator_id)),
    siteUuid(ctx),
    ctx.settings.getBoolean('persisted-models-enabled'),
    ctx.settings.getString('persisted-model-refresh-cron-schedule'),
    ctx.settings.getString('report-timezone'),
  ]);
  const now = new Date();
  return rows.map((r) => {
    const scheduled = siteOn && databasePersists({ settings: r.database_settings }) && cron;
    const next = scheduled ? nextFireTime(cron, zone && zone.trim() ? zone : 'UTC', now) : null;
    return {
      id: r.id,
      database_id: r.database_id,
      card_id: r.card_id,
      card_name: r.card_name,
      card_archived: bool(r.card_archived),
      card_type: r.card_type,
      database_name: r.database_name,
      collection_id: r.collection_id ?? null,
      collection_name: r.collection_name ?? null,
      collection_authority_level: r.collection_authority_level ?? null,
      table_name: r.table_name,
      schema_name: schemaName(uuid, r.database_id),
      active: bool(r.active),
      state: r.state,
      error: r.error,
      refresh_begin: r.refresh_begin,
      refresh_end: r.refresh_end,
      creator_id: r.creator_id,
      creator: r.creator_id === null ? null : (creators.get(r.creator_id) ?? null),
      definition: parseJson(r.definition, null),
      'next-fire-time': next ? next.toISOString() : null,
    };
  });
}

export async function persistedInfoCount(ctx: AppContext): Promise<number> {
  const row = await baseQuery(ctx, {})
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
