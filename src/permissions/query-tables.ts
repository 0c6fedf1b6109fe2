// What a resolved query reads, for the authorize stage: the tables of its own stages and joins (and the tables
// implicit joins reach through `source-field` refs), whether it has native SQL of its own, and the same for the parts
// that came from saved questions (`card__N` sources, which the resolve stage marked with `source-card-id`).

import type { Clause, DatasetQuery, Join, MbqlQuery, NativeSource } from '../query/mbql/types.js';

export interface QueryReads {
  /** Tables the query's own stages read (its source tables, joins, implicit joins' fields' tables via fieldIds). */
  tables: Set<number>;
  /** Fields referenced with `source-field` (their tables are read through implicit joins). */
  implicitFields: Set<number>;
  /** Native SQL written in the query itself (not a saved question's). */
  native: boolean;
  /** The same, including what saved questions read. */
  allTables: Set<number>;
  allImplicitFields: Set<number>;
  anyNative: boolean;
  /** Fields that parameters target (`["dimension", ["field", id, …]]`). */
  parameterFields: Set<number>;
  /** Every field the query's own stages name by id (a field of a table it doesn't read can't be named either). */
  namedFields: Set<number>;
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

function walk(x: unknown, visit: (clause: Clause) => void): void {
  if (Array.isArray(x)) {
    if (typeof x[0] === 'string') visit(x as Clause);
    for (const item of x) walk(item, visit);
  } else if (isObject(x)) {
    for (const v of Object.values(x)) walk(v, visit);
  }
}

function fieldId(ref: unknown): number | null {
  return Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number' ? ref[1] : null;
}

export function queryReads(query: DatasetQuery): QueryReads {
  const reads: QueryReads = {
    tables: new Set(),
    implicitFields: new Set(),
    native: false,
    allTables: new Set(),
    allImplicitFields: new Set(),
    anyNative: false,
    parameterFields: new Set(),
    namedFields: new Set(),
  };

  const own = (stage: Record<string, unknown>, fromCard: boolean) => {
    const table = stage['source-table'];
    if (typeof table === 'number') {
      reads.allTables.add(table);
      if (!fromCard) reads.tables.add(table);
    }
    // clauses of this stage only (its source and joins are visited on their own)
    const { 'source-query': _s, joins: _j, 'source-metadata': _m, ...clauses } = stage;
    walk(clauses, (c) => {
      if (c[0] === 'field' && typeof c[1] === 'number' && !fromCard) reads.namedFields.add(c[1]);
      if (c[0] !== 'field' || typeof c[1] !== 'number' || !isObject(c[2]) || c[2]['source-field'] === undefined) return;
      reads.allImplicitFields.add(c[1]);
      if (!fromCard) reads.implicitFields.add(c[1]);
    });
  };

  const visitSource = (source: MbqlQuery | NativeSource | undefined, fromCard: boolean) => {
    if (!isObject(source)) return;
    const derived = fromCard || source['source-card-id'] !== undefined;
    if ('native' in source) {
      reads.anyNative = true;
      if (!derived) reads.native = true;
      return;
    }
    visitStage(source as MbqlQuery, derived);
  };

  const visitStage = (stage: MbqlQuery | Join, fromCard: boolean) => {
    own(stage as Record<string, unknown>, fromCard);
    visitSource(stage['source-query'], fromCard);
    for (const join of (stage as MbqlQuery).joins ?? []) visitStage(join, fromCard);
  };

  if (query.type === 'native') {
    reads.native = true;
    reads.anyNative = true;
  } else if (query.query) {
    visitStage(query.query, false);
  }
  for (const parameter of query.parameters ?? []) {
    const target = parameter?.target;
    if (Array.isArray(target) && String(target[0]).replace(/_/g, '-') === 'dimension') {
      const id = fieldId(target[1]);
      if (id !== null) reads.parameterFields.add(id);
    }
  }
  return reads;
}
