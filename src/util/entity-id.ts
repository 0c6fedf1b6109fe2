import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A 21-character NanoID, the format of Metabase's `entity_id`. */
export function newEntityId(): string {
  const bytes = randomBytes(21);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte & 63];
  return id;
}
