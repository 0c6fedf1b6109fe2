// `result_metadata` of a card saved without one: the columns its query returns, worked out by the query engine.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';

type MetadataProvider = (ctx: AppContext, caller: Caller, datasetQuery: Record<string, unknown>) => Promise<unknown[] | null>;

let provider: MetadataProvider | null = null;

/** The query engine plugs in here. */
export function setResultMetadataProvider(fn: MetadataProvider): void {
  provider = fn;
}

/** The result columns of `datasetQuery`, or null when they can't be worked out (the card still saves). */
export async function computeResultMetadata(ctx: AppContext, caller: Caller, datasetQuery: Record<string, unknown>): Promise<unknown[] | null> {
  if (!provider) return null;
  try {
    return await provider(ctx, caller, datasetQuery);
  } catch (error) {
    ctx.log.debug({ err: error }, 'could not compute result metadata');
    return null;
  }
}
