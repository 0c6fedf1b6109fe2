// GET /api/card/:id/series: other cards that can be drawn on the same chart (combined series), newest first,
// paged by `last_cursor` (the id of the last card of the previous page).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest } from '../http/errors.js';
import { parseJson } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableCard } from './cards.js';
import { cardsJson } from './json.js';
import { datasetQueryOf, type CardRow } from './store.js';
import { legacyQuery } from './query-info.js';

const SERIES_DISPLAYS = ['area', 'line', 'bar', 'scalar'];
const NUMERIC = /^type\/(Integer|BigInteger|Float|Decimal|Number|Currency|Percentage|Quantity|Score|Share)$/;
const TEMPORAL = /^type\/(Date|DateTime|DateTimeWithTZ|DateTimeWithLocalTZ|DateTimeWithZoneOffset|DateTimeWithZoneID|Time|TimeWithTZ|Temporal|Instant)$/;

type Column = { name?: string; source?: string; base_type?: string; effective_type?: string; field_ref?: unknown };

const typeOf = (c: Column | undefined) => c?.effective_type ?? c?.base_type ?? '';
const isNumeric = (c: Column | undefined) => NUMERIC.test(typeOf(c));
const isTemporal = (c: Column | undefined) => TEMPORAL.test(typeOf(c));

/**
 * What a result column is: its `source` when the metadata says (results' `cols` do), else — saved `result_metadata`
 * has no `source` — an `["aggregation", i]` ref is an aggregation, and the other columns of a query with a breakout
 * are its breakouts.
 */
function kindOf(column: Column, hasBreakout: boolean): string {
  if (column.source) return column.source;
  if (Array.isArray(column.field_ref) && column.field_ref[0] === 'aggregation') return 'aggregation';
  return hasBreakout ? 'breakout' : 'fields';
}

function columns(card: CardRow, kind: 'breakout' | 'aggregation'): Column[] {
  const metadata = parseJson<Column[]>(card.result_metadata, []) ?? [];
  const settings = parseJson<Record<string, unknown>>(card.visualization_settings, {});
  const names = settings[kind === 'breakout' ? 'graph.dimensions' : 'graph.metrics'];
  if (Array.isArray(names) && names.length > 0) return metadata.filter((c) => names.includes(c.name));
  const query = legacyQuery(datasetQueryOf(card)) as { query?: { breakout?: unknown } };
  const hasBreakout = Array.isArray(query.query?.breakout) && query.query.breakout.length > 0;
  return metadata.filter((c) => kindOf(c, hasBreakout) === kind);
}

function compatible(first: CardRow, second: CardRow): boolean {
  if (second.query_type === 'native') return true;
  if (first.display === 'scalar') {
    return second.display === 'scalar' && (parseJson<unknown[]>(first.result_metadata, []) ?? []).length === 1 && (parseJson<unknown[]>(second.result_metadata, []) ?? []).length === 1;
  }
  if (!['area', 'line', 'bar'].includes(second.display)) return false;
  const initial = columns(first, 'breakout');
  const dimensions = columns(second, 'breakout');
  const metrics = columns(second, 'aggregation');
  if (dimensions.length === 0 || metrics.length === 0) return false;
  if (!metrics.every(isNumeric)) return false;
  if (isTemporal(initial[0]) !== isTemporal(dimensions[0])) return false;
  if (isNumeric(initial[0]) !== isNumeric(dimensions[0]) && !(isTemporal(initial[0]) && isTemporal(dimensions[0]))) return false;
  return true;
}

export async function cardSeries(
  ctx: AppContext,
  caller: Caller,
  id: number,
  options: { lastCursor: number | null; query: string | null; excludeIds: number[]; limit?: number | null },
) {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  if (!SERIES_DISPLAYS.includes(card.display)) throw badRequest(`Card with type ${card.display} is not compatible to have series`);
  let q = ctx.db
    .selectFrom('report_card')
    .selectAll()
    .where('archived', '=', false)
    .where('display', 'in', SERIES_DISPLAYS)
    .where('id', '!=', card.id)
    .where((eb) => access.filter(eb, 'report_card.collection_id'))
    .orderBy('id', 'desc');
  if (options.lastCursor) q = q.where('id', '<', options.lastCursor);
  if (options.excludeIds.length) q = q.where('id', 'not in', options.excludeIds);
  const rows = (await q.execute()).filter((r) => !options.query || r.name.toLowerCase().includes(options.query.toLowerCase()));
  const matching = rows.filter((r) => compatible(card, r));
  const page = options.limit ? matching.slice(0, options.limit) : matching;
  return cardsJson(ctx, access, page);
}
