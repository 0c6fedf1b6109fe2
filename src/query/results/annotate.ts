// Stage "annotate": the `cols` of a result (reference §4.4) — from the compiler's planned columns for MBQL (so the
// types are the same on every engine) or from the driver's columns for native SQL — and `results_metadata` with a
// fingerprint computed while the rows stream by.

import type { ResultColumn } from '../../drivers/driver.js';
import type { StageColumn } from '../compile/stage.js';
import type { ColumnMetadata } from '../mbql/types.js';
import { UniqueNames } from '../compile/names.js';
import { isNumeric, isTemporal, isText } from '../compile/types.js';

export type Col = Record<string, unknown> & { name: string; display_name: string; base_type: string };

function fieldKeys(c: StageColumn, databaseType: string | null): Record<string, unknown> {
  const f = c.field;
  if (!f) return {};
  return {
    id: f.id,
    table_id: f.table_id,
    description: c.description ?? f.description,
    coercion_strategy: f.coercion_strategy,
    visibility_type: f.visibility_type,
    fingerprint: f.fingerprint,
    settings: f.settings,
    nfc_path: f.nfc_path,
    parent_id: f.parent_id,
    fk_target_field_id: f.fk_target_field_id,
    database_type: f.database_type ?? databaseType,
    active: f.active,
    position: f.position,
    has_field_values: f.has_field_values,
  };
}

/** `cols` of an MBQL result: the planned columns, completed by the driver's when the plan has a `source.*`. */
export function mbqlCols(plan: StageColumn[], driverColumns: ResultColumn[]): Col[] {
  const cols: Col[] = plan.map((c, i) => {
    const databaseType = driverColumns[i]?.databaseType ?? null;
    const base = c.base_type === 'type/*' && driverColumns[i] ? driverColumns[i].baseType : c.base_type;
    const col: Col = {
      description: c.description ?? null,
      semantic_type: c.semantic_type,
      ...fieldKeys(c, databaseType),
      name: c.name,
      display_name: c.overrides?.display_name ?? c.display_name,
      base_type: base,
      effective_type: c.effective_type === 'type/*' ? base : c.effective_type,
      field_ref: c.field_ref,
      source: c.source,
    };
    if (!c.field) {
      if (databaseType) col.database_type = databaseType;
    }
    if (c.overrides) {
      for (const key of ['semantic_type', 'description', 'settings', 'visibility_type', 'fk_target_field_id'] as const) {
        if (c.overrides[key] !== undefined) col[key] = c.overrides[key];
      }
      if (c.field === null && typeof c.overrides.id === 'number') col.id = c.overrides.id;
    }
    if (c.unit !== undefined) col.unit = c.unit;
    if (c.binning_info) col.binning_info = c.binning_info;
    if (c.expression_name) col.expression_name = c.expression_name;
    return col;
  });
  if (driverColumns.length > plan.length) {
    const names = new UniqueNames();
    for (const c of cols) names.next(c.name);
    cols.push(...nativeCols(driverColumns.slice(plan.length), names));
  }
  return cols;
}

/** What a model's saved metadata may change in the columns of its own results (Metabase's preserved keys). */
const MODEL_KEYS = ['id', 'description', 'display_name', 'semantic_type', 'fk_target_field_id', 'settings', 'visibility_type'] as const;

/**
 * A model's run: its saved (user-edited) metadata laid over the result columns, matched by name — except
 * aggregation columns, whose computed names and types stay, as in Metabase. Keys present in the metadata win, null
 * included (a semantic type taken off stays off).
 */
export function applyModelMetadata(cols: Col[], metadata: ColumnMetadata[]): Col[] {
  const byName = new Map(metadata.filter((m) => m && typeof m.name === 'string').map((m) => [m.name, m]));
  return cols.map((c) => {
    const m = c.source === 'aggregation' ? undefined : byName.get(c.name);
    if (!m) return c;
    const out: Record<string, unknown> = { ...c };
    for (const key of MODEL_KEYS) if (m[key] !== undefined) out[key] = m[key];
    if (typeof out.display_name !== 'string') out.display_name = c.display_name;
    return out as Col;
  });
}

