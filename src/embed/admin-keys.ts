// The keys of a card or dashboard only an admin may change (`enable_embedding`, `embedding_params`). Clients PUT back
// the whole object a GET returned, so a key that carries the value already stored is no change: as in Metabase,
// only a real change needs an admin (and embedding turned on).

import type { AppContext } from '../context.js';
import { forbidden } from '../http/errors.js';
import { bool, parseJson } from '../appdb/portable.js';
import { canonicalJson } from '../util/canonical-json.js';
import { checkEmbeddingEnabled } from './settings.js';

interface StoredEmbedding {
  enable_embedding: boolean | number;
  embedding_params: string | null;
}

interface EmbeddingInput {
  enable_embedding?: boolean | null;
  embedding_params?: Record<string, unknown> | null;
}

/** Whether the request changes an admin-only key; a null or absent value changes nothing. */
export function embeddingChanges(before: StoredEmbedding, input: EmbeddingInput, present: (key: keyof EmbeddingInput) => boolean): boolean {
  const enable = present('enable_embedding') && input.enable_embedding != null && input.enable_embedding !== bool(before.enable_embedding);
  const stored = parseJson<Record<string, unknown> | null>(before.embedding_params, null) ?? {};
  const params = present('embedding_params') && input.embedding_params != null && canonicalJson(input.embedding_params) !== canonicalJson(stored);
  return enable || params;
}

/** 403 for a non-admin, 400 while embedding is off: checked only when the request changes an admin-only key. */
export async function checkEmbeddingChange(ctx: AppContext, isSuperuser: boolean): Promise<void> {
  if (!isSuperuser) throw forbidden();
  await checkEmbeddingEnabled(ctx);
}
