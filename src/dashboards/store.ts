// Reading dashboard rows and what hangs off them (dashcards, tabs, series), one query per kind for a whole batch.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { parseJson, type Db } from '../appdb/portable.js';
import type { DashboardTabTable, ReportDashboardCardTable, ReportDashboardTable } from './tables.js';

export type DashboardRow = Selectable<ReportDashboardTable>;
export type DashcardRow = Selectable<ReportDashboardCardTable>;
export type TabRow = Selectable<DashboardTabTable>;

type Obj = Record<string, unknown>;

export async function findDashboard(db: Db, id: number): Promise<DashboardRow | undefined> {
  return db.selectFrom('report_dashboard').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireDashboard(ctx: AppContext, id: number, db: Db = ctx.db): Promise<DashboardRow> {
  const row = await findDashboard(db, id);
  if (!row) throw notFound();
  return row;
}

/**
 * Dashcards of the dashboards, in layout order. Like Metabase, a dashcard whose card is archived is hidden (it comes
 * back when the card is restored) and edits of the layout leave it alone.
 */
export async function dashcardsOf(db: Db, dashboardIds: number[]): Promise<DashcardRow[]> {
  if (dashboardIds.length === 0) return [];
  return db
    .selectFrom('report_dashboardcard as dc')
    .leftJoin('report_card as card', 'card.id', 'dc.card_id')
    .selectAll('dc')
    .where('dc.dashboard_id', 'in', dashboardIds)
    .where((eb) => eb.or([eb('dc.card_id', 'is', null), eb('card.archived', '=', false)]))
    .orderBy('dc.row')
    .orderBy('dc.col')
    .orderBy('dc.id')
    .execute();
}

export async function tabsOf(db: Db, dashboardIds: number[]): Promise<TabRow[]> {
  if (dashboardIds.length === 0) return [];
  return db.selectFrom('dashboard_tab').selectAll().where('dashboard_id', 'in', dashboardIds).orderBy('position').orderBy('id').execute();
}

/** Series card ids of each dashcard, in position order. */
export async function seriesOf(db: Db, dashcardIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (dashcardIds.length === 0) return out;
  const rows = await db
    .selectFrom('dashboardcard_series')
    .select(['dashboardcard_id', 'card_id'])
    .where('dashboardcard_id', 'in', dashcardIds)
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = out.get(row.dashboardcard_id) ?? [];
    list.push(row.card_id);
    out.set(row.dashboardcard_id, list);
  }
  return out;
}

export function parametersOf(row: Pick<DashboardRow, 'parameters'>): Obj[] {
  return parseJson<unknown[]>(row.parameters, []).filter((p): p is Obj => p !== null && typeof p === 'object' && !Array.isArray(p));
}

export function mappingsOf(row: Pick<DashcardRow, 'parameter_mappings'>): Obj[] {
  return parseJson<unknown[]>(row.parameter_mappings, []).filter((p): p is Obj => p !== null && typeof p === 'object' && !Array.isArray(p));
}

export function vizSettingsOf(row: Pick<DashcardRow, 'visualization_settings'>): Obj {
  return parseJson<Obj>(row.visualization_settings, {});
}
