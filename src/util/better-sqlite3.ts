// better-sqlite3 for the Node.js that runs us. Its 12.x line (V8 API, compiled at install for this Node) aborts on
// Node 24 when an object it wraps is collected (Node 24's ObjectWrap cleanup hooks); its 13.x line (Node-API 10,
// prebuilt in the package) needs Node-API 10, which Node 20 lacks. Both are installed ("better-sqlite3" and the alias
// "better-sqlite3-napi"); this picks the one that works here. They have the same API. Import it from here, never
// from 'better-sqlite3' directly.

import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const load = createRequire(import.meta.url);

const Database: typeof BetterSqlite3 = Number(process.versions.napi) >= 10 ? load('better-sqlite3-napi') : load('better-sqlite3');

export default Database;
/** An open database. */
export type SqliteHandle = BetterSqlite3.Database;
