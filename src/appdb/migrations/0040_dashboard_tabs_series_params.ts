// Dashboards beyond their first tables (0030): tabs, the extra cards overlaid on a dashcard (series), and each
// user's last filter values per dashboard. Deleting a dashboard, dashcard, card or user takes its rows along.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  const text = longText(dialect);

  await withId(db.schema.createTable('dashboard_tab'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('dashboard_id', 'integer', (c) => c.notNull().references('report_dashboard.id').onDelete('cascade'))
    .addColumn('name', 'varchar(254)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_dashboard_tab_dashboard').on('dashboard_tab').column('dashboard_id').execute();

  await withId(db.schema.createTable('dashboardcard_series'), dialect)
    .addColumn('dashboardcard_id', 'integer', (c) => c.notNull().references('report_dashboardcard.id').onDelete('cascade'))
    .addColumn('card_id', 'integer', (c) => c.notNull().references('report_card.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_dashcard_series_dashcard').on('dashboardcard_series').column('dashboardcard_id').execute();
  await db.schema.createIndex('idx_dashcard_series_card').on('dashboardcard_series').column('card_id').execute();

  await withId(db.schema.createTable('user_parameter_value'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    .addColumn('dashboard_id', 'integer', (c) => c.notNull().references('report_dashboard.id').onDelete('cascade'))
    .addColumn('parameter_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', text)
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addUniqueConstraint('uq_user_parameter_value', ['user_id', 'dashboard_id', 'parameter_id'])
    .execute();

  await db.schema.createIndex('idx_dashboard_public_uuid').on('report_dashboard').column('public_uuid').execute();
  await db.schema.createIndex('idx_dashcard_tab').on('report_dashboardcard').column('dashboard_tab_id').execute();
}
