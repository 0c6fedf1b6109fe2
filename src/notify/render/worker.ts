// Entry point of a render worker thread (see ./pool.ts): renders one job at a time and posts the result back,
// PNG bytes transferred rather than copied.

import { parentPort } from 'node:worker_threads';
import { renderHtmlNow, renderPngNow } from './job.js';
import type { HtmlRenderOptions, RenderableCard, RenderableResult, RenderOptions } from './types.js';

interface Message {
  id: number;
  kind: 'png' | 'html';
  payload: { card: RenderableCard; result: RenderableResult; options: RenderOptions };
}

function detached(png: Buffer): Uint8Array<ArrayBuffer> {
  // A copy of its own, so transferring it can't detach memory other buffers share.
  return new Uint8Array(png);
}

parentPort?.on('message', (message: Message) => {
  const { card, result, options } = message.payload;
  try {
    if (message.kind === 'png') {
      const png = detached(renderPngNow(card, result, options));
      parentPort?.postMessage({ id: message.id, value: png }, [png.buffer]);
    } else {
      const rendered = renderHtmlNow(card, result, options as HtmlRenderOptions);
      const images = rendered.images.map((image) => ({ cid: image.cid, png: detached(image.png) }));
      parentPort?.postMessage({ id: message.id, value: { html: rendered.html, images } }, images.map((image) => image.png.buffer));
    }
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
