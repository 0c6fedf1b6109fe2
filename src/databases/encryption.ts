// Connection details at rest: AES-256-GCM when MB_ENCRYPTION_SECRET_KEY is set, plain JSON otherwise.
// The key is derived from the secret with scrypt (salted per value); the stored form is
// "quarry:v1:" + base64(salt ‖ iv ‖ tag ‖ ciphertext). Values written before a key was set still read back as
// plain JSON, and are encrypted the next time they are saved.

import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const PREFIX = 'quarry:v1:';
const SALT = 16;
const IV = 12;
const TAG = 16;
const keyCache = new Map<string, Buffer>();

function keyFor(secret: string, salt: Buffer): Buffer {
  const id = `${salt.toString('hex')}:${secret}`;
  let key = keyCache.get(id);
  if (!key) {
    key = scryptSync(secret, salt, 32);
    if (keyCache.size > 1000) keyCache.clear();
    keyCache.set(id, key);
  }
  return key;
}

export function isEncrypted(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function encryptText(plain: string, secret: string | null): string {
  if (!secret) return plain;
  const salt = randomBytes(SALT);
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, salt), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([salt, iv, cipher.getAuthTag(), body]).toString('base64');
}

export function decryptText(stored: string, secret: string | null): string {
  if (!isEncrypted(stored)) return stored;
  if (!secret) throw new Error('These connection details are encrypted; set MB_ENCRYPTION_SECRET_KEY to the key they were saved with.');
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
  const salt = raw.subarray(0, SALT);
  const iv = raw.subarray(SALT, SALT + IV);
  const tag = raw.subarray(SALT + IV, SALT + IV + TAG);
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, salt), iv);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(raw.subarray(SALT + IV + TAG)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('Could not decrypt the connection details: MB_ENCRYPTION_SECRET_KEY is not the key they were saved with.');
  }
}
