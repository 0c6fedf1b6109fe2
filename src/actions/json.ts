// How actions look in API responses (reference §13): the common keys, the keys of their type, and for implicit
// actions the parameters derived from the model's table — hydrated for many actions with one query per kind.

import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import { cardsByIds } from '../cards/store.js';
import { userInfos } from '../cards/creators.js';
import { actionsEnabledOn } from './enabled.js';
import { implicitParameters, modelTables } from './model-table.js';
import { datasetQueryOf, parametersOf, templateOf, type ActionRow } from './store.js';

type Obj = Record<string, unknown>;

export async function actionsJson(ctx: AppContext, rows: ActionRow[], options: { creator?: boolean } = {}): Promise<Obj[]> {
  if (!rows.length) return [];
  const models = await cardsByIds(ctx.db, rows.map((r) => r.model_id));
  const databaseIds = [...new Set([...rows.map((r) => r.database_id), ...[...models.values()].map((m) => m.database_id)].filter((id): id is number => id !== null))];
  const [tables, databases, creators] = await Promise.all([
    modelTables(ctx, [...models.values()].filter((m) => rows.some((r) => r.type === 'implicit' && r.model_id === m.id))),
    databaseIds.length ? ctx.db.selectFrom('metabase_database').selectAll().where('id', 'in', databaseIds).execute() : Promise.resolve([]),
    options.creator ? userInfos(ctx.db, rows.map((r) => r.creator_id)) : Promise.resolve(new Map()),
  ]);
  const databaseById = new Map(databases.map((d) => [d.id, d]));
  return rows.map((row) => {
    const model = models.get(row.model_id);
    const databaseId = row.type === 'query' ? row.database_id : (model?.database_id ?? null);
    const database = databaseId === null ? undefined : databaseById.get(databaseId);
    const json: Obj = {
      id: row.id,
      entity_id: row.entity_id,
      name: row.name,
      description: row.description,
      type: row.type,
      model_id: row.model_id,
      database_id: databaseId,
      database_enabled_actions: database ? actionsEnabledOn(database) : false,
      parameters: row.type === 'implicit' ? implicitParameters(tables.get(row.model_id), row.kind) : parametersOf(row),
      parameter_mappings: parseJson<Obj | null>(row.parameter_mappings, null),
      visualization_settings: parseJson<Obj>(row.visualization_settings, {}),
      archived: bool(row.archived),
      public_uuid: row.public_uuid,
      made_public_by_id: row.made_public_by_id,
      creator_id: row.creator_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    if (row.type === 'query') json.dataset_query = datasetQueryOf(row);
    if (row.type === 'implicit') json.kind = row.kind;
    if (row.type === 'http') {
      json.template = templateOf(row);
      json.response_handle = row.response_handle;
      json.error_handle = row.error_handle;
    }
    if (options.creator) json.creator = row.creator_id === null ? null : (creators.get(row.creator_id) ?? null);
    return json;
  });
}

export async function actionJson(ctx: AppContext, row: ActionRow, options: { creator?: boolean } = {}): Promise<Obj> {
  return (await actionsJson(ctx, [row], options))[0];
}
