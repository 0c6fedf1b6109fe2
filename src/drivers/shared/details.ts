// Typed, allow-listed connection details. Each driver declares the keys it accepts and their types; whatever a
// client sends is reduced to exactly those keys with those types. Nothing unknown — no URL, no option string, no
// driver flag — ever reaches a driver, so a crafted `details` map can't switch on features we didn't choose.

import type { ConnectionDetails } from '../driver.js';
import { messageError } from '../../http/errors.js';

export type DetailKind = 'string' | 'password' | 'integer' | 'boolean' | 'enum' | 'string-list';

export interface DetailSpec {
  name: string;
  kind: DetailKind;
  required?: boolean;
  default?: string | number | boolean | null;
  /** For 'enum'. */
  values?: readonly string[];
  /** For 'integer'. */
  min?: number;
  max?: number;
  /** For 'string': longest accepted value. */
  maxLength?: number;
  /** Other names clients use for the same key (e.g. `db` for `dbname`). */
  aliases?: readonly string[];
}

/** Keys the Metabase UI keeps inside `details` for its own form state; harmless, kept so a round trip is lossless. */
export const UI_DETAILS: DetailSpec[] = [
  { name: 'advanced-options', kind: 'boolean' },
  { name: 'let-user-control-scheduling', kind: 'boolean' },
];

export function detailError(field: string, message: string) {
  return messageError(400, message, { errors: { [field]: message } });
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function parseOne(spec: DetailSpec, value: unknown): string | number | boolean | string[] {
  switch (spec.kind) {
    case 'string':
    case 'password': {
      if (typeof value !== 'string' && typeof value !== 'number') throw detailError(spec.name, `${spec.name} must be a string.`);
      const text = String(value);
      if (/[\u0000]/.test(text)) throw detailError(spec.name, `${spec.name} must not contain NUL characters.`);
      if (text.length > (spec.maxLength ?? 4096)) throw detailError(spec.name, `${spec.name} is too long.`);
      return spec.kind === 'string' ? text.trim() : text;
    }
    case 'integer': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) throw detailError(spec.name, `${spec.name} must be an integer.`);
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        throw detailError(spec.name, `${spec.name} must be between ${spec.min} and ${spec.max}.`);
      }
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw detailError(spec.name, `${spec.name} must be a boolean.`);
    case 'enum':
      if (typeof value === 'string' && spec.values!.includes(value)) return value;
      throw detailError(spec.name, `${spec.name} must be one of ${spec.values!.join(', ')}.`);
    case 'string-list':
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
      if (typeof value === 'string') return value.split(',').map((v) => v.trim()).filter(Boolean);
      throw detailError(spec.name, `${spec.name} must be a list of strings.`);
  }
}

/** Reduces `raw` to the declared keys with typed values; throws a 400 naming the first bad or missing field. */
export function normalizeWith(specs: readonly DetailSpec[], raw: Record<string, unknown>): ConnectionDetails {
  const out: ConnectionDetails = {};
  for (const spec of [...specs, ...UI_DETAILS]) {
    let value = raw[spec.name];
    for (const alias of spec.aliases ?? []) if (!present(value)) value = raw[alias];
    if (!present(value)) {
      if (spec.required) throw detailError(spec.name, `${spec.name} is required.`);
      if (spec.default !== undefined) out[spec.name] = spec.default;
      continue;
    }
    out[spec.name] = parseOne(spec, value);
  }
  return out;
}

export const str = (details: ConnectionDetails, key: string): string | undefined => {
  const v = details[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
};
export const num = (details: ConnectionDetails, key: string): number | undefined => {
  const v = details[key];
  return typeof v === 'number' ? v : undefined;
};
export const flag = (details: ConnectionDetails, key: string): boolean => details[key] === true;

/** Host names and addresses: letters, digits, dots, dashes, colons (IPv6) and brackets — no URLs or options. */
export function checkHost(host: string): string {
  if (!/^[A-Za-z0-9._:\-[\]%]+$/.test(host)) throw detailError('host', 'Host must be a host name or an IP address.');
  return host.replace(/^\[(.*)\]$/, '$1');
}
