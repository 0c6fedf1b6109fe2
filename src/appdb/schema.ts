// The app database's tables, composed from the table types each domain module declares for itself.
import type { UserTables } from '../users/tables.js';
import type { SettingTables } from '../settings/tables.js';
import type { CollectionTables } from '../collections/tables.js';
import type { TaskTables } from '../tasks/tables.js';
import type { DatabaseTables } from '../databases/tables.js';

export interface DB extends UserTables, SettingTables, CollectionTables, TaskTables, DatabaseTables {}
