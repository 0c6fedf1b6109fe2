// Scheduled sends: the `send-pulse` kind of the cluster-wide scheduler (src/tasks/scheduler.ts). One job per pulse
// and schedule — its enabled channels sharing a cron fire together, as Metabase's triggers do (key
// `<pulse-id>.<cron with spaces as _>`) — read in the report time zone (else the server's), never firing for a time
// before the channels were last changed or the report time zone was. Archived pulses and subscriptions of archived dashboards have no jobs.

import type { AppContext } from '../../context.js';
import { bool } from '../../appdb/portable.js';
import { registerScheduledJobs, type ScheduledJob } from '../../tasks/scheduler.js';
import { renderSettings } from '../render/index.js';
import { channelCron } from '../schedule.js';
import { findPulse, isArchived } from '../store.js';
import { sendPulse, throwForFailures } from './send-pulse.js';

export function jobKey(pulseId: number, cron: string): string {
  return `${pulseId}.${cron.trim().replace(/\s+/g, '_')}`;
}

function parseKey(key: string): { pulseId: number; cron: string } {
  const dot = key.indexOf('.');
  return { pulseId: Number(key.slice(0, dot)), cron: key.slice(dot + 1).replace(/_/g, ' ') };
}

async function pulseJobs(ctx: AppContext): Promise<ScheduledJob[]> {
  const rows = await ctx.db
    .selectFrom('pulse_channel')
    .innerJoin('pulse', 'pulse.id', 'pulse_channel.pulse_id')
    .leftJoin('report_dashboard', 'report_dashboard.id', 'pulse.dashboard_id')
    .select([
      'pulse_channel.id',
      'pulse_channel.pulse_id',
      'pulse_channel.schedule_type',
      'pulse_channel.schedule_hour',
      'pulse_channel.schedule_day',
      'pulse_channel.schedule_frame',
      'pulse_channel.cron_schedule',
      'pulse_channel.updated_at',
      'pulse.name',
      'pulse.alert_condition',
    ])
    .where('pulse_channel.enabled', '=', true)
    .where('pulse.archived', '=', false)
    .where((eb) => eb.or([eb('pulse.dashboard_id', 'is', null), eb('report_dashboard.archived', '=', false)]))
    .execute();
  const timezone = (await renderSettings(ctx)).timezone;
  // occurrences of the old time zone are not missed ones of the new
  const zoneChangedAt = (await ctx.settings.getString('report-timezone-changed-at')) ?? '';
  const jobs = new Map<string, ScheduledJob & { data: { 'pulse-id': number; 'channel-ids': number[] } }>();
  for (const row of rows) {
    const cron = channelCron(row);
    if (!cron) continue;
    const key = jobKey(row.pulse_id, cron);
    const job = jobs.get(key);
    if (job) {
      job.data['channel-ids'].push(row.id);
      if (String(job.since) < row.updated_at) job.since = row.updated_at;
      continue;
    }
    jobs.set(key, {
      key,
      cron,
      timezone,
      since: zoneChangedAt > row.updated_at ? zoneChangedAt : row.updated_at,
      description: `${row.alert_condition ? 'Alert' : 'Subscription'} ${row.pulse_id}${row.name ? ` (${row.name})` : ''}`,
      data: { 'pulse-id': row.pulse_id, 'channel-ids': [row.id] },
    });
  }
  return [...jobs.values()];
}

export function registerPulseSends(ctx: AppContext): void {
  registerScheduledJobs(ctx, {
    kind: 'send-pulse',
    description: 'Send dashboard subscriptions and alerts on their schedules.',
    list: pulseJobs,
    run: async (c, job) => {
      const { pulseId, cron } = parseKey(job.key);
      const loaded = await findPulse(c.db, pulseId);
      if (!loaded || isArchived(loaded.pulse)) {
        job.details.skipped = 'The subscription is gone or archived.';
        return;
      }
      const channelIds = loaded.channels.filter((ch) => bool(ch.enabled) && channelCron(ch)?.replace(/\s+/g, ' ') === cron).map((ch) => ch.id);
      if (!channelIds.length) {
        job.details.skipped = 'No enabled channel has this schedule any more.';
        return;
      }
      const outcome = await sendPulse(c, loaded, { channelIds, progress: job.progress, checkpoint: job.checkpoint, details: job.details, signal: job.signal });
      if (outcome.status === 'skipped') job.details.skipped = outcome.reason;
      throwForFailures(outcome);
    },
  });
}
