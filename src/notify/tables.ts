import type { Generated } from 'kysely';

/** A dashboard subscription, a legacy card pulse, or (with `alert_condition`) an alert on one card. */
export interface PulseTable {
  id: Generated<number>;
  entity_id: string;
  name: string | null;
  creator_id: number;
  skip_if_empty: boolean | number;
  /** rows | goal (alerts); null for subscriptions */
  alert_condition: string | null;
  alert_first_only: boolean | number | null;
  alert_above_goal: boolean | number | null;
  collection_id: number | null;
  collection_position: number | null;
  archived: boolean | number;
  dashboard_id: number | null;
  /** JSON list of the subscription's filter values */
  parameters: string;
  created_at: string;
  updated_at: string;
}

export interface PulseCardTable {
  id: Generated<number>;
  entity_id: string;
  pulse_id: number;
  card_id: number;
  position: number;
  include_csv: boolean | number;
  include_xls: boolean | number;
  format_rows: boolean | number;
  pivot_results: boolean | number;
  dashboard_card_id: number | null;
}

export interface PulseChannelTable {
  id: Generated<number>;
  entity_id: string;
  pulse_id: number;
  /** email | slack | http */
  channel_type: string;
  /** JSON */
  details: string;
  schedule_type: string | null;
  schedule_hour: number | null;
  schedule_day: string | null;
  schedule_frame: string | null;
  /** A Quartz cron the schedule_* columns can't express (set through /api/notification). */
  cron_schedule: string | null;
  enabled: boolean | number;
  channel_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface PulseChannelRecipientTable {
  id: Generated<number>;
  pulse_channel_id: number;
  user_id: number;
}

/** A notification channel (`channel/http` webhooks). */
export interface ChannelTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  type: string;
  /** JSON (encrypted when an encryption key is set) */
  details: string;
  active: boolean | number;
  created_at: string;
  updated_at: string;
}

export interface NotifyTables {
  pulse: PulseTable;
  pulse_card: PulseCardTable;
  pulse_channel: PulseChannelTable;
  pulse_channel_recipient: PulseChannelRecipientTable;
  channel: ChannelTable;
}