/** `cols` of a native result: the driver's columns, duplicate names made unique (`ID`, `ID_2`). */
export function nativeCols(columns: ResultColumn[], names = new UniqueNames()): Col[] {
  return columns.map((c) => {
    const name = names.next(c.name);
    return {
      display_name: name,
      source: 'native',
      field_ref: ['field', name, { 'base-type': c.baseType }],
      name,
      base_type: c.baseType,
      effective_type: c.baseType,
      database_type: c.databaseType,
    };
  });
}

// ----- fingerprints ---------------------------------------------------------------------------------------------

const DISTINCT_CAP = 10_000;

/** A column's fingerprint, accumulated one value at a time with bounded memory. */
class FingerprintBuilder {
  private count = 0;
  private nils = 0;
  private readonly distinct = new Set<unknown>();
  private min = Infinity;
  private max = -Infinity;
  private sum = 0;
  private sumSq = 0;
  private numbers = 0;
  private totalLength = 0;
  private texts = 0;
  private earliest: string | null = null;
  private latest: string | null = null;
  // What the column's type makes of its values, decided once rather than per value.
  private readonly numeric: boolean;
  private readonly temporal: boolean;
  private readonly text: boolean;

  constructor(baseType: string) {
    this.numeric = isNumeric(baseType);
    this.temporal = isTemporal(baseType);
    this.text = isText(baseType);
  }

  add(v: unknown): void {
    this.count += 1;
    if (v === null || v === undefined) {
      this.nils += 1;
      return;
    }
    if (this.distinct.size < DISTINCT_CAP) this.distinct.add(v);
    if (typeof v === 'number') {
      if (!this.numeric) return;
      this.numbers += 1;
      if (v < this.min) this.min = v;
      if (v > this.max) this.max = v;
      this.sum += v;
      this.sumSq += v * v;
    } else if (typeof v === 'string') {
      if (this.temporal) {
        if (this.earliest === null || v < this.earliest) this.earliest = v;
        if (this.latest === null || v > this.latest) this.latest = v;
      } else {
        this.texts += 1;
        this.totalLength += v.length;
      }
    }
  }

  build(): Record<string, unknown> {
    const global = { 'distinct-count': this.distinct.size, 'nil%': this.count ? this.nils / this.count : 0 };
    const type: Record<string, unknown> = {};
    if (this.numeric && this.numbers) {
      const avg = this.sum / this.numbers;
      type['type/Number'] = { min: this.min, max: this.max, avg, sd: Math.sqrt(Math.max(0, this.sumSq / this.numbers - avg * avg)) };
    } else if (this.temporal) {
      type['type/DateTime'] = { earliest: this.earliest, latest: this.latest };
    } else if (this.text && this.texts) {
      type['type/Text'] = { 'average-length': this.totalLength / this.texts };
    }
    return Object.keys(type).length ? { global, type } : { global };
  }
}

/**
 * Fingerprints describe the rows read — every row of an API result (at most 10,000) — so that binning on a saved
 * question's columns sees the real range. Beyond that (internal runs of big results) rows cost nothing more.
 */
const FINGERPRINT_ROWS = 10_000;

export class ResultsMetadataBuilder {
  private readonly builders: FingerprintBuilder[];
  private seen = 0;

  constructor(private readonly cols: Col[]) {
    this.builders = cols.map((c) => new FingerprintBuilder(c.base_type));
  }

  add(row: unknown[]): void {
    if (this.seen >= FINGERPRINT_ROWS) return;
    this.seen += 1;
    for (let i = 0; i < this.builders.length; i++) this.builders[i].add(row[i]);
  }

  build(): { columns: Record<string, unknown>[] } {
    return { columns: this.cols.map((c, i) => metadataColumn(c, this.builders[i].build())) };
  }
}

/**
 * A `result_metadata` / `results_metadata.columns` entry: the column's own keys and a fingerprint (left out when
 * `fingerprint` is undefined: nothing describes the column's values).
 */
export function metadataColumn(c: Col, fingerprint: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {
    display_name: c.display_name,
    field_ref: c.field_ref,
    name: c.name,
    base_type: c.base_type,
    effective_type: c.effective_type ?? c.base_type,
    semantic_type: c.semantic_type ?? null,
  };
  if (fingerprint !== undefined) out.fingerprint = fingerprint;
  for (const key of ['id', 'table_id', 'unit', 'description', 'coercion_strategy', 'visibility_type', 'settings', 'binning_info', 'expression_name'] as const) {
    if (c[key] !== undefined) out[key] = c[key];
  }
  return out;
}
