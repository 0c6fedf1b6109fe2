// Saved questions, models and metrics (report_card), and the first version of the dashboard tables that cards point
// at (a card can live inside a dashboard, and collection items, search and `dashboard_count` read dashboards).
// Columns follow Metabase's (reference §3.1–3.3) so that later dashboard work only adds to them.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  const text = longText(dialect);

  await withId(db.schema.createTable('report_dashboard'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('name', 'varchar(254)', (c) => c.notNull())
    .addColumn('description', text)
    .addColumn('collection_id', 'integer', (c) => c.references('collection.id').onDelete('set null'))
    .addColumn('collection_position', 'smallint')
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('made_public_by_id', 'integer', (c) => c.references('core_user.id'))
    .addColumn('public_uuid', 'varchar(36)')
    .addColumn('enable_embedding', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('embedding_params', text)
    .addColumn('initially_published_at', TS)
    .addColumn('parameters', text)
    .addColumn('auto_apply_filters', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('width', 'varchar(16)', (c) => c.notNull().defaultTo('fixed'))
    .addColumn('position', 'integer')
    .addColumn('caveats', text)
    .addColumn('points_of_interest', text)
    .addColumn('show_in_getting_started', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cache_ttl', 'integer')
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('archived_directly', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_viewed_at', TS)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_dashboard_collection').on('report_dashboard').column('collection_id').execute();

  await withId(db.schema.createTable('report_card'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('name', 'varchar(254)', (c) => c.notNull())
    .addColumn('description', text)
    .addColumn('display', 'varchar(254)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('question'))
    .addColumn('query_type', 'varchar(16)')
    .addColumn('dataset_query', text, (c) => c.notNull())
    .addColumn('visualization_settings', text, (c) => c.notNull())
    .addColumn('parameters', text)
    .addColumn('parameter_mappings', text)
    .addColumn('result_metadata', text)
    .addColumn('database_id', 'integer', (c) => c.references('metabase_database.id').onDelete('cascade'))
    .addColumn('table_id', 'integer', (c) => c.references('metabase_table.id').onDelete('set null'))
    .addColumn('source_card_id', 'integer')
    .addColumn('collection_id', 'integer', (c) => c.references('collection.id').onDelete('set null'))
    .addColumn('collection_position', 'smallint')
    .addColumn('collection_preview', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('dashboard_id', 'integer', (c) => c.references('report_dashboard.id').onDelete('cascade'))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('made_public_by_id', 'integer', (c) => c.references('core_user.id'))
    .addColumn('public_uuid', 'varchar(36)')
    .addColumn('enable_embedding', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('embedding_params', text)
    .addColumn('initially_published_at', TS)
    .addColumn('cache_ttl', 'integer')
    .addColumn('cache_invalidated_at', TS)
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('archived_directly', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('card_schema', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('metabase_version', 'varchar(100)')
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', TS)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_card_collection').on('report_card').column('collection_id').execute();
  await db.schema.createIndex('idx_card_database_table').on('report_card').columns(['database_id', 'table_id']).execute();
  await db.schema.createIndex('idx_card_dashboard').on('report_card').column('dashboard_id').execute();
  await db.schema.createIndex('idx_card_public_uuid').on('report_card').column('public_uuid').execute();

  await withId(db.schema.createTable('report_dashboardcard'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('dashboard_id', 'integer', (c) => c.notNull().references('report_dashboard.id').onDelete('cascade'))
    .addColumn('dashboard_tab_id', 'integer')
    .addColumn('card_id', 'integer', (c) => c.references('report_card.id').onDelete('cascade'))
    .addColumn('action_id', 'integer')
    .addColumn('row', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('col', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size_x', 'integer', (c) => c.notNull())
    .addColumn('size_y', 'integer', (c) => c.notNull())
    .addColumn('parameter_mappings', text)
    .addColumn('visualization_settings', text)
    .addColumn('inline_parameters', text)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_dashcard_dashboard').on('report_dashboardcard').column('dashboard_id').execute();
  await db.schema.createIndex('idx_dashcard_card').on('report_dashboardcard').column('card_id').execute();
}
