// Reads and writes settings. Precedence: derived getter > user-local value > MB_* env var > stored value > default.
// Stored values are cached in memory and re-read after a short interval, so a change made on one instance of a
// cluster reaches the others within a second.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, forbidden, messageError } from '../http/errors.js';
import { readJson, TOO_DEEP } from '../http/schema.js';
import { allSettings, findSetting, envName, type SettingDefinition, type SettingType } from './definition.js';
import { parseJson, type Db } from '../appdb/portable.js';
import { ConfigurationError } from '../config.js';

const REFRESH_MS = 1000;

interface WritePlan {
  scope: 'site' | 'user' | 'none';
  definition: SettingDefinition;
  normalized: unknown;
  raw: string | null;
}

/** Settings writes checked by `prepare`, to be stored by `write` and announced by `committed`. */
export interface PreparedWrites {
  caller: Caller | null;
  plans: WritePlan[];
  userSettings?: Record<string, unknown>;
}

export function parseStored(type: SettingType, raw: string): unknown {
  switch (type) {
    case 'boolean':
      return raw.toLowerCase() === 'true';
    case 'integer': {
      const n = Number.parseInt(raw, 10);
      return Number.isFinite(n) ? n : null;
    }
    case 'double': {
      const n = Number.parseFloat(raw);
      return Number.isFinite(n) ? n : null;
    }
    case 'json':
      return parseJson(raw, null);
    case 'csv':
      return raw.split(',').map((s) => s.trim()).filter(Boolean);
    default:
      return raw;
  }
}

function serialize(type: SettingType, value: unknown): string {
  if (type === 'json') return JSON.stringify(value);
  if (type === 'csv' && Array.isArray(value)) return value.join(',');
  return String(value);
}

function invalid(key: string, message: string): ApiError {
  return messageError(400, message, { errors: { value: message }, key });
}

/** What a number setting must be, in words: "a positive integer", "an integer from 1 to 65535". */
function numberRule(definition: SettingDefinition): string {
  const [a, noun] = definition.type === 'integer' ? ['an', 'integer'] : ['a', 'number'];
  const { min, max } = definition.range ?? {};
  if (min === 'positive') return max === undefined ? `a positive ${noun}` : `a positive ${noun} up to ${max}`;
  if (min !== undefined && max !== undefined) return `${a} ${noun} from ${min} to ${max}`;
  if (min === 0) return `a non-negative ${noun}`;
  if (min !== undefined) return `${a} ${noun} of at least ${min}`;
  if (max !== undefined) return `${a} ${noun} of at most ${max}`;
  return `${a} ${noun}`;
}

function inRange(definition: SettingDefinition, n: number): boolean {
  const { min, max } = definition.range ?? {};
  if (min === 'positive' ? !(n > 0) : min !== undefined && n < min) return false;
  return max === undefined || n <= max;
}

/** Coerces an API-supplied value to the setting's type (and range), or throws a 400. */
function coerce(definition: SettingDefinition, value: unknown): unknown {
  const { key, type } = definition;
  switch (type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      throw invalid(key, `Invalid value for ${key}: must be a boolean.`);
    case 'integer':
    case 'double': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      const ok = typeof n === 'number' && (type === 'integer' ? Number.isSafeInteger(n) : Number.isFinite(n));
      if (ok && inRange(definition, n)) return n;
      throw invalid(key, `Invalid value for ${key}: must be ${numberRule(definition)}.`);
    }
    case 'json':
      if (typeof value === 'string') {
        const read = readJson(value);
        if ('value' in read) return read.value;
        throw invalid(key, read.problem === 'too-deep' ? `Invalid value for ${key}: ${TOO_DEEP}.` : `Invalid value for ${key}: must be valid JSON.`);
      }
      return value;
    case 'csv':
      if (Array.isArray(value)) return value.map(String);
      if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
      throw invalid(key, `Invalid value for ${key}: must be a list.`);
    default:
      // Metabase's string (and keyword) settings take strings only: 123 is refused, not stored as "123".
      if (typeof value === 'string') return value;
      throw invalid(key, `Invalid value for ${key}: must be a string.`);
  }
}

export class SettingsStore {
  private values = new Map<string, string>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /** `MB_*` values checked and normalized by validateEnvironment. */
  private envValues: Map<string, unknown> | null = null;

  constructor(private readonly ctx: AppContext) {}

