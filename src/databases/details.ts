// Reading and writing a database's connection details: typed by the driver, encrypted at rest, secrets masked on
// the way out, and the mask accepted on the way in as "keep what is stored".

import type { AppContext } from '../context.js';
import type { ConnectionDetails, Driver } from '../drivers/driver.js';
import { decryptText, encryptText } from './encryption.js';
import { parseJson } from '../appdb/portable.js';

export const SECRET_MASK = '**MetabasePass**';

export function readDetails(ctx: AppContext, stored: string): ConnectionDetails {
  return parseJson<ConnectionDetails>(decryptText(stored, ctx.config.encryptionSecretKey), {});
}

export function writeDetails(ctx: AppContext, details: ConnectionDetails): string {
  return encryptText(JSON.stringify(details), ctx.config.encryptionSecretKey);
}

/** Details as an admin sees them: secrets replaced by the mask. */
export function maskDetails(driver: Driver | null, details: ConnectionDetails): ConnectionDetails {
  const out: ConnectionDetails = { ...details };
  for (const key of driver?.secretDetails ?? []) {
    if (out[key] !== undefined && out[key] !== null && out[key] !== '') out[key] = SECRET_MASK;
  }
  return out;
}

/** On update: a secret sent back as the mask keeps its stored value. */
export function mergeSecrets(driver: Driver, incoming: Record<string, unknown>, stored: ConnectionDetails): Record<string, unknown> {
  const out: Record<string, unknown> = { ...incoming };
  for (const key of driver.secretDetails) {
    if (out[key] === SECRET_MASK) out[key] = stored[key];
  }
  return out;
}
