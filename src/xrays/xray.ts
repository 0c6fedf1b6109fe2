// One X-ray request, from its URL parts to the dashboard: the checks of the URL grammar (Metabase's 400 messages),
// the root, an optional cell and forced template, and an optional comparison.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { throwIssues } from '../http/schema.js';
import { buildComparison } from './compare.js';
import { buildXray, type Show } from './dashboard.js';
import { checkClause, decodeBase64Json } from './encoding.js';
import { ENTITIES, resolveRoot, type Entity } from './roots.js';
import { forcedTemplate, isTemplateName, isTemplatePrefix } from './templates/index.js';
import { notFound } from '../http/errors.js';

export const COMPARISON_ENTITIES = ['table', 'segment', 'adhoc'] as const;
export const INVALID_COMPARISON = 'Invalid comparison entity type. Can only be one of "table", "segment", or "adhoc"';

export interface XrayRequest {
  entity: string;
  idOrQuery: string;
  cell?: string;
  prefix?: string;
  template?: string;
  compare?: { entity: string; idOrQuery: string };
  show?: unknown;
}

function invalid(param: string, message: string, received: unknown): never {
  return throwIssues([{ path: [param], message, description: message, received }]);
}

export function parseShow(value: unknown): Show {
  if (value === undefined || value === null || value === '') return null;
  if (value === 'all') return 'all';
  if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
  return invalid('show', 'invalid show value', value);
}

/** The URL's parts checked, in Metabase's order, before anything is read. */
function checkRequest(req: XrayRequest) {
  if (!(ENTITIES as readonly string[]).includes(req.entity)) invalid('entity', 'Invalid entity type', req.entity);
  const show = parseShow(req.show);
  if (req.prefix !== undefined && !/^[A-Za-z]+$/.test(req.prefix)) invalid('prefix', 'invalid value for prefix', req.prefix);
  if (req.prefix !== undefined && !isTemplatePrefix(req.prefix)) invalid('prefix', 'invalid value for prefix', req.prefix);
  if (req.template !== undefined && !isTemplateName(req.template)) invalid('dashboard-template', 'invalid value for dashboard template name', req.template);
  if (req.compare && !(COMPARISON_ENTITIES as readonly string[]).includes(req.compare.entity)) invalid('comparison-entity', INVALID_COMPARISON, req.compare.entity);
  const cell = req.cell === undefined ? null : checkClause(decodeBase64Json(req.cell, 'cell-query'), 'cell-query');
  return { show, cell };
}

export async function xray(ctx: AppContext, caller: Caller, req: XrayRequest) {
  const { show, cell } = checkRequest(req);
  const forced = req.prefix !== undefined && req.template !== undefined ? forcedTemplate(req.prefix, req.template) : null;
  if (req.prefix !== undefined && !forced) throw notFound();
  const resolved = await resolveRoot(ctx, caller, req.entity as Entity, req.idOrQuery);
  const root = cell ? { ...resolved, cell } : resolved;
  let url = root.url + (req.cell !== undefined ? `/cell/${req.cell}` : '');
  if (forced) url += `/rule/${req.prefix}/${req.template}`;
  if (!req.compare) return buildXray(ctx, caller, root, { show, forced }, url);
  const right = await resolveRoot(ctx, caller, req.compare.entity as Entity, req.compare.idOrQuery);
  return buildComparison(ctx, caller, root, right, { show, forced }, url);
}
