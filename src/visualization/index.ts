// src/visualization: (columns, rows, display, settings) → a description of what to draw. Pure: no I/O and nothing
// Node-only, so the server's renderer and a browser use the same code.

export { describeVisualization, describeAsTable, SUPPORTED_DISPLAYS } from './describe.js';
export { DEFAULT_TABLE_ROWS, MAX_TABLE_ROWS, rowLimit } from './table.js';
export { COLORS, ACCENTS, seriesColor } from './palette.js';
export type * from './types.js';
