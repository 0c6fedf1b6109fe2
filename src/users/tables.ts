import type { Generated } from 'kysely';

export interface CoreUserTable {
  id: Generated<number>;
  email: string;
  first_name: string | null;
  last_name: string | null;
  password: string | null;
  password_salt: string | null;
  date_joined: string;
  last_login: string | null;
  updated_at: string | null;
  is_superuser: boolean | number;
  is_active: boolean | number;
  is_qbnewb: boolean | number;
  is_datasetnewb: boolean | number;
  locale: string | null;
  sso_source: string | null;
  login_attributes: string | null;
  settings: string | null;
  /** 'personal' for people, 'api-key' for the hidden user behind an API key. */
  type: string;
  reset_token: string | null;
  reset_triggered: number | null;
}

export interface PermissionsGroupTable {
  id: Generated<number>;
  name: string;
  entity_id: string | null;
  magic_group_type: string | null;
}

export interface PermissionsGroupMembershipTable {
  id: Generated<number>;
  user_id: number;
  group_id: number;
  is_group_manager: boolean | number;
}

export interface CoreSessionTable {
  /** SHA-512 hex of the session token; the token itself is never stored. */
  key_hashed: string;
  user_id: number;
  created_at: string;
  session_type: string | null;
}

export interface LoginThrottleTable {
  id: Generated<number>;
  throttle_key: string;
  attempted_at: number;
}

export interface LoginHistoryTable {
  id: Generated<number>;
  user_id: number;
  timestamp: string;
  session_hash: string | null;
  device_id: string | null;
  device_description: string | null;
  ip_address: string | null;
}

export interface UserKeyValueTable {
  id: Generated<number>;
  user_id: number;
  namespace: string;
  key: string;
  /** JSON text */
  value: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_prefix: string;
  /** SHA-512 hex of the full key: the key holds 256 random bits, so a fast hash is as safe as bcrypt here. */
  key_hashed: string;
  creator_id: number;
  updated_by_id: number;
  created_at: string;
  updated_at: string;
}

export interface UserTables {
  core_user: CoreUserTable;
  permissions_group: PermissionsGroupTable;
  permissions_group_membership: PermissionsGroupMembershipTable;
  core_session: CoreSessionTable;
  login_throttle: LoginThrottleTable;
  login_history: LoginHistoryTable;
  api_key: ApiKeyTable;
  user_key_value: UserKeyValueTable;
}
