// Data permissions follow groups: a new group starts with the defaults of a new group on every database, a deleted
// group's permissions go with it. (Databases call `grantNewDatabasePermissions` themselves when they are added.)

import { onGroupCreated, onGroupDeleted } from '../users/groups.js';
import { dropGroupPermissions, grantNewGroupPermissions } from './data-store.js';

onGroupCreated((_ctx, db, groupId) => grantNewGroupPermissions(db, groupId));
onGroupDeleted((_ctx, db, groupId) => dropGroupPermissions(db, groupId));
