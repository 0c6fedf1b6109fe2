// Reading pulses with their cards, channels and user recipients: one query per kind of row, for any number of
// pulses. An alert is a pulse with an `alert_condition`.

import type { Selectable } from 'kysely';
import type { Db } from '../appdb/portable.js';
import { bool, parseJson } from '../appdb/portable.js';
import type { ChannelTable, PulseCardTable, PulseChannelTable, PulseTable } from './tables.js';

export type PulseRow = Selectable<PulseTable>;
export type PulseCardRow = Selectable<PulseCardTable>;
export type PulseChannelRow = Selectable<PulseChannelTable>;
export type ChannelRow = Selectable<ChannelTable>;

export interface LoadedChannel extends PulseChannelRow {
  userIds: number[];
}

export interface LoadedPulse {
  pulse: PulseRow;
  /** In position order. */
  cards: PulseCardRow[];
  /** In id order. */
  channels: LoadedChannel[];
}

export function isAlert(pulse: Pick<PulseRow, 'alert_condition'>): boolean {
  return pulse.alert_condition !== null && pulse.alert_condition !== undefined;
}

/** Raw addresses a channel sends to (kept in its details). */
export function channelEmails(channel: Pick<PulseChannelRow, 'details'>): string[] {
  const emails = parseJson<{ emails?: unknown }>(channel.details, {}).emails;
  return Array.isArray(emails) ? emails.filter((e): e is string => typeof e === 'string') : [];
}

/** A channel's details without the raw addresses (those are shown as recipients). */
export function channelDetails(channel: Pick<PulseChannelRow, 'details'>): Record<string, unknown> {
  const { emails: _emails, ...rest } = parseJson<Record<string, unknown>>(channel.details, {});
  return rest;
}

export async function loadPulses(db: Db, ids: number[]): Promise<LoadedPulse[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const [pulses, cards, channels] = await Promise.all([
    db.selectFrom('pulse').selectAll().where('id', 'in', unique).execute(),
    db.selectFrom('pulse_card').selectAll().where('pulse_id', 'in', unique).orderBy('position').orderBy('id').execute(),
    db.selectFrom('pulse_channel').selectAll().where('pulse_id', 'in', unique).orderBy('id').execute(),
  ]);
  const recipients = channels.length
    ? await db.selectFrom('pulse_channel_recipient').select(['pulse_channel_id', 'user_id']).where('pulse_channel_id', 'in', channels.map((c) => c.id)).orderBy('id').execute()
    : [];
  const usersOf = new Map<number, number[]>();
  for (const r of recipients) usersOf.set(r.pulse_channel_id, [...(usersOf.get(r.pulse_channel_id) ?? []), r.user_id]);
  const byId = new Map(pulses.map((p) => [p.id, { pulse: p, cards: [] as PulseCardRow[], channels: [] as LoadedChannel[] }]));
  for (const c of cards) byId.get(c.pulse_id)?.cards.push(c);
  for (const c of channels) byId.get(c.pulse_id)?.channels.push({ ...c, userIds: usersOf.get(c.id) ?? [] });
  return unique.map((id) => byId.get(id)).filter((p): p is LoadedPulse => p !== undefined);
}

export async function findPulse(db: Db, id: number): Promise<LoadedPulse | undefined> {
  return (await loadPulses(db, [id]))[0];
}

export function isRecipient(loaded: LoadedPulse, userId: number): boolean {
  return loaded.channels.some((c) => c.userIds.includes(userId));
}

export function isArchived(pulse: Pick<PulseRow, 'archived'>): boolean {
  return bool(pulse.archived);
}
