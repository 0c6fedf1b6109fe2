// Feedback on the assistant's answers: stored in the app DB (Metabase posted it to a vendor's URL), readable by
// admins. The body is what Metabase's client sends — entity_type, prompt, sql, feedback_type,
// prompt_template_versions — and anything else it holds is kept with it.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest } from '../http/errors.js';
import { insertReturningId, nowIso, parseJson } from '../appdb/portable.js';
import type { AssistantFeedbackTable } from './tables.js';

const MAX_TEXT = 100_000;

export interface FeedbackJson {
  id: number;
  user_id: number | null;
  entity_type: string | null;
  feedback_type: string | null;
  prompt: string | null;
  sql: string | null;
  prompt_template_versions: string[];
  body: Record<string, unknown>;
  created_at: string;
}

function text(body: Record<string, unknown>, key: string): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${key} must be a string.`);
  if (value.length > MAX_TEXT) throw badRequest(`${key} must be at most ${MAX_TEXT} characters.`);
  if (value.includes('\u0000')) throw badRequest(`${key} must not contain NUL characters.`);
  return value;
}

function versions(body: Record<string, unknown>): string[] {
  const value = body.prompt_template_versions;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw badRequest('prompt_template_versions must be a list of strings.');
  return value as string[];
}

function toJson(row: Omit<AssistantFeedbackTable, 'id'> & { id: number }): FeedbackJson {
  return {
    id: Number(row.id),
    user_id: row.user_id === null ? null : Number(row.user_id),
    entity_type: row.entity_type,
    feedback_type: row.feedback_type,
    prompt: row.prompt,
    sql: row.sql,
    prompt_template_versions: parseJson<string[]>(row.prompt_template_versions, []),
    body: parseJson<Record<string, unknown>>(row.body, {}),
    created_at: row.created_at,
  };
}

/** Stores one piece of feedback; Metabase's answer `{feedback, message}`. */
export async function recordFeedback(ctx: AppContext, caller: Caller, body: unknown) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The feedback must be a JSON object.');
  const b = body as Record<string, unknown>;
  const serialized = JSON.stringify(b);
  if (serialized.length > 4 * MAX_TEXT) throw badRequest('The feedback is too large.');
  const row = {
    user_id: caller.user.id,
    entity_type: text(b, 'entity_type'),
    feedback_type: text(b, 'feedback_type'),
    prompt: text(b, 'prompt'),
    sql: text(b, 'sql'),
    prompt_template_versions: JSON.stringify(versions(b)),
    body: serialized,
    created_at: nowIso(),
  };
  const id = await insertReturningId(ctx.db, ctx.dialect, 'assistant_feedback', row);
  return { feedback: toJson({ id, ...row }), message: 'Thanks for your feedback' };
}

/** Feedback, newest first (admins). */
export async function listFeedback(ctx: AppContext, options: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    ctx.db.selectFrom('assistant_feedback').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute(),
    ctx.db.selectFrom('assistant_feedback').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map((r) => toJson(r)), total: Number(total.n), limit: options.limit, offset: options.offset };
}
