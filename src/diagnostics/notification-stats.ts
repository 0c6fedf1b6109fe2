// Figures about subscriptions and alerts for the anonymous stats and the admin checklist. Their tables belong to the
// notification module, which registers a provider here when it is present (`registerNotificationStats`); until one
// is registered there are none, and the figures are Metabase's empty ones.

import type { AppContext } from '../context.js';

export interface NotificationStats {
  /** Metabase's `stats.pulse` section: dashboard subscriptions. */
  pulse: {
    pulses: number;
    with_table_cards: number;
    pulse_types: Record<string, number>;
    pulse_schedules: Record<string, number>;
    num_pulses_per_user: Record<string, number>;
    num_pulses_per_card: Record<string, number>;
    num_cards_per_pulses: Record<string, number>;
  };
  /** Metabase's `stats.alert` section. */
  alert: {
    alerts: number;
    with_table_cards: number;
    first_time_only: number;
    above_goal: number;
    alert_types: Record<string, number>;
    num_alerts_per_user: Record<string, number>;
    num_alerts_per_card: Record<string, number>;
    num_cards_per_alerts: Record<string, number>;
  };
}

type Provider = (ctx: AppContext) => Promise<NotificationStats>;

let provider: Provider | null = null;

export function registerNotificationStats(p: Provider): void {
  provider = p;
}

const NONE: NotificationStats = {
  pulse: { pulses: 0, with_table_cards: 0, pulse_types: {}, pulse_schedules: {}, num_pulses_per_user: {}, num_pulses_per_card: {}, num_cards_per_pulses: {} },
  alert: { alerts: 0, with_table_cards: 0, first_time_only: 0, above_goal: 0, alert_types: {}, num_alerts_per_user: {}, num_alerts_per_card: {}, num_cards_per_alerts: {} },
};

export async function notificationStats(ctx: AppContext): Promise<NotificationStats> {
  return provider ? provider(ctx) : structuredClone(NONE);
}
