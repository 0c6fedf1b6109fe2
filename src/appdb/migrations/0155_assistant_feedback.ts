// Feedback on the assistant's answers (POST /api/assistant/feedback), kept in the app DB instead of being sent to a
// vendor: who said what about which question and SQL. Owned by src/assistant. Area range 0155–0159.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('assistant_feedback'), dialect)
    .addColumn('user_id', 'integer', (c) => c.references('core_user.id').onDelete('set null'))
    // database | model (what the question was about), as the client says
    .addColumn('entity_type', 'varchar(32)')
    // great | wrong_data | incorrect_result | invalid_sql (or Metabase's older kebab spellings)
    .addColumn('feedback_type', 'varchar(64)')
    .addColumn('prompt', longText(dialect))
    .addColumn('sql', longText(dialect))
    // JSON array of "task:version" strings
    .addColumn('prompt_template_versions', longText(dialect))
    // the whole body as received (JSON), for what the columns above don't hold (a free-text message…)
    .addColumn('body', longText(dialect), (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_assistant_feedback_created').on('assistant_feedback').column('created_at').execute();
}
