// Sections of the anonymous usage stats (and facts of the admin checklist) whose tables belong to modules this one
// doesn't know: subscriptions and alerts (`pulse`, `alert`), the result cache (`cache`). The module owning them
// registers a provider (`registerUsageSection`) returning Metabase's keys for its section; until one is registered
// there is nothing of the kind on this instance, and the section has Metabase's empty figures.

import type { AppContext } from '../context.js';

export type UsageSection = 'pulse' | 'alert' | 'cache';

type Provider = (ctx: AppContext) => Promise<Record<string, unknown>>;

const EMPTY: Record<UsageSection, Record<string, unknown>> = {
  pulse: { pulses: 0, with_table_cards: 0, pulse_types: {}, pulse_schedules: {}, num_pulses_per_user: {}, num_pulses_per_card: {}, num_cards_per_pulses: {} },
  alert: { alerts: 0, with_table_cards: 0, first_time_only: 0, above_goal: 0, alert_types: {}, num_alerts_per_user: {}, num_alerts_per_card: {}, num_cards_per_alerts: {} },
  cache: { average_entry_size: 0, num_queries_cached: '0', num_queries_cached_unbinned: 0 },
};

const providers = new Map<UsageSection, Provider>();

export function registerUsageSection(section: UsageSection, provider: Provider): void {
  providers.set(section, provider);
}

export async function usageSection(ctx: AppContext, section: UsageSection): Promise<Record<string, unknown>> {
  const provider = providers.get(section);
  return provider ? provider(ctx) : structuredClone(EMPTY[section]);
}
