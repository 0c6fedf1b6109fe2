// pg's own value preparation (arrays → PostgreSQL array literals, dates, buffers, JSON), which pg-cursor also uses;
// published by pg under "./lib/*" but without types.
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): string | Buffer | null;
}