  async refresh(): Promise<void> {
    const rows = await this.ctx.db.selectFrom('setting').select(['key', 'value']).execute();
    const next = new Map<string, string>();
    for (const row of rows) if (row.value !== null) next.set(row.key, row.value);
    this.values = next;
    this.loadedAt = Date.now();
  }

  private async fresh(): Promise<void> {
    if (Date.now() - this.loadedAt < REFRESH_MS) return;
    this.loading ??= this.refresh().finally(() => {
      this.loading = null;
    });
    await this.loading;
  }

  envValue(definition: SettingDefinition): unknown | undefined {
    if (this.envValues?.has(definition.key)) return this.envValues.get(definition.key);
    // Start-up validation kept every environment value of the settings without a getter: no need to look again.
    if (this.envValues && !definition.getter) return undefined;
    const raw = this.ctx.config.env[envName(definition.key)];
    return raw === undefined || raw === '' ? undefined : parseStored(definition.type, raw);
  }

  isEnvSetting(definition: SettingDefinition): boolean {
    return this.envValue(definition) !== undefined;
  }

  async defaultValue(definition: SettingDefinition): Promise<unknown> {
    const d = definition.default;
    return typeof d === 'function' ? await (d as (ctx: AppContext) => unknown)(this.ctx) : (d ?? null);
  }

  /** The value stored in the app DB (not env, not default), or undefined. */
  async storedValue(definition: SettingDefinition): Promise<unknown | undefined> {
    await this.fresh();
    const raw = this.values.get(definition.key);
    return raw === undefined ? undefined : parseStored(definition.type, raw);
  }

  async get(key: string, caller: Caller | null = null): Promise<unknown> {
    const definition = findSetting(key);
    if (!definition) return null;
    return this.valueOf(definition, caller);
  }

  async valueOf(definition: SettingDefinition, caller: Caller | null = null): Promise<unknown> {
    if (definition.getter) return definition.getter(this.ctx, caller);
    if (definition.userLocal && caller) {
      const own = caller.user.settings[definition.key];
      if (own !== undefined) return own;
      if (definition.userLocal === 'only') return this.defaultValue(definition);
    }
    const fromEnv = this.envValue(definition);
    if (fromEnv !== undefined) return fromEnv;
    const stored = await this.storedValue(definition);
    if (stored !== undefined && stored !== null) return stored;
    return this.defaultValue(definition);
  }

  async getString(key: string): Promise<string | null> {
    const v = await this.get(key);
    return v === null || v === undefined ? null : String(v);
  }

  async getBoolean(key: string): Promise<boolean> {
    return (await this.get(key)) === true;
  }

  async getNumber(key: string): Promise<number | null> {
    const v = await this.get(key);
    return typeof v === 'number' ? v : null;
  }

  /**
   * Writes a setting on behalf of a caller (null caller = the system). A null value deletes it.
   * Non-admins may only write user-local settings, which are stored on their own user row.
   */
  async set(key: string, value: unknown, caller: Caller | null): Promise<void> {
    await this.setMany({ [key]: value }, caller);
  }

  /** Writes several settings at once: every value is checked before any is written, then all in one transaction. */
  async setMany(updates: Record<string, unknown>, caller: Caller | null): Promise<void> {
    const prepared = this.prepare(updates, caller);
    await this.ctx.db.transaction().execute((trx) => this.write(trx, prepared));
    await this.committed(prepared);
  }

  /**
   * Checks and normalizes settings writes without writing anything (throws the first bad value's error). With
   * `write` inside a caller's transaction and `committed` after it, settings change together with other rows
   * (first-time setup) or not at all.
   */
  prepare(updates: Record<string, unknown>, caller: Caller | null): PreparedWrites {
    return { caller, plans: Object.entries(updates).map(([key, value]) => this.plan(key, value, caller)) };
  }

  /** Stores prepared settings in the given transaction. */
  async write(trx: Db, prepared: PreparedWrites): Promise<void> {
    const { caller, plans } = prepared;
    for (const plan of plans.filter((p) => p.scope === 'site')) {
      await trx.deleteFrom('setting').where('key', '=', plan.definition.key).execute();
      if (plan.raw !== null) await trx.insertInto('setting').values({ key: plan.definition.key, value: plan.raw }).execute();
    }
    const userWrites = plans.filter((p) => p.scope === 'user');
    if (userWrites.length && caller) {
      const row = await trx.selectFrom('core_user').select('settings').where('id', '=', caller.user.id).executeTakeFirst();
      const settings = parseJson<Record<string, unknown>>(row?.settings, {});
      for (const plan of userWrites) {
        if (plan.normalized === null) delete settings[plan.definition.key];
        else settings[plan.definition.key] = plan.normalized;
      }
      await trx.updateTable('core_user').set({ settings: JSON.stringify(settings) }).where('id', '=', caller.user.id).execute();
      prepared.userSettings = settings;
    }
  }

