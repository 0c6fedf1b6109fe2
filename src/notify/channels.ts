// Notification channels (/api/channel, reference A3): webhook targets (`channel/http`) that alerts post to. Admins
// only (a non-admin lists none and reads none). Details are checked against Metabase's closed schema, stored
// encrypted when MB_ENCRYPTION_SECRET_KEY is set, and not tried on save — only POST /api/channel/test connects.
// Deactivating a channel removes it from every alert that used it and renames it `DEACTIVATED_<id> <name>`, so the
// name can be used again.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, forbidden, notFound } from '../http/errors.js';
import { bool, insertReturningId, isUniqueViolation, nowIso, parseJson } from '../appdb/portable.js';
import { decryptText, encryptText } from '../databases/encryption.js';
import { NAME_MAX, fitName } from '../util/fit.js';
import { rescheduleJobs, TransientError } from '../tasks/scheduler.js';
import { errorMessage } from '../tasks/history.js';
import { AUTH_METHODS, FORM_TYPES, HTTP_METHODS, WebhookStatusError, postWebhook, type WebhookDetails } from './webhook.js';
import type { ChannelRow } from './store.js';

type Obj = Record<string, unknown>;

const DUPLICATE_NAME = () => new ApiError(409, { errors: { name: 'Channel with that name already exists' } });
const DETAIL_KEYS = ['url', 'auth-method', 'auth-info', 'fe-form-type', 'method'];

export const NAMESPACED = 'Must be a namespaced channel. E.g: channel/http';

/** `channel/<something>`; only `channel/http` channels can be stored. */
export function checkChannelType(type: unknown, field = 'type', nullablePrefix = ''): 'channel/http' {
  if (typeof type !== 'string' || !/^channel\/[a-z0-9-]+$/.test(type)) throw new ApiError(400, { errors: { [field]: `${nullablePrefix}${NAMESPACED}` } });
  if (type !== 'channel/http') throw new ApiError(400, { errors: { [field]: `Channels of type ${type} are not supported; use channel/http.` } });
  return type;
}

function detailsError(message: string): ApiError {
  return new ApiError(400, { errors: { details: message } });
}

