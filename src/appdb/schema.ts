// The app database's tables, composed from the table types each domain module declares for itself.
import type { UserTables } from '../users/tables.js';
import type { SettingTables } from '../settings/tables.js';
import type { CollectionTables } from '../collections/tables.js';
import type { TaskTables } from '../tasks/tables.js';
import type { DatabaseTables } from '../databases/tables.js';
import type { CardTables } from '../cards/tables.js';
import type { DashboardTables } from '../dashboards/tables.js';
import type { CollectionPermissionTables } from '../permissions/collection-tables.js';
import type { RevisionTables } from '../revisions/tables.js';
import type { SnippetTables } from '../snippets/tables.js';
import type { TimelineTables } from '../timelines/tables.js';
import type { ActivityTables } from '../activity/tables.js';
import type { BookmarkTables } from '../bookmarks/tables.js';
import type { QueryTables } from '../query/executions/tables.js';
import type { DataPermissionTables } from '../permissions/data-tables.js';
import type { ActionTables } from '../actions/tables.js';
import type { SegmentTables } from '../segments/tables.js';
import type { AppLockTables } from './lock-tables.js';
import type { ModelIndexTables } from '../model-index/tables.js';
import type { NotifyTables } from '../notify/tables.js';
import type { CacheTables } from '../cache/tables.js';
import type { PersistenceTables } from '../persistence/tables.js';
import type { AssistantTables } from '../assistant/tables.js';

export interface DB extends UserTables, SettingTables, CollectionTables, TaskTables, DatabaseTables {}
// Cards, collections and their companions (issue 5); interface merging keeps each area's line separate.
export interface DB extends CardTables, DashboardTables, CollectionPermissionTables, RevisionTables {}
export interface DB extends SnippetTables, TimelineTables, ActivityTables, BookmarkTables {}
// The query engine's execution log (issue 4).
export interface DB extends QueryTables {}
// Data permissions and their graph revisions (issue 7).
export interface DB extends DataPermissionTables {}
// Actions on models.
export interface DB extends ActionTables {}
// Segments (named filters on tables).
export interface DB extends SegmentTables {}
// Model indexes (indexed entities of models, found by search).
export interface DB extends ModelIndexTables {}
// The result cache: policies and stored results.
export interface DB extends CacheTables {}
// Persisted models (model caching).
export interface DB extends PersistenceTables {}
// Rows locked to serialize read-then-write transactions on MySQL (./locks.ts).
export interface DB extends AppLockTables {}
// Subscriptions, alerts and notification channels.
export interface DB extends NotifyTables {}
// Feedback on the assistant's answers.
export interface DB extends AssistantTables {}