  /** After the transaction that wrote them commits: the cache, the caller's own settings and change hooks. */
  async committed(prepared: PreparedWrites): Promise<void> {
    const siteWrites = prepared.plans.filter((p) => p.scope === 'site');
    if (prepared.userSettings && prepared.caller) prepared.caller.user.settings = prepared.userSettings;
    for (const plan of siteWrites) {
      if (plan.raw === null) this.values.delete(plan.definition.key);
      else this.values.set(plan.definition.key, plan.raw);
    }
    for (const plan of siteWrites) {
      if (plan.definition.onChange) await plan.definition.onChange(this.ctx, plan.normalized);
    }
  }

  private plan(key: string, value: unknown, caller: Caller | null): WritePlan {
    const definition = findSetting(key);
    const isAdmin = caller === null || caller.isSuperuser;
    if (!definition || (definition.visibility === 'internal' && caller !== null)) {
      if (!isAdmin) throw forbidden();
      throw messageError(400, `Unknown setting: ${key}`, { errors: { key: `Unknown setting: ${key}` } });
    }
    if (definition.userLocal) {
      if (!caller) throw messageError(400, `${key} is a user-local setting.`);
      const normalized = value === null || value === undefined ? null : coerce(definition, value);
      return { scope: 'user', definition, normalized, raw: null };
    }
    if (!isAdmin) throw forbidden();
    if (definition.getter || definition.readOnly) {
      throw messageError(400, `You cannot set ${key}; it is a read-only setting.`);
    }
    if (this.isEnvSetting(definition)) {
      throw messageError(400, `You cannot set ${key}; its value is set by the environment variable ${envName(key)}.`);
    }
    let normalized: unknown = value === null || value === undefined ? null : coerce(definition, value);
    // As in Metabase, an empty string clears a string setting (back to its default).
    if (normalized === '' && (definition.type === 'string' || definition.type === 'keyword')) normalized = null;
    // Writing back an obfuscated sensitive value ("**********ab") means "unchanged".
    if (definition.sensitive && typeof normalized === 'string' && /^\*{10}.{0,2}$/.test(normalized)) {
      return { scope: 'none', definition, normalized, raw: null };
    }
    if (normalized !== null && definition.validate) normalized = definition.validate(normalized, this.ctx);
    const raw = normalized === null ? null : serialize(definition.type, normalized);
    // PostgreSQL text can't hold NUL (JSON values escape it; plain strings would carry it raw).
    if (raw?.includes('\u0000')) throw invalid(key, `Invalid value for ${key}: must not contain NUL characters.`);
    return { scope: 'site', definition, normalized, raw };
  }

  /**
   * Checks every `MB_<SETTING>` environment value as an API write would be checked (type, then the setting's own
   * validation) and keeps the normalized values. Run once at start-up: a bad value stops the server with a message
   * naming the variable, rather than being used (an unusable embedding key) or silently ignored.
   */
  validateEnvironment(): void {
    const problems: string[] = [];
    const normalized = new Map<string, unknown>();
    for (const definition of allSettings()) {
      const name = envName(definition.key);
      const raw = this.ctx.config.env[name];
      if (raw === undefined || raw === '' || definition.getter) continue;
      try {
        let value = coerce(definition, raw);
        if (definition.validate) value = definition.validate(value, this.ctx);
        normalized.set(definition.key, value);
      } catch (error) {
        const message = error instanceof ApiError ? error.message : String(error);
        problems.push(`${name}: ${message}`);
      }
    }
    if (problems.length) throw new ConfigurationError(`Invalid setting values in the environment:\n  ${problems.join('\n  ')}`);
    this.envValues = normalized;
  }

  /** Stores a raw value without API checks (for the server's own bookkeeping). */
  async writeStored(key: string, raw: string | null): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('setting').where('key', '=', key).execute();
      if (raw !== null) await trx.insertInto('setting').values({ key, value: raw }).execute();
    });
    if (raw === null) this.values.delete(key);
    else this.values.set(key, raw);
  }
}
