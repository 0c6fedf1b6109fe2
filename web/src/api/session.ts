// Sign-in, sign-out, first-time setup and who is signed in: /api/session, /api/setup, /api/user/current.

import { api } from './client';
import type { CurrentUser, SessionProperties } from './types';

export const getSessionProperties = () => api.get<SessionProperties>('/api/session/properties', { allowUnauthorized: true });

/** The signed-in person, or null when there is no valid session. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await api.get<CurrentUser>('/api/user/current', { allowUnauthorized: true });
  } catch (error) {
    if (error instanceof Error && 'status' in error && (error as { status: number }).status === 401) return null;
    throw error;
  }
}

export const login = (username: string, password: string, remember = true) =>
  api.post<{ id: string }>('/api/session', { username, password, remember }, { allowUnauthorized: true });

export const logout = () => api.delete<void>('/api/session', { allowUnauthorized: true });

export interface SetupInput {
  token: string;
  user: { first_name: string; last_name: string; email: string; password: string };
  prefs: { site_name: string };
}

export const setup = (input: SetupInput) => api.post<{ id: string }>('/api/setup', input, { allowUnauthorized: true });

export const forgotPassword = (email: string) => api.post<void>('/api/session/forgot_password', { email }, { allowUnauthorized: true });

export const resetTokenValid = (token: string, signal?: AbortSignal) =>
  api.get<{ valid: boolean }>('/api/session/password_reset_token_valid', { query: { token }, signal, allowUnauthorized: true });

export const resetPassword = (token: string, password: string) => api.post<{ success: boolean }>('/api/session/reset_password', { token, password }, { allowUnauthorized: true });

/** The link in a subscription email for someone without an account: stop (or, with `undo`, resume) sending. */
export const unsubscribe = (input: { email: string; hash: string; 'pulse-id': number }, undo: boolean) =>
  api.post<{ status: string; title?: string }>(undo ? '/api/pulse/unsubscribe/undo' : '/api/pulse/unsubscribe', input, { allowUnauthorized: true });
