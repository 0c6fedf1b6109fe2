// Streams one statement's rows in batches over the extended query protocol, without pg-cursor's extra round trips.
//
// A statement is sent as one write — Parse, Bind, Describe, Execute(batch), Flush — on the unnamed statement and
// portal. PostgreSQL answers with the row description and up to `batch` rows, then PortalSuspended (more to come: handing
// a batch over sends Execute(batch) + Flush again at once, so the server produces the next batch while the caller
// handles this one — one batch ahead at most) or CommandComplete (the last batch, handed over at once). No Close,
// no waiting for ReadyForQuery before the rows are used: a small result costs one round trip, as a plain
// `client.query` does. `close()` — at the end, or early when a row limit is reached — sends the Sync that ends the
// implicit transaction (dropping the portal); the connection is usable again once ReadyForQuery answers it, and pg's
// client queues anything submitted before that, so it can go back to the pool at once.
//
// A server error is answered with the Sync the protocol needs (unless one went out already: a second would produce a
// ReadyForQuery pg would credit to the next statement).

import type pg from 'pg';
import { prepareValue } from 'pg/lib/utils.js';

type Parser = (text: string) => unknown;

/** The parts of pg's Connection used here (its published types differ from the implementation on `rows`). */
interface ProtocolConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { text: string; name?: string; types?: number[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[] }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows: number }): void;
  flush(): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface Waiter {
  resolve(rows: unknown[][] | null): void;
  reject(error: unknown): void;
}

export class PortalReader implements pg.Submittable {
  /** The result's columns once the first batch arrived; null for statements without rows (DDL, empty text). */
  fields: pg.FieldDef[] | null = null;
  private readonly values: unknown[];
  private connection: ProtocolConnection | null = null;
  private parsers: Parser[] = [];
  private rows: unknown[][] = [];
  private state: 'waiting' | 'reading' | 'suspended' | 'complete' = 'waiting';
  private error: unknown = null;
  private synced = false;
  private closed = false;
  private waiter: Waiter | null = null;

  /** Throws (before anything is sent) when a value can't be bound, as pg's own query does. */
  constructor(
    private readonly text: string,
    values: unknown[],
    private readonly batch: number,
    private readonly types: pg.CustomTypesConfig,
  ) {
    this.values = values.map((v) => prepareValue(v));
  }

  /** Called by pg's client when the statement's turn comes on the connection. */
  submit(connection: pg.Connection): void {
    const con = connection as unknown as ProtocolConnection;
    this.connection = con;
    this.state = 'reading';
    con.stream.cork?.();
    try {
      con.parse({ text: this.text, name: '' });
      con.bind({ portal: '', statement: '', values: this.values });
      con.describe({ type: 'P', name: '' });
      con.execute({ portal: '', rows: this.batch });
      con.flush();
    } finally {
      con.stream.uncork?.();
    }
  }

  /** The next batch of rows, or null after the last one. */
  next(): Promise<unknown[][] | null> {
    if (this.error) return Promise.reject(this.error);
    if (this.state === 'suspended' || this.state === 'complete') {
      if (this.rows.length) return Promise.resolve(this.takeAndPrefetch());
      if (this.state === 'complete' || this.closed) return Promise.resolve(null);
      this.fetch();
    } else if (this.closed) {
      return Promise.resolve(null);
    }
    if (this.waiter) return Promise.reject(new Error('PortalReader: a read is already in progress.'));
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /**
   * Stops reading. The Sync that ends the statement (and drops a portal with rows left) goes out on the next turn of
   * the event loop — after whatever the caller does with the rows it has, such as answering a request. Rows still
   * arriving are ignored.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.rows = [];
    if (this.connection && !this.synced && this.error === null) {
      this.synced = true;
      setImmediate(() => this.connection!.sync());
    }
    this.waiter?.resolve(null);
    this.waiter = null;
  }

  private take(): unknown[][] {
    const out = this.rows;
    this.rows = [];
    return out;
  }

  /**
   * Hands over the batch that arrived and, if the portal has more, asks for the next one at once, so PostgreSQL
   * produces it while the caller handles this one (at most one batch ahead).
   */
  private takeAndPrefetch(): unknown[][] {
    const out = this.take();
    if (this.state === 'suspended' && !this.closed) this.fetch();
    return out;
  }

  private fetch(): void {
    this.state = 'reading';
    const con = this.connection!;
    // One write for both messages, as in submit().
    con.stream.cork?.();
    try {
      con.execute({ portal: '', rows: this.batch });
      con.flush();
    } finally {
      con.stream.uncork?.();
    }
  }

  private sync(): void {
    this.synced = true;
    this.connection!.sync();
  }

  /** A batch ended (suspended or complete): hand it to the waiting reader. */
  private settle(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    if (this.closed) waiter.resolve(null);
    else if (this.rows.length) waiter.resolve(this.takeAndPrefetch());
    else if (this.state === 'complete') waiter.resolve(null);
    else {
      // suspended with no rows can't happen (a batch of 0 is never asked for); read on rather than hang
      this.waiter = waiter;
      this.fetch();
    }
  }

  // ----- pg's client calls these as the server's messages arrive ------------------------------------------------------

  handleRowDescription(msg: { fields: pg.FieldDef[] }): void {
    this.fields = msg.fields;
    this.parsers = msg.fields.map((f) => this.types.getTypeParser(f.dataTypeID, (f.format || 'text') as 'text') as Parser);
  }

  handleDataRow(msg: { fields: Array<string | null> }): void {
    if (this.closed) return;
    const raw = msg.fields;
    const row = new Array<unknown>(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const value = raw[i];
      row[i] = value === null ? null : this.parsers[i](value);
    }
    this.rows.push(row);
  }

  handlePortalSuspended(): void {
    this.state = 'suspended';
    this.settle();
  }

  handleCommandComplete(): void {
    // The Sync comes with close(): the rows needn't wait for that write.
    this.state = 'complete';
    this.settle();
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  handleError(error: unknown): void {
    if (this.error === null) this.error = error;
    // The server skips everything up to the next Sync after an error.
    if (this.connection && !this.synced) this.sync();
    this.state = 'complete';
    this.rows = [];
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(error);
  }

  handleReadyForQuery(): void {
    // the connection is free again; nothing waits for this
  }

  handleCopyInResponse(connection: pg.Connection): void {
    (connection as unknown as ProtocolConnection).sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}
}
