// Reading PNGs the way a user's viewer would: the signature, and the width and height from the IHDR chunk.

import assert from 'node:assert/strict';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngSize(png: Buffer): { width: number; height: number } {
  assert.ok(Buffer.isBuffer(png), 'a Buffer');
  assert.deepEqual(png.subarray(0, 8), SIGNATURE, 'PNG signature');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR', 'IHDR first');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
