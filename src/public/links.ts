// Public links (setting `enable-public-sharing`, reference §8.4): an admin gives a card, dashboard or action a random UUID
// (the existing one when it already has one), anyone holding it may view the item, and deleting the link revokes it.
// Reading a shared item by its UUID ignores archived items, as if the link did not exist.

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { archivedError, badRequest, notFound } from '../http/errors.js';
import { bool, nowIso } from '../appdb/portable.js';
import type { CardRow } from '../cards/store.js';
import type { DashboardRow } from '../dashboards/store.js';
import type { Selectable } from 'kysely';
import type { DB } from '../appdb/schema.js';

export const SHARING_DISABLED = 'Public sharing is not enabled.';

export async function publicSharingEnabled(ctx: AppContext): Promise<boolean> {
  return ctx.settings.getBoolean('enable-public-sharing');
}

/** 400 `Public sharing is not enabled.` unless it is. */
export async function checkPublicSharingEnabled(ctx: AppContext): Promise<void> {
  if (!(await publicSharingEnabled(ctx))) throw badRequest(SHARING_DISABLED);
}

type Shareable = 'report_card' | 'report_dashboard' | 'action';

async function row(ctx: AppContext, table: Shareable, id: number) {
  const found = await ctx.db.selectFrom(table).select(['id', 'public_uuid', 'archived']).where('id', '=', id).executeTakeFirst();
  if (!found) throw notFound();
  return found;
}

/** POST …/:id/public_link: `{uuid}`, the existing one if the item is shared already. */
export async function createPublicLink(ctx: AppContext, caller: Caller, table: Shareable, id: number): Promise<{ uuid: string }> {
  await checkPublicSharingEnabled(ctx);
  const item = await row(ctx, table, id);
  if (bool(item.archived)) throw archivedError();
  if (item.public_uuid) return { uuid: item.public_uuid };
  const uuid = randomUUID();
  // only one request gives the item its UUID; a concurrent one reads the winner's
  await ctx.db.updateTable(table).set({ public_uuid: uuid, made_public_by_id: caller.user.id, updated_at: nowIso() }).where('id', '=', id).where('public_uuid', 'is', null).execute();
  const after = await row(ctx, table, id);
  return { uuid: after.public_uuid ?? uuid };
}

/** DELETE …/:id/public_link: 404 when the item isn't shared. */
export async function deletePublicLink(ctx: AppContext, table: Shareable, id: number): Promise<void> {
  await checkPublicSharingEnabled(ctx);
  const item = await row(ctx, table, id);
  if (!item.public_uuid) throw notFound();
  await ctx.db.updateTable(table).set({ public_uuid: null, made_public_by_id: null, updated_at: nowIso() }).where('id', '=', id).execute();
}

/** GET /api/card/public: `[{name, id, public_uuid}]` of shared cards. */
export async function publicCards(ctx: AppContext) {
  await checkPublicSharingEnabled(ctx);
  const rows = await ctx.db
    .selectFrom('report_card')
    .select(['id', 'name', 'public_uuid'])
    .where('public_uuid', 'is not', null)
    .where('archived', '=', false)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({ name: r.name, id: r.id, public_uuid: r.public_uuid }));
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The shared, non-archived row of `table` with this UUID (404 otherwise, and when public sharing is off: 400). */
export async function sharedRowByUuid<T extends Shareable>(ctx: AppContext, table: T, uuid: string): Promise<Selectable<DB[T]>> {
  await checkPublicSharingEnabled(ctx);
  if (!UUID.test(uuid)) throw notFound();
  const row = await ctx.db.selectFrom(table as Shareable).selectAll().where('public_uuid', '=', uuid).where('archived', '=', false).executeTakeFirst();
  if (!row) throw notFound();
  return row as Selectable<DB[T]>;
}

export function cardByUuid(ctx: AppContext, uuid: string): Promise<CardRow> {
  return sharedRowByUuid(ctx, 'report_card', uuid);
}

export function dashboardByUuid(ctx: AppContext, uuid: string): Promise<DashboardRow> {
  return sharedRowByUuid(ctx, 'report_dashboard', uuid);
}
