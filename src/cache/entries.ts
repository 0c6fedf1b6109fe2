// Stored results (`query_cache`): one gzipped entry per cache key, shared by every instance through the app DB.
//
// An entry is JSON lines: a header (the columns), one line per batch of rows, and a summary line last. A result is
// recorded while it streams to its first viewer (`EntryRecorder`); only a complete run is ever stored, in one
// statement, and an entry is read back whole and checked (gzip's CRC, header first, summary last) before anything
// is replayed from it — so no viewer, and no download, is ever built from part of one.
//
// Limits: `query-caching-max-kb` per entry (compressed; a bigger result is simply not stored), and
// `query-caching-max-total-kb` for all entries together (oldest go first); entries older than
// `query-caching-max-ttl` are purged.

import { gzip, gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { AppContext } from '../context.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Raw (uncompressed) text kept per entry at most, as a multiple of the compressed cap: bounds memory while recording. */
const RAW_PER_COMPRESSED = 12;
/** Never hold more than this much raw text for one recording, whatever the cap. */
const RAW_ABSOLUTE_MAX = 256 * 1024 * 1024;

/** Row values JSON can't carry as they are (non-finite floats) are written tagged and read back as they were. */
function encodeValue(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return { $num: String(value) };
  return value;
}

function decodeValue(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const tagged = (value as { $num?: unknown }).$num;
    if (typeof tagged === 'string' && Object.keys(value).length === 1) return Number(tagged);
  }
  return value;
}

export interface DecodedEntry {
  header: Record<string, unknown>;
  batches: unknown[][][];
  summary: Record<string, unknown>;
}

/** Collects a result as it streams; gives up (and frees what it held) once it can't fit the per-entry cap. */
export class EntryRecorder {
  private readonly parts: string[] = [];
  private raw = 0;
  private abandoned = false;
  private readonly rawCap: number;

  constructor(readonly maxBytes: number) {
    this.rawCap = Math.min(RAW_ABSOLUTE_MAX, maxBytes * RAW_PER_COMPRESSED);
  }

  get active(): boolean {
    return !this.abandoned;
  }

  private push(line: string): void {
    if (this.abandoned) return;
    this.raw += line.length + 1;
    if (this.raw > this.rawCap) {
      this.abandon();
      return;
    }
    this.parts.push(line);
  }

  header(header: Record<string, unknown>): void {
    this.push(JSON.stringify(header));
  }

  rows(batch: unknown[][]): void {
    if (batch.length && !this.abandoned) this.push(JSON.stringify(batch, encodeValue));
  }

  summary(summary: Record<string, unknown>): void {
    this.push(JSON.stringify(summary));
  }

  abandon(): void {
    this.abandoned = true;
    this.parts.length = 0;
  }

  /** The recorded result, decoded (for viewers who waited on this run), or null when it was abandoned. */
  decoded(): DecodedEntry | null {
    return this.abandoned ? null : decodeLines(this.parts);
  }

  /** The compressed entry, or null when it doesn't fit `maxBytes`. */
  async compressed(): Promise<Buffer | null> {
    if (this.abandoned) return null;
    const buffer = await gzipAsync(Buffer.from(this.parts.join('\n'), 'utf8'));
    return buffer.length > this.maxBytes ? null : buffer;
  }
}

function decodeLines(lines: string[]): DecodedEntry | null {
  if (lines.length < 2) return null;
  try {
    const header = JSON.parse(lines[0]) as Record<string, unknown>;
    const summary = JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
    if (!header || typeof header !== 'object' || !Array.isArray(header.cols)) return null;
    if (!summary || typeof summary !== 'object' || typeof summary.row_count !== 'number') return null;
    const batches = lines.slice(1, -1).map((line) => JSON.parse(line, decodeValue) as unknown[][]);
    if (!batches.every(Array.isArray)) return null;
    const count = batches.reduce((n, b) => n + b.length, 0);
    return count === summary.row_count ? { header, batches, summary } : null;
  } catch {
    return null;
  }
}

