// What the offline engine understood of a question, before it becomes MBQL (./build.ts).

import type { ColumnInfo, TableInfo } from '../metadata.js';

/** A column as the main table reaches it: its own, or through one of its foreign keys (`via`). */
export interface Ref {
  table: TableInfo;
  column: ColumnInfo;
  via: ColumnInfo | null;
}

export type AggregationOp = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'distinct' | 'median';

export type Filter =
  | { kind: 'equals'; ref: Ref; values: string[]; negate: boolean }
  | { kind: 'compare'; ref: Ref; op: '>' | '>=' | '<' | '<=' | '='; value: number }
  | { kind: 'between-numbers'; ref: Ref; from: number; to: number }
  | { kind: 'interval'; ref: Ref; n: number | 'current'; unit: string }
  | { kind: 'dates'; ref: Ref; op: 'between' | '<' | '>' | '>='; from: string; to?: string }
  | { kind: 'present'; ref: Ref; negate: boolean };

export interface Plan {
  table: TableInfo;
  aggregation: { op: AggregationOp; ref: Ref | null } | null;
  breakouts: Array<{ ref: Ref; unit: string | null }>;
  filters: Filter[];
  order: { target: 'aggregation' | Ref; direction: 'asc' | 'desc' } | null;
  limit: number | null;
}

export class CannotAnswer extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CannotAnswer';
  }
}

export const isTemporal = (c: ColumnInfo) => /^type\/(Date|DateTime|DateTimeWithLocalTZ|DateTimeWithTZ|DateTimeWithZoneID|DateTimeWithZoneOffset|Instant|Time)/.test(c.baseType);
export const isNumeric = (c: ColumnInfo) =>
  /^type\/(Integer|BigInteger|Float|Decimal|Number)$/.test(c.baseType) && c.semanticType !== 'type/PK' && c.semanticType !== 'type/FK' && !/Latitude|Longitude|ZipCode/.test(c.semanticType ?? '');