/** Metabase's closed schema of webhook details. */
export function checkDetails(details: Obj): WebhookDetails {
  for (const key of Object.keys(details)) if (!DETAIL_KEYS.includes(key)) throw detailsError(`Unknown key ${key}: details take ${DETAIL_KEYS.join(', ')}.`);
  const url = details.url;
  let parsed: URL | null = null;
  try {
    parsed = typeof url === 'string' ? new URL(url) : null;
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw detailsError('url must be a valid http or https URL.');
  if (!(AUTH_METHODS as readonly unknown[]).includes(details['auth-method'])) throw detailsError(`auth-method must be one of ${AUTH_METHODS.join(', ')}.`);
  const info = details['auth-info'];
  if (info !== undefined && info !== null && (typeof info !== 'object' || Array.isArray(info))) throw detailsError('auth-info must be a map.');
  const form = details['fe-form-type'];
  if (form !== undefined && form !== null && !(FORM_TYPES as readonly unknown[]).includes(form)) throw detailsError(`fe-form-type must be one of ${FORM_TYPES.join(', ')}.`);
  const method = details.method;
  if (method !== undefined && method !== null && !(HTTP_METHODS as readonly unknown[]).includes(method)) throw detailsError(`method must be one of ${HTTP_METHODS.join(', ')}.`);
  return details as unknown as WebhookDetails;
}

export function channelDetailsOf(ctx: AppContext, row: Pick<ChannelRow, 'details'>): WebhookDetails {
  return parseJson<WebhookDetails>(decryptText(row.details, ctx.config.encryptionSecretKey), { url: '', 'auth-method': 'none' });
}

function channelJson(ctx: AppContext, row: ChannelRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    details: channelDetailsOf(ctx, row),
    active: bool(row.active),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function requireChannel(ctx: AppContext, id: number): Promise<ChannelRow> {
  const row = await ctx.db.selectFrom('channel').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function listChannels(ctx: AppContext, caller: Caller, includeInactive: boolean) {
  if (!caller.isSuperuser) return [];
  let query = ctx.db.selectFrom('channel').selectAll().orderBy('id');
  if (!includeInactive) query = query.where('active', '=', true);
  return (await query.execute()).map((row) => channelJson(ctx, row));
}

export async function getChannel(ctx: AppContext, caller: Caller, id: number) {
  if (!caller.isSuperuser) throw forbidden();
  return channelJson(ctx, await requireChannel(ctx, id));
}

async function nameTaken(ctx: AppContext, name: string, exceptId: number | null): Promise<boolean> {
  let query = ctx.db.selectFrom('channel').select('id').where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export interface ChannelInput {
  name: string;
  description: string | null;
  type: string;
  details: Obj;
  active: boolean | null;
}

export async function createChannel(ctx: AppContext, input: ChannelInput) {
  checkChannelType(input.type);
  const details = checkDetails(input.details);
  if (await nameTaken(ctx, input.name, null)) throw DUPLICATE_NAME();
  const now = nowIso();
  try {
    const id = await insertReturningId(ctx.db, ctx.dialect, 'channel', {
      name: input.name,
      description: input.description,
      type: input.type,
      details: encryptText(JSON.stringify(details), ctx.config.encryptionSecretKey),
      active: input.active ?? true,
      created_at: now,
      updated_at: now,
    });
    return channelJson(ctx, await requireChannel(ctx, id));
  } catch (error) {
    if (isUniqueViolation(error)) throw DUPLICATE_NAME();
    throw error;
  }
}

export interface ChannelUpdate {
  name?: string | null;
  description?: string | null;
  type?: string | null;
  details?: Obj | null;
  active?: boolean | null;
}

export async function updateChannel(ctx: AppContext, id: number, input: ChannelUpdate, present: Set<string>) {
  const row = await requireChannel(ctx, id);
  const changes: Obj = { updated_at: nowIso() };
  if (present.has('type') && input.type !== null && input.type !== undefined) changes.type = checkChannelType(input.type, 'type', 'nullable ');
  if (present.has('details') && input.details) changes.details = encryptText(JSON.stringify(checkDetails(input.details)), ctx.config.encryptionSecretKey);
  if (present.has('description')) changes.description = input.description ?? null;
  let name = row.name;
  if (input.name !== undefined && input.name !== null) {
    if (await nameTaken(ctx, input.name, id)) throw DUPLICATE_NAME();
    name = input.name;
    changes.name = name;
  }
  const deactivating = present.has('active') && input.active === false && bool(row.active);
  if (present.has('active') && input.active !== null && input.active !== undefined) changes.active = input.active;
  // a deactivated channel frees its name
  if (deactivating) changes.name = fitName(name, NAME_MAX, { prefix: `DEACTIVATED_${id} ` });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('channel').set(changes).where('id', '=', id).execute();
      // and leaves every alert that posted to it
      if (deactivating) await trx.deleteFrom('pulse_channel').where('channel_id', '=', id).execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw DUPLICATE_NAME();
    throw error;
  }
  if (deactivating) await rescheduleJobs(ctx);
  return channelJson(ctx, await requireChannel(ctx, id));
}

/** POST /api/channel/test: one real request with an empty payload. */
export async function testChannel(ctx: AppContext, type: unknown, details: Obj): Promise<{ ok: true }> {
  checkChannelType(type);
  const checked = checkDetails(details);
  try {
    await postWebhook(ctx, checked, {});
    return { ok: true };
  } catch (error) {
    const cause = error instanceof TransientError && (error as { cause?: unknown }).cause instanceof WebhookStatusError ? ((error as { cause?: unknown }).cause as WebhookStatusError) : error;
    if (cause instanceof WebhookStatusError) {
      throw new ApiError(400, { message: 'Failed to connect to channel', data: { 'request-status': cause.status, 'request-body': cause.responseBody } });
    }
    throw new ApiError(400, { message: errorMessage(error), data: null });
  }
}

export async function hasActiveHttpChannel(ctx: AppContext): Promise<boolean> {
  return (await ctx.db.selectFrom('channel').select('id').where('active', '=', true).where('type', '=', 'channel/http').limit(1).executeTakeFirst()) !== undefined;
}