/** A stored entry, decompressed and checked whole; null when it is damaged or incomplete. */
export async function decodeEntry(buffer: Buffer): Promise<DecodedEntry | null> {
  try {
    return decodeLines((await gunzipAsync(buffer)).toString('utf8').split('\n'));
  } catch {
    return null;
  }
}

export interface StoredEntry {
  updatedAt: string;
  results: Buffer;
}

/** When the entry of `hash` was stored, if there is one (without reading it). */
export async function entryStoredAt(ctx: AppContext, hash: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('query_cache').select('updated_at').where('query_hash', '=', hash).executeTakeFirst();
  return row?.updated_at ?? null;
}

/** The entry of `hash` stored at or after `since`, if any. */
export async function readEntry(ctx: AppContext, hash: string, since: string): Promise<StoredEntry | null> {
  const row = await ctx.db
    .selectFrom('query_cache')
    .select(['updated_at', 'results'])
    .where('query_hash', '=', hash)
    .where('updated_at', '>=', since)
    .executeTakeFirst();
  return row ? { updatedAt: row.updated_at, results: Buffer.from(row.results) } : null;
}

export interface NewEntry {
  hash: string;
  updatedAt: string;
  results: Buffer;
  databaseId: number;
  cardId: number | null;
  dashboardId: number | null;
  configId: number | null;
  refresh: Record<string, unknown> | null;
}

/** Stores (or replaces) an entry in one statement; a newer entry already there is kept. */
export async function writeEntry(ctx: AppContext, entry: NewEntry): Promise<void> {
  const values = {
    updated_at: entry.updatedAt,
    results: entry.results,
    size_bytes: entry.results.length,
    database_id: entry.databaseId,
    card_id: entry.cardId,
    dashboard_id: entry.dashboardId,
    config_id: entry.configId,
    refresh: entry.refresh ? JSON.stringify(entry.refresh) : null,
  };
  const updated = await ctx.db
    .updateTable('query_cache')
    .set(values)
    .where('query_hash', '=', entry.hash)
    .where('updated_at', '<=', entry.updatedAt)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  try {
    await ctx.db.insertInto('query_cache').values({ query_hash: entry.hash, ...values }).execute();
  } catch {
    // the row exists (newer, or stored by another instance at the same moment): keep it
  }
}

/** Drops entries past `query-caching-max-ttl`, then the oldest while all of them exceed the total cap. */
export async function purgeEntries(ctx: AppContext, now = new Date()): Promise<number> {
  let removed = 0;
  const maxTtl = Number(await ctx.settings.get('query-caching-max-ttl'));
  if (Number.isFinite(maxTtl) && maxTtl > 0) {
    const cutoff = new Date(now.getTime() - maxTtl * 1000).toISOString();
    const result = await ctx.db.deleteFrom('query_cache').where('updated_at', '<', cutoff).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  const totalKb = Number(await ctx.settings.get('query-caching-max-total-kb'));
  if (!Number.isFinite(totalKb) || totalKb <= 0) return removed;
  const cap = totalKb * 1024;
  const total = await ctx.db.selectFrom('query_cache').select((eb) => eb.fn.sum<number>('size_bytes').as('bytes')).executeTakeFirst();
  let excess = Number(total?.bytes ?? 0) - cap;
  while (excess > 0) {
    const oldest = await ctx.db.selectFrom('query_cache').select(['query_hash', 'size_bytes']).orderBy('updated_at').limit(100).execute();
    if (!oldest.length) break;
    const doomed: string[] = [];
    for (const row of oldest) {
      if (excess <= 0) break;
      doomed.push(row.query_hash);
      excess -= row.size_bytes;
    }
    const result = await ctx.db.deleteFrom('query_cache').where('query_hash', 'in', doomed).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
