// /api/timeline-event (spec §4.17).

import type { Routes } from '../http/route.js';
import { s, type Schema } from '../http/schema.js';
import { createEvent, deleteEvent, getEvent, parseDateString, updateEvent } from '../timelines/events.js';
import { ICONS } from '../timelines/timelines.js';

/** A parseable date string, normalized to an ISO instant. */
export function datestr(): Schema<string> {
  const base = s.check<string>('value must be a valid date string', (v) => typeof v === 'string' && parseDateString(v) !== null, { type: 'string' });
  return {
    ...base,
    parse(value, coerce) {
      const r = base.parse(value, coerce);
      return r.ok ? { ok: true, value: parseDateString(r.value)! } : r;
    },
  };
}

/** Timeline and event names and event time zones are varchar(255) columns. */
const TIMELINE_TEXT_MAX = 255;
/** A timeline's or an event's name. */
export const timelineName = () => s.nbstr(undefined, { max: TIMELINE_TEXT_MAX });
const timezone = () => s.str(undefined, { max: TIMELINE_TEXT_MAX });

const eventFields = {
  description: s.maybe(s.str()),
  time_matters: s.maybe(s.bool()),
  icon: s.maybe(s.enum(ICONS)),
  archived: s.maybe(s.bool()),
};

export function timelineEventRoutes(r: Routes) {
  r.get('/api/timeline-event/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getEvent(ctx, caller, params.id));

  r.post(
    '/api/timeline-event',
    {
      body: {
        name: timelineName(),
        timestamp: datestr(),
        timezone: timezone(),
        timeline_id: s.posInt(),
        source: s.maybe(s.enum(['collections', 'question'] as const)),
        question_id: s.maybe(s.posInt()),
        ...eventFields,
      },
    },
    ({ ctx, caller, body }) => createEvent(ctx, caller, body),
  );

  r.put(
    '/api/timeline-event/:id',
    {
      params: { id: s.posInt() },
      body: {
        name: s.maybe(timelineName()),
        timestamp: s.maybe(datestr()),
        timezone: s.maybe(timezone()),
        timeline_id: s.maybe(s.posInt()),
        ...eventFields,
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateEvent(ctx, caller, params.id, body, bodyKeys),
  );

  r.delete('/api/timeline-event/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await deleteEvent(ctx, caller, params.id);
  });
}
