// Link cards: a virtual dashcard whose `visualization_settings.link.entity` names a card, dashboard, collection,
// table or database. Reads replace that stub with the entity's current name and description (one query per kind),
// or with `{"restricted": true}` when the caller may not see it.

import type { AppContext } from '../context.js';
import type { CollectionAccess } from '../permissions/collections.js';
import { bool } from '../appdb/portable.js';
import type { DashcardRow } from './store.js';
import { vizSettingsOf } from './store.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const CARD_MODELS = new Set(['card', 'dataset', 'metric', 'question']);

export function linkEntityOf(dashcard: Pick<DashcardRow, 'visualization_settings'>): { model: string; id: number } | null {
  const link = vizSettingsOf(dashcard).link;
  const entity = isObj(link) ? link.entity : null;
  if (!isObj(entity) || typeof entity.model !== 'string' || typeof entity.id !== 'number') return null;
  return { model: entity.model, id: entity.id };
}

function ids(entities: Array<{ model: string; id: number }>, test: (model: string) => boolean): number[] {
  return [...new Set(entities.filter((e) => test(e.model)).map((e) => e.id))];
}

/** `model:id` → the entity as a link card shows it. */
export async function linkEntities(ctx: AppContext, access: CollectionAccess, dashcards: DashcardRow[]): Promise<Map<string, Obj>> {
  const entities = dashcards.map(linkEntityOf).filter((e): e is { model: string; id: number } => e !== null);
  const out = new Map<string, Obj>();
  if (entities.length === 0) return out;
  const cardIds = ids(entities, (m) => CARD_MODELS.has(m));
  const dashboardIds = ids(entities, (m) => m === 'dashboard');
  const collectionIds = ids(entities, (m) => m === 'collection');
  const tableIds = ids(entities, (m) => m === 'table');
  const databaseIds = ids(entities, (m) => m === 'database');
  const [cards, dashboards, collections, tables, databases] = await Promise.all([
    cardIds.length ? ctx.db.selectFrom('report_card').select(['id', 'name', 'description', 'display', 'type', 'database_id', 'collection_id', 'archived']).where('id', 'in', cardIds).execute() : [],
    dashboardIds.length ? ctx.db.selectFrom('report_dashboard').select(['id', 'name', 'description', 'collection_id', 'archived']).where('id', 'in', dashboardIds).execute() : [],
    collectionIds.length ? ctx.db.selectFrom('collection').select(['id', 'name', 'description', 'archived', 'namespace']).where('id', 'in', collectionIds).execute() : [],
    tableIds.length ? ctx.db.selectFrom('metabase_table').select(['id', 'name', 'display_name', 'description', 'db_id']).where('id', 'in', tableIds).execute() : [],
    databaseIds.length ? ctx.db.selectFrom('metabase_database').select(['id', 'name', 'description']).where('id', 'in', databaseIds).execute() : [],
  ]);
  const restricted = { restricted: true };
  for (const e of entities) {
    const key = `${e.model}:${e.id}`;
    if (CARD_MODELS.has(e.model)) {
      const c = cards.find((r) => r.id === e.id);
      if (!c || !access.canRead(c.collection_id)) out.set(key, restricted);
      else {
        const model = c.type === 'model' ? 'dataset' : c.type === 'metric' ? 'metric' : 'card';
        out.set(key, { id: c.id, model, name: c.name, description: c.description, display: c.display, db_id: c.database_id, collection_id: c.collection_id, archived: bool(c.archived) });
      }
    } else if (e.model === 'dashboard') {
      const d = dashboards.find((r) => r.id === e.id);
      out.set(key, !d || !access.canRead(d.collection_id) ? restricted : { id: d.id, model: 'dashboard', name: d.name, description: d.description, collection_id: d.collection_id, archived: bool(d.archived) });
    } else if (e.model === 'collection') {
      const c = collections.find((r) => r.id === e.id);
      out.set(key, !c || !access.canRead(c.id, c.namespace) ? restricted : { id: c.id, model: 'collection', name: c.name, description: c.description, archived: bool(c.archived) });
    } else if (e.model === 'table') {
      const t = tables.find((r) => r.id === e.id);
      out.set(key, !t ? restricted : { id: t.id, model: 'table', name: t.name, display_name: t.display_name, description: t.description, db_id: t.db_id });
    } else if (e.model === 'database') {
      const d = databases.find((r) => r.id === e.id);
      out.set(key, !d ? restricted : { id: d.id, model: 'database', name: d.name, description: d.description });
    }
  }
  return out;
}

/** The dashcard's visualization settings with its link entity (if any) replaced by what `linkEntities` found. */
export function withLinkEntity(settings: Obj, dashcard: DashcardRow, entities: Map<string, Obj>): Obj {
  const entity = linkEntityOf(dashcard);
  if (!entity) return settings;
  const info = entities.get(`${entity.model}:${entity.id}`);
  if (!info) return settings;
  return { ...settings, link: { ...(settings.link as Obj), entity: info } };
}
