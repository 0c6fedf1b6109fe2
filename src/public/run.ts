// Running the card of shared content (a public link or a signed embed) once access has been checked: its saved query
// with the viewer's (already validated) parameter values, through the query engine without data permissions (the
// link or token is the authorization), as a result trimmed by ./results.ts, a download, or a pivot table.

import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { Respond } from '../http/route.js';
import { parseJson } from '../appdb/portable.js';
import { slugify } from '../util/slug.js';
import { datasetQueryOf, modelMetadataOf, type CardRow } from '../cards/store.js';
import { runQuery, runQueryToMemory, runPivotQuery, type ExportFormat, type QueryRequest } from '../query/index.js';
import { captureReply, sharedResult } from './results.js';

type Obj = Record<string, unknown>;

export type SharingKind = 'public' | 'embedded';

export interface SharedRun {
  kind: SharingKind;
  card: CardRow;
  dashboardId?: number | null;
  /** Validated parameters (./parameters.ts). */
  parameters: Obj[];
  exportFormat?: ExportFormat;
  formatRows?: boolean;
  /** Pivot-table results, with the card's row and column split. */
  pivot?: { rows?: number[]; cols?: number[] } | null;
  /** Visualization settings for downloads (the dashcard's over the card's). */
  visualizationSettings?: Obj;
}

/** Cancels the query when the viewer goes away before the answer is written. */
function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

function contextOf(run: SharedRun): string {
  if (run.exportFormat) return `${run.kind}-${run.exportFormat === 'api' ? 'json' : run.exportFormat}-download`;
  return `${run.kind}-${run.dashboardId ? 'dashboard' : 'question'}`;
}

/** 202 with the trimmed result, a download (200), or the pivot table. */
export async function runShared(ctx: AppContext, reply: FastifyReply, run: SharedRun): Promise<unknown> {
  const query: QueryRequest = {
    query: datasetQueryOf(run.card),
    caller: null,
    skipPermissionCheck: true,
    publicResult: true,
    sharing: run.kind,
    context: contextOf(run),
    cardId: run.card.id,
    dashboardId: run.dashboardId ?? null,
    parameters: run.parameters,
    signal: disconnectSignal(reply),
    modelMetadata: modelMetadataOf(run.card),
    cache: {},
  };
  const format = run.exportFormat;
  const filename = `${slugify(run.card.name) || 'query_result'}_${new Date().toISOString()}`;
  const pivot = run.pivot && (datasetQueryOf(run.card) as { type?: string }).type === 'query' ? run.pivot : null;

  if (format && format !== 'api') {
    // CSV, JSON and XLSX stream straight out (their failures are the engine's trimmed public failure).
    const download: QueryRequest = {
      ...query,
      exportFormat: format,
      formatRows: run.formatRows ?? false,
      filename,
      visualizationSettings: run.visualizationSettings ?? parseJson<Obj>(run.card.visualization_settings, {}),
    };
    return pivot ? runPivotQuery(ctx, reply, { ...download, pivot }) : runQuery(ctx, reply, download);
  }

  let result: Obj;
  if (pivot) {
    const captured = captureReply();
    await runPivotQuery(ctx, captured.reply, { ...query, pivot });
    result = JSON.parse(await captured.body()) as Obj;
  } else {
    result = (await runQueryToMemory(ctx, query)) as Obj;
  }
  const body = sharedResult(result);
  if (format === 'api') {
    return new Respond(200, body, {
      'Content-Disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}.json"`,
      'X-Accel-Buffering': 'no',
    });
  }
  return Respond.json(body, 202);
}
