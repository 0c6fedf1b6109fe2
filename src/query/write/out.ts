// A text/byte output with backpressure: writers append strings; they go out in ~64 KB chunks, and a full socket
// makes the writer wait instead of piling rows up in memory. Fastify sends `stream` as the response body.

import { PassThrough } from 'node:stream';

const CHUNK = 64 * 1024;

export class Out {
  readonly stream = new PassThrough({ highWaterMark: CHUNK });
  private parts: string[] = [];
  private size = 0;
  private closed = false;

  constructor() {
    this.stream.on('close', () => {
      this.closed = true;
    });
    this.stream.on('error', () => {
      this.closed = true;
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async write(text: string): Promise<void> {
    if (this.closed) return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.parts.length || this.closed) return;
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

  private drained(): Promise<void> {
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
    await this.flush();
    if (!this.closed) this.stream.end();
  }
}
