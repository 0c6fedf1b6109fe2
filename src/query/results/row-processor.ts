// Stages "annotate" and the row half of "write" in one pass: each row is cut at the row limit, its values converted
// for the output (ISO temporal values for the API, plain or formatted ones for downloads), fed to the fingerprint
// and insight builders, and — for API JSON — written as JSON text. A plan is plain data, so the pass runs wherever
// the rows are read: on the event loop for most engines, in SQLite's worker processes for SQLite
// (src/drivers/sqlite/worker-main.ts), where the rows then never reach the event loop as values at all.

import type { Col } from './annotate.js';
import { ResultsMetadataBuilder } from './annotate.js';
import { formattedConverter } from './format.js';
import { InsightsBuilder } from './insights.js';
import { converterFor, isIdentity, TemporalFormatter, type Converter } from './values.js';

export interface RowPlan {
  cols: Col[];
  /** The results time zone, for temporal values. */
  zone: string;
  /** How temporal values are written (the sink's valueMode). */
  mode: 'iso' | 'plain' | 'formatted';
  /** The first day of the week (0 = Sunday … 6 = Saturday), for formatted week values. */
  weekStart: number;
  /** Rows kept at most (null: all). */
  maxRows: number | null;
  /** Compute `results_metadata` (fingerprints) and `insights`. */
  annotate: boolean;
}

/** What a pass worked out over all the rows, for the result's summary. */
export interface RowSummary {
  results_metadata?: { columns: Record<string, unknown>[] };
  insights?: Record<string, unknown>[] | null;
}

function convertersFor(plan: RowPlan): Converter[] {
  const formatter = new TemporalFormatter(plan.zone);
  if (plan.mode === 'formatted') {
    return plan.cols.map((c) => {
      const base = converterFor(c.base_type, formatter, 'plain');
      const pretty = formattedConverter(c, formatter, plan.weekStart);
      return (v) => pretty(base(v));
    });
  }
  const mode = plan.mode === 'iso' ? 'iso' : 'plain';
  return plan.cols.map((c) => converterFor(c.base_type, formatter, mode));
}

export class RowProcessor {
  private readonly convert: Converter[];
  /** Indexes of the columns whose converter does something. */
  private readonly active: number[];
  private readonly metadata: ResultsMetadataBuilder | null;
  private readonly insights: InsightsBuilder | null;
  private readonly trend: InsightsBuilder | null;
  private seen = 0;

  constructor(private readonly plan: RowPlan) {
    this.convert = convertersFor(plan);
    this.active = this.convert.map((c, i) => (isIdentity(c) ? -1 : i)).filter((i) => i >= 0);
    this.metadata = plan.annotate ? new ResultsMetadataBuilder(plan.cols) : null;
    this.insights = plan.annotate ? new InsightsBuilder(plan.cols) : null;
    this.trend = this.insights?.active ? this.insights : null;
  }

  /** Rows kept so far. */
  get count(): number {
    return this.seen;
  }

  /** Whether the row limit is reached (further rows would be dropped). */
  get full(): boolean {
    return this.plan.maxRows !== null && this.seen >= this.plan.maxRows;
  }

  /** Cuts `rows` at the limit, converts their values in place and annotates them; returns the rows kept. */
  process(rows: unknown[][]): unknown[][] {
    const max = this.plan.maxRows;
    const kept = max !== null && this.seen + rows.length > max ? rows.slice(0, Math.max(0, max - this.seen)) : rows;
    const { convert, active, metadata, trend } = this;
    for (let r = 0; r < kept.length; r++) {
      const row = kept[r];
      for (let a = 0; a < active.length; a++) {
        const i = active[a];
        row[i] = convert[i](row[i]);
      }
      metadata?.add(row);
      trend?.add(row);
    }
    this.seen += kept.length;
    return kept;
  }

  /** `process`, then the rows kept as JSON array elements without the brackets ('' for none). */
  json(rows: unknown[][]): string {
    const kept = this.process(rows);
    return kept.length ? JSON.stringify(kept).slice(1, -1) : '';
  }

  summary(): RowSummary {
    return {
      ...(this.metadata ? { results_metadata: this.metadata.build() } : {}),
      ...(this.insights ? { insights: this.insights.build() } : {}),
    };
  }
}
