// Other modules add keys to GET /api/user/current (e.g. whether the user has made questions or models)
// by registering a function here, so the users module needn't know about their tables.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';

type Extra = (ctx: AppContext, caller: Caller) => Promise<Record<string, unknown>>;

const extras: Extra[] = [];

export function registerCurrentUserExtra(extra: Extra): void {
  extras.push(extra);
}

export async function currentUserExtras(ctx: AppContext, caller: Caller): Promise<Record<string, unknown>> {
  const parts = await Promise.all(extras.map((extra) => extra(ctx, caller)));
  return Object.assign({}, ...parts);
}
