// Who is making a request. Built once per request by the auth hook (./auth.ts) and passed to domain code.

export interface CallerUser {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  is_superuser: boolean;
  locale: string | null;
  type: string;
  /** User-local settings, parsed. */
  settings: Record<string, unknown>;
}

export interface Caller {
  kind: 'session' | 'api-key';
  user: CallerUser;
  isSuperuser: boolean;
  groupIds: number[];
  /** SHA-512 of the session token when authenticated by session. */
  sessionKeyHashed: string | null;
}
