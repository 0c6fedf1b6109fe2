// Names sync stores in the app DB's varchar(254) name columns (schema, table and field names). Engines such as SQLite
// and DuckDB allow longer ones; PostgreSQL and MySQL app DBs refuse them, so sync leaves such tables, columns and
// nested JSON keys out (with a warning) on every app DB, and cuts display names to fit.

import { NAME_MAX } from '../util/fit.js';

/** Whether a name fits a varchar(254) column (counted in characters, as PostgreSQL and MySQL count them). */
export function fitsNameColumn(name: string | null | undefined): boolean {
  return name === null || name === undefined || name.length <= NAME_MAX || [...name].length <= NAME_MAX;
}

/** A name as logs show it: long ones cut, so a warning about a 10,000-character name stays readable. */
export function loggedName(name: string): string {
  return name.length > 80 ? `${name.slice(0, 80)}… (${[...name].length} characters)` : name;
}
