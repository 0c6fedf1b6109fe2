// POST /api/pulse/test: sends an unsaved subscription now, as the caller, to every channel of the body (enabled or
// not), after the same checks as creating it; nothing is stored. A channel that fails makes the answer a 400 saying
// why (after the other channels were tried).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { messageError } from '../http/errors.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableDashboard } from '../dashboards/dashboards.js';
import { checkCards, checkParameters, subscriptionChannels, type PulseBody } from './pulses.js';
import { parseCards, parseChannels } from './write.js';
import { sendPulse } from './send/send-pulse.js';
import { unsavedPulse } from './unsaved.js';

export async function sendTestPulse(ctx: AppContext, caller: Caller, body: Omit<PulseBody, 'collection_position'>): Promise<{ ok: true }> {
  const access = await collectionAccess(ctx, caller);
  const cards = parseCards(body.cards);
  await checkCards(ctx, access, cards, body.dashboard_id);
  if (body.dashboard_id !== null) await readableDashboard(ctx, access, body.dashboard_id);
  const parameters = checkParameters(body.parameters);
  const channels = await parseChannels(ctx, caller, subscriptionChannels(body.channels));
  const loaded = unsavedPulse(
    { name: body.name, creator_id: caller.user.id, skip_if_empty: body.skip_if_empty ?? false, alert_condition: null, alert_first_only: null, alert_above_goal: null, collection_id: body.collection_id, collection_position: null, dashboard_id: body.dashboard_id, parameters },
    cards,
    channels,
  );
  const outcome = await sendPulse(ctx, loaded, { channelIds: loaded.channels.map((c) => c.id), manual: true, sender: caller });
  if (outcome.failed.length) throw messageError(400, `Sending failed: ${outcome.failed.map((f) => f.error).join('; ')}`);
  return { ok: true };
}
