// A deactivated user (DELETE /api/user/:id) lets go of subscriptions and alerts, as in Metabase: those they created
// are archived (their channels off, so nothing is scheduled), and they leave the recipients of all others — in the
// transaction that deactivates them. Registered through the users module's hook, so src/users needs nothing of here.

import { nowIso } from '../appdb/portable.js';
import { onUserDeactivated } from '../users/users.js';

onUserDeactivated(async (_ctx, db, userId) => {
  const now = nowIso();
  const created = db.selectFrom('pulse').select('id').where('creator_id', '=', userId);
  await db.updateTable('pulse_channel').set({ enabled: false, updated_at: now }).where('pulse_id', 'in', created).where('enabled', '=', true).execute();
  await db.updateTable('pulse').set({ archived: true, updated_at: now }).where('creator_id', '=', userId).where('archived', '=', false).execute();
  await db.deleteFrom('pulse_channel_recipient').where('user_id', '=', userId).execute();
});
