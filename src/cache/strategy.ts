// Cache strategies (reference §12.2): what the API accepts and returns, and how a stored `cache_config` row reads.
// All four of Metabase's strategies are available here — `duration` and `schedule` are paid features in Metabase
// and free in Quarry, so nothing answers 402.
//
//   {"type": "nocache"}
//   {"type": "ttl", "multiplier": 10, "min_duration_ms": 1000}                 adaptive: multiplier × average run time
//   {"type": "duration", "duration": 24, "unit": "hours", "refresh_automatically": false}
//   {"type": "schedule", "schedule": "0 0 * * * ? *", "refresh_automatically": false}   valid until the next fire

import type { Issue, ParseResult, Schema } from '../http/schema.js';
import { parseJson } from '../appdb/portable.js';
import { bool } from '../appdb/portable.js';
import { isValidCron } from '../tasks/cron.js';

/** What a policy is attached to (most specific last); the query engine's cache stage resolves them in reverse. */
export const CACHE_MODELS = ['root', 'database', 'dashboard', 'question'] as const;
export type CacheModel = (typeof CACHE_MODELS)[number];

export const STRATEGY_TYPES = ['nocache', 'ttl', 'duration', 'schedule'] as const;
export type StrategyType = (typeof STRATEGY_TYPES)[number];
export const DURATION_UNITS = ['hours', 'minutes', 'seconds', 'days'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

export type Strategy =
  | { type: 'nocache' }
  | { type: 'ttl'; multiplier: number; min_duration_ms: number }
  | { type: 'duration'; duration: number; unit: DurationUnit; refresh_automatically: boolean }
  | { type: 'schedule'; schedule: string; refresh_automatically: boolean };

/** Metabase's default root policy when none is configured: adaptive, 10 × the average run, runs of 1 s or more. */
export const DEFAULT_ROOT_STRATEGY: Strategy = { type: 'ttl', multiplier: 10, min_duration_ms: 1000 };

export const UNIT_MS: Record<DurationUnit, number> = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

const POS_INT = 'value must be an integer greater than zero.';
const NAT_INT = 'value must be an integer greater or equal to zero.';
const CRON = 'value must be a valid Quartz cron schedule string.';
const DESCRIPTION =
  'map where {:type -> <enum of :nocache, :ttl, :duration, :schedule>} and one of <:nocache = map where {:type -> <keyword>} | ' +
  ':ttl = map where {:type -> <must equal :ttl>, :multiplier -> <value must be an integer greater than zero.>, :min_duration_ms -> ' +
  '<value must be an integer greater or equal to zero.>} with no other keys | :duration = map where {:type -> <must equal :duration>, ' +
  ':duration -> <value must be an integer greater than zero.>, :unit -> <enum of hours, minutes, seconds, days>, ' +
  ':refresh_automatically (optional) -> <nullable boolean>} with no other keys | :schedule = map where {:type -> <must equal :schedule>, ' +
  ':schedule -> <value must be a valid Quartz cron schedule string.>, :refresh_automatically (optional) -> <nullable boolean>} ' +
  'with no other keys> dispatched by :type';

const KEYS: Record<StrategyType, readonly string[]> = {
  nocache: ['type'],
  ttl: ['type', 'multiplier', 'min_duration_ms'],
  duration: ['type', 'duration', 'unit', 'refresh_automatically'],
  schedule: ['type', 'schedule', 'refresh_automatically'],
};

/** A Quartz cron string: 6 or 7 fields, exactly one of day-of-month and day-of-week left open with `?`. */
function quartzSchedule(expression: string): boolean {
  const fields = expression.trim().split(/\s+/);
  if (fields.length < 6 || fields.length > 7 || (fields[3] === '?') === (fields[5] === '?')) return false;
  return isValidCron(expression);
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2_147_483_647;

/** Validates a strategy map as PUT /api/cache takes it (closed maps, as Metabase's schema). */
function parseStrategy(value: unknown): ParseResult<Strategy> {
  const issues: Issue[] = [];
  const issue = (path: string[], message: string, received: unknown) => issues.push({ path, message, received, description: DESCRIPTION });
  if (value === undefined) return { ok: false, issues: [{ path: [], message: 'missing required key', received: undefined, description: DESCRIPTION }] };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, issues: [{ path: [], message: 'Value must be a map.', received: value, description: DESCRIPTION }] };
  }
  const input = value as Record<string, unknown>;
  const type = input.type;
  if (typeof type !== 'string' || !(STRATEGY_TYPES as readonly string[]).includes(type)) {
    issue(['type'], `should be either ${STRATEGY_TYPES.join(', ')}`, type);
    return { ok: false, issues };
  }
  const t = type as StrategyType;
  if (t !== 'nocache') {
    for (const key of Object.keys(input)) if (!KEYS[t].includes(key)) issue([key], 'disallowed key', input[key]);
  }
  const refresh = input.refresh_automatically;
  if (refresh !== undefined && refresh !== null && typeof refresh !== 'boolean') issue(['refresh_automatically'], 'should be a boolean', refresh);
  switch (t) {
    case 'nocache':
      break;
    case 'ttl':
      if (!isInt(input.multiplier) || input.multiplier < 1) issue(['multiplier'], input.multiplier === undefined ? 'missing required key' : POS_INT, input.multiplier);
      if (!isInt(input.min_duration_ms) || input.min_duration_ms < 0) {
        issue(['min_duration_ms'], input.min_duration_ms === undefined ? 'missing required key' : NAT_INT, input.min_duration_ms);
      }
      break;
    case 'duration':
      if (!isInt(input.duration) || input.duration < 1) issue(['duration'], input.duration === undefined ? 'missing required key' : POS_INT, input.duration);
      if (typeof input.unit !== 'string' || !(DURATION_UNITS as readonly string[]).includes(input.unit)) {
        issue(['unit'], input.unit === undefined ? 'missing required key' : `should be either ${DURATION_UNITS.join(', ')}`, input.unit);
      }
      break;
    case 'schedule':
      if (typeof input.schedule !== 'string' || !quartzSchedule(input.schedule)) issue(['schedule'], input.schedule === undefined ? 'missing required key' : CRON, input.schedule);
      break;
  }
  if (issues.length) return { ok: false, issues };
  return { ok: true, value: strategyFrom(t, input) };
}

