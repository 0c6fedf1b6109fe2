// The admin's view of settings (GET /api/setting): stored values, env overrides, defaults and descriptions.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden, notFound } from '../http/errors.js';
import { allSettings, envName, findSetting, visibleTo, type SettingDefinition } from './definition.js';

function obfuscate(value: unknown): unknown {
  if (typeof value !== 'string' || value.length === 0) return value;
  return '**********' + value.slice(-2);
}

async function listEntry(ctx: AppContext, definition: SettingDefinition) {
  const isEnv = ctx.settings.isEnvSetting(definition);
  const defaultValue = await ctx.settings.defaultValue(definition);
  let value: unknown = null;
  if (definition.getter) value = await definition.getter(ctx, null);
  else if (!isEnv) {
    const stored = await ctx.settings.storedValue(definition);
    value = stored === undefined || JSON.stringify(stored) === JSON.stringify(defaultValue) ? null : stored;
  }
  return {
    key: definition.key,
    value: definition.sensitive ? obfuscate(value) : value,
    is_env_setting: isEnv,
    env_name: envName(definition.key),
    description: definition.description,
    default: isEnv ? `Using value of env var $${envName(definition.key)}` : defaultValue,
    display_name: definition.displayName ?? null,
    type: definition.type,
  };
}

export async function adminSettingsList(ctx: AppContext, caller: Caller) {
  if (!caller.isSuperuser) throw forbidden();
  const definitions = allSettings().filter((d) => d.visibility !== 'internal' && !d.userLocal && !d.hideFromList);
  return Promise.all(definitions.map((d) => listEntry(ctx, d)));
}

/** GET /api/setting/:key: the bare value. Non-admins may read user-local and non-admin-visible settings. */
export async function readSetting(ctx: AppContext, caller: Caller, key: string): Promise<unknown> {
  const definition = findSetting(key);
  if (!definition || definition.visibility === 'internal') {
    throw caller.isSuperuser ? notFound() : forbidden();
  }
  const readable = caller.isSuperuser || definition.userLocal || visibleTo(definition.visibility, 'authenticated');
  if (!readable) throw forbidden();
  const value = await ctx.settings.valueOf(definition, caller);
  return definition.sensitive && caller.isSuperuser ? obfuscate(value) : definition.sensitive ? null : value;
}
