// The PostgreSQL statement thread (./worker-client.ts starts it): it holds the pools that run the data sources'
// statements, reads their rows (pg parses every value there) and, asked to `encode`, runs the query engine's row pass
// (../../query/results/row-processor.ts) and sends JSON text — so a 2,000-row API result costs the server's event loop
// a string copy instead of parsing, converting, fingerprinting and writing 2,000 rows. Several statements run at once;
// each message names its statement.
//
// Protocol (./worker-protocol.ts; an `error` reply for anything that fails):
//   run {sql, params, zone}  → columns {fields, done}   checks out a connection, sends the statement, holds the first batch
//   next                     → rows {rows, done}        values; or, after `encode`: json {json, count, done, summary?}
//   encode {plan}            → json {json, count, done, summary?}
//   close, cancel            → (no reply)               lets the connection go / pg_cancel_backend on its backend
//   end                      → ended                    closes a database's pool

import { parentPort } from 'node:worker_threads';
import pg from 'pg';
import { RowProcessor, type RowPlan } from '../../query/results/row-processor.js';
import { cancelBackend, postgresClientConfig } from './client-config.js';
import { postgresTypeParsers } from './values.js';
import { PortalReader } from './portal.js';
import { collectGarbage } from '../../util/release-memory.js';
import type { PoolConfig, WorkerError, WorkerReply, WorkerRequest } from './worker-protocol.js';

/** An encoded reply carries at least this much JSON (or the rest of the rows): fewer messages for big results. */
const JSON_CHUNK = 1024 * 1024;

interface Statement {
  id: number;
  pool: number;
  config: pg.ClientConfig;
  client: pg.PoolClient | null;
  reader: PortalReader | null;
  /** The first batch, read by `run` and handed out by the first read. */
  held: unknown[][] | null;
  finished: boolean;
  failed: boolean;
  cancelled: boolean;
  released: boolean;
  /** Cancelled while waiting for a connection: already answered, so the connection goes straight back. */
  abandoned: boolean;
  zone: string | null;
  processor: RowProcessor | null;
}

const pools = new Map<number, { pool: pg.Pool; config: pg.ClientConfig }>();
const statements = new Map<number, Statement>();

// An idle thread doesn't allocate, so V8 would keep the last results' garbage (megabytes) as RSS: collect once the
// thread has had no statement for a moment.
const IDLE_COLLECT_MS = 2000;
let idleTimer: NodeJS.Timeout | null = null;

function noteActivity(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (statements.size > 0) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (statements.size === 0) collectGarbage();
  }, IDLE_COLLECT_MS);
  idleTimer.unref();
}

function poolFor(id: number, config: PoolConfig): { pool: pg.Pool; config: pg.ClientConfig } {
  let entry = pools.get(id);
  if (!entry) {
    const clientConfig = postgresClientConfig(config.details, config.connectTimeoutMs);
    const pool = new pg.Pool({ ...clientConfig, max: config.max, idleTimeoutMillis: 60_000 });
    pool.on('error', () => {}); // an idle client dying surfaces on the next checkout instead of crashing
    pool.on('connect', (client) => client.on('error', () => {})); // …and a checked-out one on its next read
    entry = { pool, config: clientConfig };
    pools.set(id, entry);
  }
  return entry;
}

function figures(poolId: number) {
  const pool = pools.get(poolId)?.pool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 0, idle: 0, waiting: 0 };
}

function send(reply: WorkerReply): void {
  parentPort!.postMessage(reply);
}

/** An error as plain data: the class, the message and the primitive fields (pg's code, position, detail…). */
function serialize(error: unknown, kind: WorkerError['kind']): WorkerError {
  const e = (error ?? {}) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(e)) {
    const value = e[key];
    if (value === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof value)) fields[key] = value;
  }
  const name = error instanceof Error ? error.constructor.name : 'Error';
  return { kind, name, message: error instanceof Error ? error.message : String(error), fields };
}

function fail(id: number, poolId: number, error: unknown, kind: WorkerError['kind'] = 'statement'): void {
  send({ id, type: 'error', pool: poolId, figures: figures(poolId), error: serialize(error, kind) });
}

/** Ends the statement: drops its portal, puts the session's time zone back and returns (or discards) the connection. */
async function release(st: Statement): Promise<void> {
  if (st.released) return;
  st.released = true;
  statements.delete(st.id);
  st.reader?.close();
  const client = st.client;
  if (!client) return;
  if (st.zone && !st.failed && !st.cancelled) {
    await client.query('RESET TIME ZONE').catch(() => {
      st.failed = true;
    });
  }
  // A connection whose statement failed (or whose zone couldn't be reset) is discarded, not reused.
  client.release(st.failed || st.cancelled);
}

