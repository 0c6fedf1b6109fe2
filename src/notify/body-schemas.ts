// The shapes of `cards`, `card` and `channels` in /api/pulse and /api/alert bodies, with Metabase's messages.

type Obj = Record<string, unknown>;

export const CARDS_MESSAGE =
  'one or more value must be a map with the following keys `(collection_id, description, display, id, include_csv, include_xls, name, dashboard_id, parameter_mappings)`, or value must be a map with the keys `id`, `include_csv`, `include_xls`, and `dashboard_card_id`., or value must be a map with the keys `include_csv`, `include_xls`, and `dashboard_card_id`.';
export const ALERT_CARD_MESSAGE = 'value must be a map with the keys `id`, `include_csv`, `include_xls`, and `dashboard_card_id`.';
export const CHANNELS_MESSAGE = 'one or more map';

function isMap(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const optionalId = (v: unknown) => v === undefined || v === null || (Number.isInteger(v) && (v as number) > 0);

/** A card entry of a pulse: the attachment flags, and a card id or a dashcard id (or both). */
export function isCardItem(v: unknown): boolean {
  if (!isMap(v)) return false;
  if (typeof v.include_csv !== 'boolean' || typeof v.include_xls !== 'boolean') return false;
  if (!optionalId(v.id) || !optionalId(v.dashboard_card_id)) return false;
  return (v.id !== undefined && v.id !== null) || (v.dashboard_card_id !== undefined && v.dashboard_card_id !== null);
}

/** An alert's card: an id and the attachment flags. */
export function isAlertCard(v: unknown): boolean {
  return isMap(v) && Number.isInteger(v.id) && (v.id as number) > 0 && isCardItem(v);
}

export function isMapList(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.every(isMap);
}
