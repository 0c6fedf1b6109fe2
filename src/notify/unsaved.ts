// Pulses that are never stored — a test send, a preview, an unsaved notification — built in the shape the send code
// reads (negative ids for their channels: nothing in the app DB has them).

import { nowIso } from '../appdb/portable.js';
import type { LoadedPulse } from './store.js';
import type { CardRef, ChannelInput, PulseValues } from './write.js';

export function unsavedPulse(values: PulseValues, cards: CardRef[], channels: ChannelInput[]): LoadedPulse {
  const now = nowIso();
  return {
    pulse: { id: 0, entity_id: '', ...values, parameters: JSON.stringify(values.parameters ?? []), archived: false, created_at: now, updated_at: now },
    cards: cards.map((c, position) => ({ id: -(position + 1), entity_id: '', pulse_id: 0, position, ...c })),
    channels: channels.map((c, i) => ({
      id: -(i + 1),
      entity_id: '',
      pulse_id: 0,
      channel_type: c.channel_type,
      details: JSON.stringify({ ...c.details, ...(c.recipients.emails.length ? { emails: c.recipients.emails } : {}) }),
      schedule_type: c.schedule?.schedule_type ?? null,
      schedule_hour: c.schedule?.schedule_hour ?? null,
      schedule_day: c.schedule?.schedule_day ?? null,
      schedule_frame: c.schedule?.schedule_frame ?? null,
      cron_schedule: c.cron_schedule,
      enabled: true,
      channel_id: c.channel_id,
      created_at: now,
      updated_at: now,
      userIds: c.recipients.userIds,
    })),
  };
}