/** The next batch of rows, or null at the end (the connection is then already released). */
async function readBatch(st: Statement): Promise<unknown[][] | null> {
  if (st.held) {
    const rows = st.held;
    st.held = null;
    return rows;
  }
  if (st.finished || !st.reader) {
    st.finished = true;
    await release(st);
    return null;
  }
  let rows: unknown[][] | null;
  try {
    rows = await st.reader.next();
  } catch (error) {
    st.failed = true;
    await release(st);
    throw error;
  }
  if (rows === null) {
    st.finished = true;
    await release(st);
  }
  return rows;
}

async function run(m: Extract<WorkerRequest, { type: 'run' }>): Promise<void> {
  const { pool, config } = poolFor(m.pool, m.config);
  const st: Statement = {
    id: m.id,
    pool: m.pool,
    config,
    client: null,
    reader: null,
    held: null,
    finished: false,
    failed: false,
    cancelled: false,
    released: false,
    abandoned: false,
    zone: m.zone,
    processor: null,
  };
  statements.set(m.id, st);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    statements.delete(m.id);
    if (!st.abandoned) fail(m.id, m.pool, error, 'connect');
    return;
  }
  if (st.abandoned) return client.release();
  st.client = client;
  // The report time zone as the session's TimeZone for this statement only; RESET puts the connection back.
  if (m.zone) {
    try {
      await st.client.query('SELECT set_config($1, $2, false)', ['TimeZone', m.zone]);
    } catch (error) {
      st.failed = true;
      await release(st);
      return fail(m.id, m.pool, error);
    }
  }
  try {
    st.reader = st.client.query(new PortalReader(m.sql, m.params, m.batch, postgresTypeParsers));
  } catch (error) {
    // a value pg can't bind: nothing was sent (the connection is fine, unless its zone was changed)
    st.failed = Boolean(m.zone);
    await release(st);
    return fail(m.id, m.pool, error);
  }
  let first: unknown[][] | null;
  try {
    first = await readBatch(st);
  } catch (error) {
    return fail(m.id, m.pool, error);
  }
  st.held = first;
  const fields = st.reader.fields ? st.reader.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) : null;
  send({ id: m.id, type: 'columns', pool: m.pool, figures: figures(m.pool), fields, done: first === null });
}

/** Rows encoded as JSON until the chunk is big enough, the rows end or the row limit is reached. */
async function encodedChunk(st: Statement, pass: RowProcessor): Promise<WorkerReply> {
  const parts: string[] = [];
  let size = 0;
  let rows = 0;
  let ended = false;
  while (size < JSON_CHUNK && !pass.full) {
    const batch = await readBatch(st);
    if (batch === null) {
      ended = true;
      break;
    }
    const before = pass.count;
    const json = pass.json(batch);
    rows += pass.count - before;
    if (json) {
      parts.push(json);
      size += json.length;
    }
  }
  const done = ended || pass.full;
  if (done) await release(st);
  const reply: WorkerReply = { id: st.id, type: 'json', json: parts.join(','), count: rows, done };
  if (done) reply.summary = pass.summary();
  return reply;
}

async function answer(m: WorkerRequest): Promise<void> {
  switch (m.type) {
    case 'run':
      return run(m);
    case 'encode':
    case 'next': {
      const st = statements.get(m.id);
      if (!st) {
        // released already (the last batch went out with the previous reply)
        send(m.type === 'encode' ? { id: m.id, type: 'json', json: '', count: 0, done: true, summary: new RowProcessor(m.plan as RowPlan).summary() } : { id: m.id, type: 'rows', rows: [], done: true });
        return;
      }
      try {
        if (m.type === 'encode') st.processor = new RowProcessor(m.plan as RowPlan);
        if (st.processor) {
          const reply = await encodedChunk(st, st.processor);
          send({ ...reply, pool: st.pool, figures: figures(st.pool) });
          return;
        }
        const rows = await readBatch(st);
        send({ id: m.id, type: 'rows', pool: st.pool, figures: figures(st.pool), rows: rows ?? [], done: rows === null });
      } catch (error) {
        st.failed = true;
        await release(st);
        fail(m.id, st.pool, error);
      }
      return;
    }
    case 'close': {
      const st = statements.get(m.id);
      if (st) await release(st);
      return;
    }
    case 'cancel': {
      const st = statements.get(m.id);
      if (!st) return;
      st.cancelled = true;
      if (!st.client) {
        // still waiting for a connection: answer now rather than when one frees up
        st.abandoned = true;
        statements.delete(st.id);
        return fail(st.id, st.pool, new Error('Query cancelled.'));
      }
      const pid = (st.client as unknown as { processID?: number }).processID;
      if (pid) await cancelBackend(st.config, pid).catch(() => {});
      return;
    }
    case 'end': {
      const entry = pools.get(m.pool);
      pools.delete(m.pool);
      await entry?.pool.end().catch(() => {});
      send({ id: m.id, type: 'ended', pool: m.pool });
      return;
    }
  }
}

parentPort!.on('message', (m: WorkerRequest) => {
  answer(m)
    .catch((error) => {
      if ('id' in m) fail(m.id, 'pool' in m ? m.pool : statements.get(m.id)?.pool ?? 0, error);
    })
    .finally(noteActivity);
});
