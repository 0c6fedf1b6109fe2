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

type Column = Record<string, unknown>;

/** What users edit in a model's metadata; kept when the model's query changes and its columns are worked out again. */
export const MODEL_EDITABLE_KEYS = ['display_name', 'description', 'semantic_type', 'fk_target_field_id', 'settings', 'visibility_type'] as const;

const isColumn = (c: unknown): c is Column => c !== null && typeof c === 'object' && !Array.isArray(c);

/**
 * A model's fresh `result_metadata` with the user's edits of the previous one carried over, column by column —
 * matched by column name, else by field ref (Metabase's merge for models). Columns that are new keep what was
 * computed; columns that are gone take their edits with them.
 */
export function mergeModelMetadata(fresh: unknown[] | null, previous: unknown[] | null): unknown[] | null {
  if (!fresh || !previous || previous.length === 0) return fresh;
  const old = previous.filter(isColumn);
  const byName = new Map(old.filter((c) => typeof c.name === 'string').map((c) => [c.name as string, c]));
  const byRef = new Map(old.filter((c) => Array.isArray(c.field_ref)).map((c) => [JSON.stringify(c.field_ref), c]));
  return fresh.map((column) => {
    if (!isColumn(column)) return column;
    const edited = (typeof column.name === 'string' ? byName.get(column.name) : undefined) ?? (Array.isArray(column.field_ref) ? byRef.get(JSON.stringify(column.field_ref)) : undefined);
    if (!edited) return column;
    const merged: Column = { ...column };
    for (const key of MODEL_EDITABLE_KEYS) if (key in edited) merged[key] = edited[key];
    return merged;
  });
}
