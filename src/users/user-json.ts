// How a user looks in API responses, at the three detail levels Metabase uses.

import type { Selectable } from 'kysely';
import type { CoreUserTable } from './tables.js';
import { bool, parseJson } from '../appdb/portable.js';

export type UserRow = Selectable<CoreUserTable>;

export function commonName(user: { first_name: string | null; last_name: string | null; email: string }): string {
  const name = [user.first_name, user.last_name].filter((p) => p !== null && p !== undefined).join(' ').trim();
  return name || user.email;
}

/** The fields anyone may see of another user (non-admins listing others). */
export function limitedUserJson(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    common_name: commonName(row),
  };
}

/** Metabase's default user columns. */
export function defaultUserJson(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    common_name: commonName(row),
    date_joined: row.date_joined,
    last_login: row.last_login,
    is_superuser: bool(row.is_superuser),
    is_qbnewb: bool(row.is_qbnewb),
  };
}

/** What an admin (or the user themselves) sees. */
export function fullUserJson(row: UserRow) {
  return {
    ...defaultUserJson(row),
    is_active: bool(row.is_active),
    is_datasetnewb: bool(row.is_datasetnewb),
    updated_at: row.updated_at,
    sso_source: row.sso_source,
    login_attributes: parseJson<Record<string, unknown> | null>(row.login_attributes, null),
    locale: row.locale,
  };
}

/** The "UserInfo" subset used for `creator`, `updated_by` and similar hydrations. */
export function userInfoJson(row: UserRow) {
  return defaultUserJson(row);
}