function strategyFrom(type: StrategyType, input: Record<string, unknown>): Strategy {
  const refresh = input.refresh_automatically === true;
  switch (type) {
    case 'nocache':
      return { type };
    case 'ttl':
      return { type, multiplier: Number(input.multiplier), min_duration_ms: Number(input.min_duration_ms) };
    case 'duration':
      return { type, duration: Number(input.duration), unit: input.unit as DurationUnit, refresh_automatically: refresh };
    case 'schedule':
      return { type, schedule: String(input.schedule).trim(), refresh_automatically: refresh };
  }
}

/** The `strategy` body key of PUT /api/cache. */
export const strategySchema: Schema<Strategy> = { description: DESCRIPTION, isOptional: false, parse: (value) => parseStrategy(value) };

/** A stored row's strategy (a row that no longer parses — edited by hand — reads as `nocache`). */
export function strategyOfRow(row: { strategy: string; config: string; refresh_automatically: boolean | number }): Strategy {
  const config = parseJson<Record<string, unknown>>(row.config, {});
  const parsed = parseStrategy({ ...config, type: row.strategy, ...(row.strategy === 'duration' || row.strategy === 'schedule' ? { refresh_automatically: bool(row.refresh_automatically) } : {}) });
  return parsed.ok ? parsed.value : { type: 'nocache' };
}

/** The columns a strategy is stored as. */
export function rowOfStrategy(strategy: Strategy): { strategy: string; config: string; refresh_automatically: boolean } {
  const { type, ...rest } = strategy as Strategy & { refresh_automatically?: boolean };
  const { refresh_automatically, ...config } = rest;
  return { strategy: type, config: JSON.stringify(config), refresh_automatically: refresh_automatically === true };
}
