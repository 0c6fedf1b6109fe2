// Dashboard subscriptions and alerts (Metabase's pulse tables: an alert is a pulse with an `alert_condition` and one
// card) and notification channels (`channel`, the webhook targets of /api/channel). Owned by src/notify.
// /api/notification serves alerts from the same rows; `pulse_channel.cron_schedule` holds a schedule that the
// schedule_* columns can't say (a notification's own cron).

import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  const text = longText(dialect);
  await withId(db.schema.createTable('channel'), dialect)
    .addColumn('name', 'varchar(254)', (c) => c.notNull())
    .addColumn('description', text)
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    // JSON, encrypted when MB_ENCRYPTION_SECRET_KEY is set (it may hold credentials)
    .addColumn('details', text, (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_channel_name').on('channel').column('name').unique().execute();

  await withId(db.schema.createTable('pulse'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('name', 'varchar(254)')
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('skip_if_empty', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('alert_condition', 'varchar(16)')
    .addColumn('alert_first_only', 'boolean')
    .addColumn('alert_above_goal', 'boolean')
    .addColumn('collection_id', 'integer', (c) => c.references('collection.id').onDelete('set null'))
    .addColumn('collection_position', 'smallint')
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('dashboard_id', 'integer', (c) => c.references('report_dashboard.id').onDelete('cascade'))
    .addColumn('parameters', text, (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_pulse_entity_id').on('pulse').column('entity_id').unique().execute();
  await db.schema.createIndex('idx_pulse_dashboard').on('pulse').column('dashboard_id').execute();
  await db.schema.createIndex('idx_pulse_creator').on('pulse').column('creator_id').execute();

  await withId(db.schema.createTable('pulse_card'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('pulse_id', 'integer', (c) => c.notNull().references('pulse.id').onDelete('cascade'))
    .addColumn('card_id', 'integer', (c) => c.notNull().references('report_card.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('include_csv', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('include_xls', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('format_rows', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('pivot_results', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('dashboard_card_id', 'integer', (c) => c.references('report_dashboardcard.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('idx_pulse_card_pulse').on('pulse_card').column('pulse_id').execute();
  await db.schema.createIndex('idx_pulse_card_card').on('pulse_card').column('card_id').execute();

  await withId(db.schema.createTable('pulse_channel'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('pulse_id', 'integer', (c) => c.notNull().references('pulse.id').onDelete('cascade'))
    // email | slack | http
    .addColumn('channel_type', 'varchar(32)', (c) => c.notNull())
    // JSON: slack {"channel"}, email {"emails": [raw addresses]}
    .addColumn('details', text, (c) => c.notNull())
    .addColumn('schedule_type', 'varchar(16)')
    .addColumn('schedule_hour', 'integer')
    .addColumn('schedule_day', 'varchar(8)')
    .addColumn('schedule_frame', 'varchar(8)')
    .addColumn('cron_schedule', 'varchar(254)')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('channel_id', 'integer', (c) => c.references('channel.id').onDelete('set null'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_pulse_channel_pulse').on('pulse_channel').column('pulse_id').execute();

  await withId(db.schema.createTable('pulse_channel_recipient'), dialect)
    .addColumn('pulse_channel_id', 'integer', (c) => c.notNull().references('pulse_channel.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('idx_pulse_channel_recipient').on('pulse_channel_recipient').columns(['pulse_channel_id', 'user_id']).unique().execute();
  await db.schema.createIndex('idx_pulse_channel_recipient_user').on('pulse_channel_recipient').column('user_id').execute();

  // the key of the unsubscribe links' hashes (src/notify/unsubscribe.ts): made once, here, so every instance shares it
  await db.insertInto('setting').values({ key: 'site-uuid-for-unsubscribing-url', value: randomBytes(32).toString('hex') }).execute();
}
