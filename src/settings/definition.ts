// What a setting is. Modules declare their settings with `defineSetting` (see ./definitions.ts for the core set);
// the store (./store.ts) reads and writes them, with environment variables taking precedence.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';

export type SettingType = 'string' | 'boolean' | 'integer' | 'double' | 'json' | 'keyword' | 'timestamp' | 'csv';

/** Who can read a setting (and, for admin listing, write it): Metabase's visibility levels. */
export type Visibility = 'public' | 'authenticated' | 'settings-manager' | 'admin' | 'internal';

export interface SettingDefinition {
  key: string;
  type: SettingType;
  visibility: Visibility;
  description: string;
  displayName?: string;
  /** The value when nothing is stored and no env var is set. A function is evaluated per read. */
  default?: unknown | ((ctx: AppContext) => unknown);
  /** Derived settings compute their value (and cannot be set through the API). */
  getter?: (ctx: AppContext, caller: Caller | null) => unknown | Promise<unknown>;
  /** Read-only settings reject writes with Metabase's "read-only setting" message. */
  readOnly?: boolean;
  /** Obfuscated when listed (`**********` + last 2 characters). */
  sensitive?: boolean;
  /** 'only': stored per user; 'allowed': a site value any user may override for themselves. */
  userLocal?: 'only' | 'allowed';
  /**
   * Integer and double settings: the values accepted (inclusive bounds; 'positive' is > 0), checked with the type for
   * API writes and MB_* variables alike.
   */
  range?: { min?: number | 'positive'; max?: number };
  /** Normalizes a value before it is stored, or throws an ApiError. */
  validate?: (value: unknown, ctx: AppContext) => unknown;
  /** Runs after a value is stored (or deleted). */
  onChange?: (ctx: AppContext, value: unknown) => void | Promise<void>;
  /** Leave out of the admin's `GET /api/setting` list. */
  hideFromList?: boolean;
}

const registry = new Map<string, SettingDefinition>();

export function defineSetting(definition: SettingDefinition): SettingDefinition {
  registry.set(definition.key, definition);
  return definition;
}

export function findSetting(key: string): SettingDefinition | undefined {
  return registry.get(key);
}

export function allSettings(): SettingDefinition[] {
  return [...registry.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** `MB_` + upper-cased key with `-` → `_` and a trailing `?` dropped. */
export function envName(key: string): string {
  return 'MB_' + key.replace(/\?$/, '').replace(/-/g, '_').toUpperCase();
}

const VISIBILITY_RANK: Record<Visibility, number> = {
  public: 0,
  authenticated: 1,
  'settings-manager': 2,
  admin: 3,
  internal: 4,
};

export function visibleTo(visibility: Visibility, level: Visibility): boolean {
  return VISIBILITY_RANK[visibility] <= VISIBILITY_RANK[level];
}
