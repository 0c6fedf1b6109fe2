// Users, groups, sessions, API keys, settings and the collection table (personal collections are made here).

import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS, resetSequence } from '../portable.js';
import { newEntityId } from '../../util/entity-id.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('core_user'), dialect)
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('first_name', 'varchar(254)')
    .addColumn('last_name', 'varchar(254)')
    .addColumn('password', 'varchar(254)')
    .addColumn('password_salt', 'varchar(254)')
    .addColumn('date_joined', TS, (c) => c.notNull())
    .addColumn('last_login', TS)
    .addColumn('updated_at', TS)
    .addColumn('is_superuser', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_qbnewb', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_datasetnewb', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('locale', 'varchar(16)')
    .addColumn('sso_source', 'varchar(32)')
    .addColumn('login_attributes', longText(dialect))
    .addColumn('settings', longText(dialect))
    .addColumn('type', 'varchar(32)', (c) => c.notNull().defaultTo('personal'))
    .addColumn('reset_token', 'varchar(254)')
    .addColumn('reset_triggered', 'bigint')
    .execute();

  await withId(db.schema.createTable('permissions_group'), dialect)
    .addColumn('name', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('entity_id', 'varchar(21)')
    .addColumn('magic_group_type', 'varchar(32)')
    .execute();

  await withId(db.schema.createTable('permissions_group_membership'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('permissions_group.id').onDelete('cascade'))
    .addColumn('is_group_manager', 'boolean', (c) => c.notNull().defaultTo(false))
    .addUniqueConstraint('uq_membership_user_group', ['user_id', 'group_id'])
    .execute();
  await db.schema.createIndex('idx_membership_group').on('permissions_group_membership').column('group_id').execute();

  await db.schema
    .createTable('core_session')
    .addColumn('key_hashed', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('session_type', 'varchar(32)')
    .execute();
  await db.schema.createIndex('idx_session_user').on('core_session').column('user_id').execute();

  await withId(db.schema.createTable('login_throttle'), dialect)
    .addColumn('throttle_key', 'varchar(300)', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_login_throttle_key').on('login_throttle').columns(['throttle_key', 'attempted_at']).execute();

  await withId(db.schema.createTable('login_history'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    .addColumn('timestamp', TS, (c) => c.notNull())
    .addColumn('session_hash', 'varchar(128)')
    .addColumn('device_id', 'varchar(64)')
    .addColumn('device_description', 'varchar(1000)')
    .addColumn('ip_address', 'varchar(128)')
    .execute();
  await db.schema.createIndex('idx_login_history_user').on('login_history').columns(['user_id', 'timestamp']).execute();

  await withId(db.schema.createTable('api_key'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('name', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('key_hashed', 'varchar(128)', (c) => c.notNull())
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('updated_by_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('setting')
    .addColumn('key', 'varchar(254)', (c) => c.primaryKey())
    .addColumn('value', longText(dialect))
    .execute();

  await withId(db.schema.createTable('collection'), dialect)
    .addColumn('name', 'varchar(254)', (c) => c.notNull())
    .addColumn('description', longText(dialect))
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('slug', 'varchar(510)', (c) => c.notNull())
    .addColumn('location', 'varchar(600)', (c) => c.notNull().defaultTo('/'))
    .addColumn('personal_owner_id', 'integer', (c) => c.references('core_user.id').onDelete('cascade'))
    .addColumn('namespace', 'varchar(254)')
    .addColumn('authority_level', 'varchar(32)')
    .addColumn('type', 'varchar(32)')
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('archived_directly', 'boolean')
    .addColumn('archive_operation_id', 'varchar(64)')
    .addColumn('is_sample', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_collection_location').on('collection').column('location').execute();
  await db.schema.createIndex('idx_collection_owner').on('collection').column('personal_owner_id').execute();

  // The two magic groups, with the ids clients hard-code.
  await db
    .insertInto('permissions_group')
    .values([
      { id: 1, name: 'All Users', entity_id: newEntityId(), magic_group_type: 'all-internal-users' },
      { id: 2, name: 'Administrators', entity_id: newEntityId(), magic_group_type: 'admin' },
    ])
    .execute();
  await resetSequence(db, dialect, 'permissions_group');

  // Instance identity, generated once here so that every instance of a cluster agrees on it.
  await db
    .insertInto('setting')
    .values([
      { key: 'setup-token', value: randomUUID() },
      { key: 'site-uuid', value: randomUUID() },
      { key: 'analytics-uuid', value: randomUUID() },
      { key: 'instance-creation', value: new Date().toISOString() },
    ])
    .execute();

  // The trash is a real (hidden) collection so that archived items have a home.
  await db
    .insertInto('collection')
    .values({
      name: 'Trash',
      entity_id: newEntityId(),
      slug: 'trash',
      location: '/',
      type: 'trash',
      archived: false,
      is_sample: false,
      created_at: new Date().toISOString(),
    })
    .execute();
}
