// The vocabulary of data permissions (reference §9.1): the five kinds, their values from least to most
// permissive, and which of them may be set per schema or table.

export const PERM_TYPES = ['view-data', 'create-queries', 'download', 'data-model', 'details'] as const;
export type PermType = (typeof PERM_TYPES)[number];

/** Values of each kind, least permissive first. */
export const LEVELS: Record<PermType, readonly string[]> = {
  'view-data': ['blocked', 'legacy-no-self-service', 'unrestricted'],
  'create-queries': ['no', 'query-builder', 'query-builder-and-native'],
  download: ['none', 'limited', 'full'],
  'data-model': ['none', 'all'],
  details: ['no', 'yes'],
};

/** Kinds that may differ per schema or table (`details` is per database only). */
export const GRANULAR: ReadonlySet<PermType> = new Set(['view-data', 'create-queries', 'download', 'data-model']);

/** Values that only make sense for a whole database (native SQL reads any table). */
export const DATABASE_ONLY_VALUES: Record<PermType, ReadonlySet<string>> = {
  'view-data': new Set(),
  'create-queries': new Set(['query-builder-and-native']),
  download: new Set(),
  'data-model': new Set(),
  details: new Set(),
};

/** Enterprise-only view-data values, answered with 402 in this edition. */
export const PAID_VIEW_DATA = new Set(['sandboxed', 'impersonated']);

/** `limited` downloads stop at this many rows. */
export const LIMITED_DOWNLOAD_ROWS = 10_000;

export function rank(type: PermType, value: string): number {
  return LEVELS[type].indexOf(value);
}

export function least(type: PermType): string {
  return LEVELS[type][0];
}

export function most(type: PermType): string {
  const levels = LEVELS[type];
  return levels[levels.length - 1];
}

export function isValue(type: PermType, value: unknown): value is string {
  return typeof value === 'string' && LEVELS[type].includes(value);
}

export function maxValue(type: PermType, a: string, b: string): string {
  return rank(type, a) >= rank(type, b) ? a : b;
}

export function minValue(type: PermType, a: string, b: string): string {
  return rank(type, a) <= rank(type, b) ? a : b;
}

export function atLeast(type: PermType, value: string, minimum: string): boolean {
  return rank(type, value) >= rank(type, minimum);
}

/**
 * What a table that has no row of its own gets in a database whose permissions are per table (a table synced after
 * the permissions were set): the value the rest of its schema shares, else this.
 */
export function newTableDefault(type: PermType): string {
  return type === 'view-data' ? 'unrestricted' : least(type);
}

/** The least-permissive value of a kind is left out of the graph — except view-data, which is always shown. */
export function omittedFromGraph(type: PermType, value: string): boolean {
  return type !== 'view-data' && value === least(type);
}
