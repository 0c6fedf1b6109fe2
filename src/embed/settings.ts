// The settings signed embedding depends on: whether it is on (`enable-embedding-static`, or the older
// `enable-embedding`), and the secret tokens are signed with (`embedding-secret-key`, 64 hexadecimal characters).

import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';

export const EMBEDDING_DISABLED = 'Embedding is not enabled.';
export const NO_SECRET_KEY = 'The embedding secret key has not been set.';

export async function embeddingEnabled(ctx: AppContext): Promise<boolean> {
  const [legacy, statik] = await Promise.all([ctx.settings.getBoolean('enable-embedding'), ctx.settings.getBoolean('enable-embedding-static')]);
  return Boolean(legacy || statik);
}

/** 400 `Embedding is not enabled.` unless static embedding is on. */
export async function checkEmbeddingEnabled(ctx: AppContext): Promise<void> {
  if (!(await embeddingEnabled(ctx))) throw badRequest(EMBEDDING_DISABLED);
}

export async function embeddingSecret(ctx: AppContext): Promise<string> {
  const secret = await ctx.settings.getString('embedding-secret-key');
  if (!secret) throw badRequest(NO_SECRET_KEY);
  return secret;
}

/** Turning embedding on gives it a secret key when it has none yet (as Metabase does), so tokens can be signed. */
export async function ensureEmbeddingSecret(ctx: AppContext, enabled: unknown): Promise<void> {
  if (enabled !== true && enabled !== 'true') return;
  if (await ctx.settings.getString('embedding-secret-key')) return;
  await ctx.settings.set('embedding-secret-key', randomBytes(32).toString('hex'), null);
}
