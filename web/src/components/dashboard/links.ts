// Where the links of a dashboard's text and link cards may point: web pages, mail, and this site's own pages.
// Anything else (javascript:, data:, …) is not a link, so a card's text can never run script.

import { itemUrl } from '../../lib/items';

/** The URL to use for `raw`, or null when it is not a safe link target. `example.com` gets `https://`, as in Metabase. */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  if (/^(https?:|mailto:)/i.test(url)) return url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return null;
  return /^[\w-]+(\.[\w-]+)+/.test(url) ? `https://${url}` : null;
}

/** True for links leaving the app (opened in a new tab). */
export const isExternal = (href: string) => !href.startsWith('/');

export interface LinkEntity {
  id?: number;
  model?: string;
  name?: string;
  db_id?: number | null;
  database_id?: number | null;
  restricted?: boolean;
}

/** A link card's entity (`link.entity`) as a page of the app. */
export function entityHref(entity: LinkEntity): string | null {
  if (entity.restricted || typeof entity.id !== 'number' || !entity.model) return null;
  return itemUrl({ model: entity.model, id: entity.id, name: entity.name ?? '', db_id: entity.db_id, database_id: entity.database_id });
}
