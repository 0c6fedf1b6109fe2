// Feeds the query engine the saved things it reads but doesn't own: cards (as `card__N` sources, models, metrics
// and `{{#N}}` tags) and native query snippets (`{{snippet: Name}}`). One app-DB query per batch of ids.

import { bool, parseJson } from '../appdb/portable.js';
import { registerCardSource, registerSnippetSource, type SavedCard } from '../query/sources.js';
import { snippetTemplateTags } from '../snippets/snippets.js';

registerCardSource(async (ctx, ids) => {
  const rows = await ctx.db.selectFrom('report_card').selectAll().where('id', 'in', ids).execute();
  return new Map(
    rows.map((row): [number, SavedCard] => [
      row.id,
      {
        id: row.id,
        name: row.name,
        type: row.type,
        database_id: row.database_id,
        dataset_query: parseJson(row.dataset_query, {}),
        result_metadata: parseJson(row.result_metadata, null),
        collection_id: row.collection_id,
        archived: bool(row.archived),
        parameters: parseJson(row.parameters, []),
      },
    ]),
  );
});

registerSnippetSource(async (ctx, { ids, names }) => {
  let query = ctx.db.selectFrom('native_query_snippet').select(['id', 'name', 'content', 'collection_id', 'template_tags']);
  query = query.where((eb) =>
    eb.or([...(ids.length ? [eb('id', 'in', ids)] : []), ...(names.length ? [eb('name', 'in', names)] : [])]),
  );
  return (await query.execute()).map((row) => ({ ...row, template_tags: snippetTemplateTags(row) }));
});
