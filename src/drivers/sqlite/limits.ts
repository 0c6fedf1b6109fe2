/** Worker processes per SQLite database: each is a Node process, so few; reads run in parallel across them. */
export const SQLITE_MAX_WORKERS = 4;
