// Group names are unique whatever their case, as the API has always checked ("A group with that name already
// exists."); the database now holds that too, so two requests creating "Sales" and "sales" at once can't both win.
// MySQL/MariaDB's default collation already compares names without case. Any existing case-only duplicates are
// renamed first ("sales (2)").

import { sql, type Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  if (dialect === 'mysql') return;
  const groups: Array<{ id: number; name: string }> = await db.selectFrom('permissions_group').select(['id', 'name']).orderBy('id').execute();
  const taken = new Set<string>();
  for (const group of groups) {
    let name = group.name;
    for (let n = 2; taken.has(name.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      name = group.name.slice(0, 254 - suffix.length) + suffix;
    }
    taken.add(name.toLowerCase());
    if (name !== group.name) await db.updateTable('permissions_group').set({ name }).where('id', '=', group.id).execute();
  }
  await db.schema.createIndex('idx_permissions_group_name_lower').on('permissions_group').unique().expression(sql`lower(name)`).execute();
}
