// Stage "expand": what Metabase's preprocessing adds before compiling. Datetime breakouts without a unit are
// bucketed by day; each `source-field` FK becomes an implicit LEFT JOIN (alias `TABLE__via__FK`) — unless the
// stage's source query already returns that column; the metadata every stage needs is loaded (in a few batched
// app-DB queries).

import type { Clause, FieldRef, Join, MbqlQuery } from './mbql/types.js';
import { isFieldRef, fieldOptions, walkClauses, withFieldOptions } from './mbql/clauses.js';
import type { Metadata } from './metadata.js';
import { invalidQuery } from './errors.js';
import { isTemporal } from './compile/types.js';

function stagesOf(query: MbqlQuery): MbqlQuery[] {
  const out: MbqlQuery[] = [];
  const visit = (q: MbqlQuery) => {
    out.push(q);
    const sq = q['source-query'];
    if (sq && !('native' in sq)) visit(sq as MbqlQuery);
    for (const j of q.joins ?? []) {
      const jsq = j['source-query'];
      if (jsq && !('native' in jsq)) visit(jsq as MbqlQuery);
    }
  };
  visit(query);
  return out;
}

/** Loads the metadata of every table and field the query (any stage, any join) uses, in two round trips. */
export async function loadQueryMetadata(query: MbqlQuery, metadata: Metadata): Promise<void> {
  const tableIds: number[] = [];
  for (const s of stagesOf(query)) {
    if (typeof s['source-table'] === 'number') tableIds.push(s['source-table']);
    for (const j of s.joins ?? []) if (typeof j['source-table'] === 'number') tableIds.push(j['source-table']);
  }
  const fieldIds: number[] = [];
  const fkFieldIds: number[] = [];
  walkClauses(query, (c) => {
    if (c[0] !== 'field') return;
    if (typeof c[1] === 'number') fieldIds.push(c[1]);
    const sf = (c[2] as Record<string, unknown> | null)?.['source-field'];
    if (typeof sf === 'number') fkFieldIds.push(sf);
  });
  await metadata.loadForQuery({ tableIds, fieldIds, fkFieldIds });
}

/** Datetime breakouts without a unit are bucketed by day (Metabase's auto-bucketing). */
function autoBucket(stage: MbqlQuery, metadata: Metadata): void {
  if (!stage.breakout) return;
  stage.breakout = stage.breakout.map((b) => {
    if (!isFieldRef(b)) return b;
    const opts = fieldOptions(b);
    if (opts['temporal-unit'] || opts.binning) return b;
    let type: string | undefined;
    if (typeof b[1] === 'number') {
      if (typeof stage['source-table'] !== 'number' && !opts['join-alias'] && opts['source-field'] === undefined) return b;
      const field = metadata.fields.get(b[1]);
      type = field ? field.effective_type ?? field.base_type : undefined;
      if (field?.semantic_type === 'type/UNIXTimestampSeconds') type = 'type/DateTime';
    }
    if (type && isTemporal(type) && type !== 'type/Time') return withFieldOptions(b, { 'temporal-unit': 'day' });
    return b;
  });
}

const viaKey = (fieldId: unknown, sourceField: unknown) => `${String(fieldId)}:${String(sourceField)}`;

/**
 * The implicitly joined columns (`source-field` refs) a stage's source query already returns — from its breakouts
 * or fields, or from a saved question's result_metadata. A ref to one of them reads that column: no join.
 */
function columnsViaFk(stage: MbqlQuery): Set<string> {
  const out = new Set<string>();
  const add = (ref: unknown) => {
    if (!isFieldRef(ref)) return;
    const sf = fieldOptions(ref)['source-field'];
    if (sf !== undefined && sf !== null) out.add(viaKey(ref[1], sf));
  };
  for (const m of stage['source-metadata'] ?? []) {
    const ref = m.field_ref;
    if (isFieldRef(ref) && typeof m.id === 'number' && fieldOptions(ref)['source-field'] !== undefined) out.add(viaKey(m.id, fieldOptions(ref)['source-field']));
    else add(ref);
  }
  const sq = stage['source-query'];
  if (sq && !('native' in sq)) {
    const source = sq as MbqlQuery;
    if (source.breakout?.length || source.aggregation?.length) (source.breakout ?? []).forEach(add);
    else (source.fields ?? []).forEach(add);
  }
  return out;
}

function implicitJoins(stage: MbqlQuery, metadata: Metadata): void {
  const fks = new Map<number, FieldRef>();
  const provided = typeof stage['source-table'] === 'number' ? new Set<string>() : columnsViaFk(stage);
  const ownClauses = [stage.aggregation, stage.breakout, stage.fields, stage.filter, stage['order-by'], stage.expressions, ...(stage.joins ?? []).map((j) => [j.condition, j.fields])];
  walkClauses(ownClauses, (c) => {
    if (c[0] !== 'field') return;
    const sf = (c[2] as Record<string, unknown> | null)?.['source-field'];
    if (typeof sf === 'number' && !fks.has(sf) && !provided.has(viaKey(c[1], sf))) fks.set(sf, c as FieldRef);
  });
  if (!fks.size) return;
  const existing = new Set((stage.joins ?? []).map((j) => j['fk-field-id']).filter((x) => x !== undefined));
  const aliases = new Set((stage.joins ?? []).map((j) => j.alias));
  const added: Join[] = [];
  for (const fkId of fks.keys()) {
    if (existing.has(fkId)) continue;
    const fk = metadata.field(fkId);
    if (!fk.fk_target_field_id) throw invalidQuery(`Field ${fk.display_name} (${fkId}) is not a foreign key, so it can't be used as source-field.`);
    const target = metadata.field(fk.fk_target_field_id);
    const table = metadata.table(target.table_id);
    let alias = `${table.name}__via__${fk.name}`;
    for (let i = 2; aliases.has(alias); i++) alias = `${table.name}__via__${fk.name}_${i}`;
    aliases.add(alias);
    added.push({
      'source-table': table.id,
      alias,
      strategy: 'left-join',
      fields: 'none',
      condition: ['=', ['field', fkId, null], ['field', target.id, { 'join-alias': alias }]] as Clause,
      'fk-field-id': fkId,
    });
  }
  if (added.length) stage.joins = [...(stage.joins ?? []), ...added];
}

/** Expands every stage of the (resolved, parameterized) query in place. */
export function expandQuery(query: MbqlQuery, metadata: Metadata): void {
  for (const stage of stagesOf(query)) {
    autoBucket(stage, metadata);
    implicitJoins(stage, metadata);
  }
}
