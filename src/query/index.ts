// The query engine's public entry points. Other modules (cards, dashboards, public links, embedding, pulses) run
// queries only through these; see README.md for the options and examples.

import './settings.js';
export { querySettings } from './settings.js';

export { runQuery, runQueryToMemory, runQueryToFile, compileToNative, acquireDatabaseSlot, record as recordQueryExecution, type QueryResult, type ExportedFile } from './run.js';
export { runPivotQuery, runPivotQueryToFile } from './pivot.js';
export { resultMetadataOf } from './result-metadata.js';
export { prepareQuery, displaySql, queryHash, type QueryRequest, type PreparedQuery, type ExportFormat } from './pipeline.js';
export { registerCardSource, registerSnippetSource, registerSegmentSource, registerLegacyMetricSource, registerPersistedModelSource } from './sources.js';
export type { SavedCard, Snippet, Segment, LegacyMetric, PersistedModel } from './sources.js';
export { averageRunningTimes, averageRunningTimeOfHash, executionCounts, recentExecutions, flushExecutions } from './executions/record.js';
export { QueryError } from './errors.js';
export { normalizeQuery } from './mbql/normalize.js';
export type { DatasetQuery, MbqlQuery, Parameter, Constraints } from './mbql/types.js';
