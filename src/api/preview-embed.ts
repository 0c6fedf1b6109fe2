// Preview of embedding (spec §4.6, reference §8.2): the embed endpoints for admins signed in, before the card or
// dashboard is published — its `enable_embedding` is not needed and the parameter policy comes from the token's
// `_embedding_params`. Served under the spec's /api/preview-embed and Metabase's own /api/preview_embed.

import type { Routes } from '../http/route.js';
import { registerEmbedRoutes } from './embed.js';

export function previewEmbedRoutes(r: Routes) {
  for (const prefix of ['/api/preview-embed', '/api/preview_embed']) {
    registerEmbedRoutes(r, { prefix, preview: true, auth: 'admin', previewSubset: true });
  }
}
