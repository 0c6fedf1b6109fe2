// Values for a parameter being edited (POST /api/dataset/parameter/values and /parameter/search/:query): from a
// static list, from a saved question's column, or from fields — their cached field values when the field keeps a
// list, else a DISTINCT query through the query engine. Result: {"values": [[v] | [v, label]], "has_more_values"}.
// A DISTINCT query that fails is an HTTP error with its message, never an empty list.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { loadFieldValues, valuePairs } from '../databases/field-values.js';
import { runQueryToMemory } from './run.js';
import type { Clause } from './mbql/types.js';
import { normalizeFieldish } from './mbql/normalize.js';
import { messageError } from '../http/errors.js';
import { viewableFieldIds } from '../permissions/data-access.js';
import { parameterValuesCaller } from '../permissions/sharing.js';

const LIMIT = 1000;

interface ValuesResult {
  values: unknown[][];
  has_more_values: boolean;
}

function matches(value: unknown, search: string | null): boolean {
  if (search === null) return true;
  return value !== null && value !== undefined && String(value).toLowerCase().includes(search.toLowerCase());
}

function staticList(config: Record<string, unknown>, search: string | null): ValuesResult {
  const raw = Array.isArray(config.values) ? config.values : [];
  const values = raw
    .map((v) => (Array.isArray(v) ? v : [v]))
    .filter((pair) => matches(pair[0], search) || (pair.length > 1 && matches(pair[1], search)));
  return { values, has_more_values: false };
}

async function distinctColumn(ctx: AppContext, caller: Caller, database: number, sourceTable: number | string, column: Clause, label: Clause | null, search: string | null): Promise<ValuesResult> {
  const breakout = label ? [column, label] : [column];
  const filters: Clause[] = [['not-null', column]];
  if (search !== null) filters.push(['contains', label ?? column, search, { 'case-sensitive': false }]);
  const result = await runQueryToMemory(ctx, {
    query: {
      database,
      type: 'query',
      query: { 'source-table': sourceTable, breakout, filter: filters.length === 1 ? filters[0] : ['and', ...filters], limit: LIMIT + 1 },
    },
    caller,
    context: 'ad-hoc',
    constraints: { 'max-results': LIMIT + 1, 'max-results-bare-rows': LIMIT + 1 },
  });
  // A query that failed is an error, not "no values": say why (permissions → 403, the rest → 400).
  if (result.status !== 'completed') {
    const type = String(result.error_type ?? 'qp');
    throw messageError(type === 'missing-required-permissions' ? 403 : 400, String(result.error ?? 'Error running query'), { error_type: type });
  }
  const rows = result.data.rows;
  return { values: rows.slice(0, LIMIT).map((r) => (label ? [r[0], r[1]] : [r[0]])), has_more_values: rows.length > LIMIT };
}

async function fromCard(ctx: AppContext, caller: Caller, config: Record<string, unknown>, search: string | null): Promise<ValuesResult> {
  const cardId = Number(config.card_id);
  const value = config.value_field ? (normalizeFieldish(config.value_field) as Clause) : null;
  if (!Number.isInteger(cardId) || !value) return { values: [], has_more_values: false };
  const label = config.label_field ? (normalizeFieldish(config.label_field) as Clause) : null;
  return distinctColumn(ctx, caller, -1337, `card__${cardId}`, value, label, search);
}

async function fromFields(ctx: AppContext, caller: Caller, fieldIds: number[], search: string | null): Promise<ValuesResult> {
  // The fields a filter is wired to offer their values without asking data permissions (Metabase's parameter-values
  // queries) — except where the caller's view of the data is blocked.
  const viewable = [...(await viewableFieldIds(ctx, caller, fieldIds))];
  if (!viewable.length) return { values: [], has_more_values: false };
  const runAs = parameterValuesCaller(caller);
  const fields = await ctx.db.selectFrom('metabase_field').innerJoin('metabase_table', 'metabase_table.id', 'metabase_field.table_id')
    .select(['metabase_field.id as id', 'metabase_field.table_id as table_id', 'metabase_field.has_field_values as has_field_values', 'metabase_table.db_id as db_id'])
    .where('metabase_field.id', 'in', viewable)
    .execute();
  const cached = await loadFieldValues(ctx, fields.filter((f) => f.has_field_values === 'list' || f.has_field_values === 'auto-list').map((f) => f.id));
  const seen = new Set<string>();
  const values: unknown[][] = [];
  let more = false;
  for (const f of fields) {
    let result: ValuesResult;
    const stored = cached.get(f.id);
    if (stored) result = { values: valuePairs(stored).filter((p) => matches(p[0], search) || (p.length > 1 && matches(p[1], search))), has_more_values: stored.hasMoreValues };
    else result = await distinctColumn(ctx, runAs, f.db_id, f.table_id, ['field', f.id, null], null, search);
    more ||= result.has_more_values;
    for (const pair of result.values) {
      const key = JSON.stringify(pair[0]);
      if (seen.has(key)) continue;
      seen.add(key);
      values.push(pair);
    }
  }
  return { values, has_more_values: more };
}

/**
 * A parameter's values, for `caller` (the real one — or the sharing identity of a public link or embed): a card
 * source is read with the caller's own permissions (its collection must be readable, its data not blocked), wired
 * fields with the values-query elevation above.
 */
export async function parameterValues(ctx: AppContext, caller: Caller, parameter: Record<string, unknown>, fieldIds: number[], search: string | null = null): Promise<ValuesResult> {
  const type = parameter.values_source_type;
  const config = (parameter.values_source_config ?? {}) as Record<string, unknown>;
  if (type === 'static-list') return staticList(config, search);
  if (type === 'card') return fromCard(ctx, caller, config, search);
  return fromFields(ctx, caller, fieldIds, search);
}
