// Snippets keep the template tags of their content (`template_tags`, Metabase 0.57+): `{{var}}` variables, nested
// `{{snippet: …}}` references (with the id of the snippet they name) and `{{#N}}` cards. Existing snippets get theirs.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { longText } from '../portable.js';
import { recognizeTemplateTags, setSnippetIds } from '../../query/native/recognize-tags.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await db.schema.alterTable('native_query_snippet').addColumn('template_tags', longText(dialect)).execute();
  const rows: Array<{ id: number; name: string; content: string }> = await db.selectFrom('native_query_snippet').select(['id', 'name', 'content']).execute();
  const idByName = new Map(rows.map((row) => [row.name, row.id]));
  for (const row of rows) {
    const tags = recognizeTemplateTags(row.content);
    setSnippetIds(tags, idByName);
    await db.updateTable('native_query_snippet').set({ template_tags: JSON.stringify(tags) }).where('id', '=', row.id).execute();
  }
}
