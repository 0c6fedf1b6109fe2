// Progress of a send recipient by recipient. Email goes out as several messages per channel (the users together, each
// raw address apart), and an SMTP server may accept some recipients of a message and refuse others; so what a channel
// has done is kept per address — sent, or refused for good — and checkpointed after every message. A retry, or
// another instance taking the send over after a crash, sends only to the addresses not yet dealt with.

import { TransientError } from '../../tasks/scheduler.js';
import type { RefusedRecipient } from '../email/smtp.js';

export type RecipientState = 'sent' | 'refused';

export interface RecipientLog {
  isDone(address: string): boolean;
  /** Records one message's outcome (and checkpoints it). */
  record(sent: string[], refusedForGood: string[]): Promise<void>;
}

/** For sends that are never retried (test sends, "send now"). */
export const NO_LOG: RecipientLog = { isDone: () => false, record: async () => {} };

/** A log over `states` (address → state), calling `save` after each message. */
export function recipientLog(states: Record<string, RecipientState>, save: () => Promise<void>): RecipientLog {
  return {
    isDone: (address) => states[address.toLowerCase()] !== undefined,
    async record(sent, refusedForGood) {
      for (const a of sent) states[a.toLowerCase()] = 'sent';
      for (const a of refusedForGood) states[a.toLowerCase()] = 'refused';
      await save();
    },
  };
}

export const isPermanentRefusal = (r: RefusedRecipient) => r.code === null || r.code >= 500;

/** Some recipients of a channel were refused by the mail server; the rest got the mail. */
export class RecipientsRefusedError extends Error {
  constructor(readonly refused: RefusedRecipient[]) {
    super(`The mail server refused ${refused.map((r) => `${r.address} (${r.message})`).join('; ')}`);
    this.name = 'RecipientsRefusedError';
  }
}

/** The failure to throw for refused recipients: retried when any refusal was temporary (4xx), final otherwise. */
export function refusalFailure(refused: RefusedRecipient[]): Error {
  const error = new RecipientsRefusedError(refused);
  return refused.some((r) => !isPermanentRefusal(r)) ? new TransientError(error.message, { cause: error }) : error;
}

/** The refused recipients behind a delivery failure, for task history. */
export function refusedRecipientsOf(error: unknown): RefusedRecipient[] | null {
  const e = error instanceof RecipientsRefusedError ? error : (error as { cause?: unknown })?.cause;
  return e instanceof RecipientsRefusedError ? e.refused : null;
}
