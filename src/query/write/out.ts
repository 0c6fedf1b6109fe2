// A text/byte output with backpressure: writers append strings; they go out in ~64 KB chunks, and a full socket
// makes the writer wait instead of piling rows up in memory.
//
// The response starts lazily: a result that ends before its first chunk is full goes out as one plain body (no
// chunked encoding: the common small result is as cheap as any JSON reply); a larger one starts streaming with its
// first chunk; a slow query starts it after `keepAliveMs` with a newline (valid leading JSON whitespace), so that
// status and headers reach the client early, as Metabase commits them before the query runs.

import { PassThrough } from 'node:stream';

const CHUNK = 64 * 1024;

export type Start = (whole: string | null) => void;

export class Out {
  readonly stream = new PassThrough({ highWaterMark: CHUNK });
  private parts: string[] = [];
  private size = 0;
  private closed = false;
  private started = false;
  private timer: NodeJS.Timeout | null = null;

  /** `start(whole)`: send `whole` as the body, or (null) start streaming `stream`. */
  constructor(
    private readonly start: Start,
    keepAliveMs: number | null = null,
    private readonly keepAliveText = '\n',
  ) {
    this.stream.on('close', () => {
      this.closed = true;
    });
    this.stream.on('error', () => {
      this.closed = true;
    });
    if (keepAliveMs !== null) {
      this.timer = setTimeout(() => {
        if (this.started) return;
        this.begin();
        if (this.keepAliveText && !this.parts.length) this.stream.write(this.keepAliveText);
      }, keepAliveMs);
      this.timer.unref();
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether status and headers went out already (an error can then only be written into the body). */
  get hasStarted(): boolean {
    return this.started;
  }

  /** Stops the keep-alive timer of a response that never started (the request was answered another way). */
  abandon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Starts streaming now (downloads whose writers write to `stream` directly). */
  begin(): void {
    if (this.started) return;
    this.started = true;
    if (this.timer) clearTimeout(this.timer);
    this.start(null);
  }

  async write(text: string): Promise<void> {
    if (this.closed) return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.closed) return;
    this.begin();
    if (!this.parts.length) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(chunk)) await this.drained();
  }

  async writeBuffer(buffer: Buffer): Promise<void> {
    await this.flush();
    if (this.closed) return;
    if (!this.stream.write(buffer)) await this.drained();
  }

  drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
    });
  }

  async end(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (!this.started) {
      this.started = true;
      const whole = this.parts.join('');
      this.parts = [];
      this.start(whole);
      return;
    }
    await this.flush();
    if (!this.closed) this.stream.end();
  }
}
