// Step 2 of a sync: sample each table (its first 10,000 rows, one query per table), fingerprint every field and
// classify it (semantic type, has_field_values, preview_display). Tables are marked initial_sync_status complete
// once analysed. Attributes an admin edited are kept.

import type { AppContext } from '../context.js';
import type { OpenDatabase } from '../databases/connections.js';
import type { FieldRow, TableRow } from '../databases/database-row.js';
import { collectRows } from '../drivers/shared/row-stream.js';
import { nowIso } from '../appdb/portable.js';
import { adminEdited } from './admin-edits.js';
import { classifyField } from './classify.js';
import { FINGERPRINT_VERSION, SAMPLE_ROWS, fingerprintValues, isFingerprintable } from './fingerprint.js';
import { sampleSql } from './sql.js';

const ANALYSIS_TIMEOUT_MS = 5 * 60_000;

async function analyzeTable(ctx: AppContext, open: OpenDatabase, table: TableRow, fields: FieldRow[], signal?: AbortSignal): Promise<void> {
  const { driver, connection } = open;
  const sampled = fields.filter((f) => f.active && f.nfc_path === null && f.parent_id === null && f.visibility_type !== 'retired' && isFingerprintable(f.base_type));
  const now = nowIso();
  if (sampled.length) {
    const stream = await connection.execute(sampleSql(driver, table, sampled.map((f) => f.name), SAMPLE_ROWS), [], { signal, timeoutMs: ANALYSIS_TIMEOUT_MS });
    const rows = await collectRows(stream);
    for (let i = 0; i < sampled.length; i++) {
      const field = sampled[i];
      const fingerprint = fingerprintValues(field.base_type, field.effective_type ?? field.base_type, rows.map((r) => r[i]));
      const edited = adminEdited(field);
      const verdict = classifyField(field, fingerprint);
      const changes: Record<string, unknown> = {
        fingerprint: JSON.stringify(fingerprint),
        fingerprint_version: FINGERPRINT_VERSION,
        last_analyzed: now,
        updated_at: now,
      };
      if (!edited.has('semantic_type') && verdict.semanticType !== field.semantic_type) changes.semantic_type = verdict.semanticType;
      if (!edited.has('has_field_values') && verdict.hasFieldValues !== field.has_field_values) changes.has_field_values = verdict.hasFieldValues;
      if (!edited.has('preview_display') && field.last_analyzed === null && verdict.previewDisplay !== Boolean(field.preview_display)) {
        changes.preview_display = verdict.previewDisplay;
      }
      await ctx.db.updateTable('metabase_field').set(changes).where('id', '=', field.id).execute();
    }
  }
  if (table.initial_sync_status !== 'complete') {
    await ctx.db.updateTable('metabase_table').set({ initial_sync_status: 'complete', updated_at: now }).where('id', '=', table.id).execute();
  }
}

export interface AnalyzeResult {
  tables: number;
  failed: Array<{ table: string; error: string }>;
}

/**
 * Fingerprints and classifies the fields of every active table (or only `tableIds`; or, with `onlyUnanalyzed`,
 * only tables that have fields never fingerprinted at the current version).
 */
export async function analyzeDatabase(
  ctx: AppContext,
  open: OpenDatabase,
  options: { tableIds?: number[]; signal?: AbortSignal; onlyUnanalyzed?: boolean } = {},
): Promise<AnalyzeResult> {
  let query = ctx.db.selectFrom('metabase_table').selectAll().where('db_id', '=', open.database.id).where('active', '=', true);
  if (options.tableIds) query = query.where('id', 'in', options.tableIds.length ? options.tableIds : [-1]);
  const tables = await query.orderBy('id').execute();
  const fields = await ctx.db
    .selectFrom('metabase_field')
    .selectAll()
    .where('table_id', 'in', tables.length ? tables.map((t) => t.id) : [-1])
    .orderBy('database_position')
    .execute();
  const failed: AnalyzeResult['failed'] = [];
  const stale = (f: FieldRow) => f.active && f.nfc_path === null && isFingerprintable(f.base_type) && f.fingerprint_version < FINGERPRINT_VERSION;
  for (const table of tables) {
    options.signal?.throwIfAborted();
    if (options.onlyUnanalyzed && !fields.some((f) => f.table_id === table.id && stale(f))) continue;
    try {
      await analyzeTable(ctx, open, table, fields.filter((f) => f.table_id === table.id), options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // One unreadable table (permissions, a broken view) must not stop the others.
      failed.push({ table: table.name, error: (error as Error).message });
      ctx.log.warn({ err: error, table: table.name, db: open.database.id }, 'fingerprinting a table failed');
    }
  }
  return { tables: tables.length, failed };
}
