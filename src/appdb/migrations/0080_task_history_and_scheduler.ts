// Background work's bookkeeping (owned by src/tasks; area range 0080–0089, subscriptions and scheduling):
//   task_history          Metabase's task history: one row per run of a background task (a send, a sync step, …)
//   scheduled_occurrence  one row per (job kind, job key, fire time) that an instance claimed, so a cluster runs each
//                         occurrence of a schedule once; its lease lets another instance take over a run that died

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  const text = longText(dialect);
  await withId(db.schema.createTable('task_history'), dialect)
    .addColumn('task', 'varchar(254)', (c) => c.notNull())
    .addColumn('db_id', 'integer')
    .addColumn('started_at', TS, (c) => c.notNull())
    .addColumn('ended_at', TS)
    .addColumn('duration', 'integer')
    .addColumn('task_details', text)
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('started'))
    .execute();
  await db.schema.createIndex('idx_task_history_started_at').on('task_history').column('started_at').execute();
  await db.schema.createIndex('idx_task_history_task').on('task_history').column('task').execute();

  await withId(db.schema.createTable('scheduled_occurrence'), dialect)
    .addColumn('job_kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('job_key', 'varchar(254)', (c) => c.notNull())
    .addColumn('occurrence', TS, (c) => c.notNull())
    // running | retry | success | failed
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner', 'varchar(100)')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    // what the run has done so far (e.g. the channels already delivered), so a retry does only the rest
    .addColumn('progress', text)
    .addColumn('last_error', text)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_scheduled_occurrence_claim').on('scheduled_occurrence').columns(['job_kind', 'job_key', 'occurrence']).unique().execute();
  await db.schema.createIndex('idx_scheduled_occurrence_status').on('scheduled_occurrence').columns(['status', 'next_attempt_at']).execute();
}
