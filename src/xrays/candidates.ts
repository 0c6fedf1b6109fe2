// GET /api/automagic-dashboards/database/:id/candidates: the tables of a database worth an X-ray, per schema, most
// interesting first. Metabase's home page asks on every visit, so this reads metadata only — two app-DB queries
// (tables, then field counts) after the permission check, never the data source.

import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { checkDatabaseVisible } from '../databases/access.js';
import { tableJson } from '../databases/json.js';
import { fill } from './names.js';
import { tableTemplateFor } from './templates/index.js';

export const MAX_CANDIDATES_PER_SCHEMA = 10;

export async function databaseCandidates(ctx: AppContext, caller: Caller, databaseId: number) {
  const db = await ctx.db.selectFrom('metabase_database').select('id').where('id', '=', databaseId).executeTakeFirst();
  if (!db) throw notFound();
  const access = await checkDatabaseVisible(ctx, caller, databaseId);
  const tables = (await ctx.db.selectFrom('metabase_table').selectAll().where('db_id', '=', databaseId).where('active', '=', true).orderBy('id').execute()).filter(
    (t) => (t.visibility_type === null || t.visibility_type === 'normal') && (access.isSuperuser || access.canQueryTable(t)),
  );
  if (!tables.length) return [];
  const counts = await ctx.db
    .selectFrom('metabase_field')
    .select(['table_id', sql<number>`count(*)`.as('fields'), sql<number>`sum(case when semantic_type in ('type/PK', 'type/FK') then 0 else 1 end)`.as('plain')])
    .where('table_id', 'in', tables.map((t) => t.id))
    .where('active', '=', true)
    .where('visibility_type', '=', 'normal')
    .groupBy('table_id')
    .execute();
  const byTable = new Map(counts.map((c) => [c.table_id, { fields: Number(c.fields), plain: Number(c.plain) }]));

  const schemas = new Map<string, Array<Record<string, unknown> & { score: number; template: string }>>();
  for (const table of tables) {
    const count = byTable.get(table.id);
    if (!count || count.plain === 0) continue; // a table of keys only says nothing
    const template = tableTemplateFor(table.entity_type);
    const listLike = count.fields >= 2 && count.plain === 1;
    const score = template.specificity ** 2 + Math.log(count.fields) - (listLike ? 10 : 0);
    const entry = {
      url: `/auto/dashboard/table/${table.id}`,
      title: table.display_name,
      score,
      description: fill(template.description, { this: table.display_name }),
      table: { ...tableJson(table), 'num-fields': count.fields, 'list-like?': listLike },
      'dashboard-template-name': template.name,
      template: template.name,
    };
    const key = table.schema ?? '';
    schemas.set(key, [...(schemas.get(key) ?? []), entry]);
  }
  return [...schemas.entries()]
    .map(([schema, entries]) => {
      const best = entries.sort((a, b) => b.score - a.score || String(a.title).localeCompare(String(b.title))).slice(0, MAX_CANDIDATES_PER_SCHEMA);
      const templates = new Set(best.map((e) => e.template)).size;
      const score = templates ** 2 + Math.sqrt(best.reduce((s, e) => s + e.score ** 2, 0) / best.length);
      return { id: `${databaseId}/${schema}`, schema: schema || null, score, tables: best.map(({ template: _t, ...rest }) => rest) };
    })
    .sort((a, b) => b.score - a.score);
}

